/**
 * Numbers kept as sent: a compacted body keeps the original text of everything it does not
 * rewrite, so big integers, long decimals and out-of-range exponents in the kept messages and the
 * other fields reach the upstream with the digits the client wrote. The property runs through the
 * proxy in this process and, through the built bundle, under the oldest Node on PATH (Node 20 has
 * no JSON.parse source text to lean on).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { delimiter, join } from "node:path";
import { Engine, resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { splicedBody } from "../../proxy/decision/numbers.js";

const CONFIG = { profile: "reference" as const, thresholdTokens: 300, keepRecent: 1 };

const bigInt = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String);
const decimal = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^[0-9]{1,40}$/), fc.boolean()).map(([i, f, neg]) => `${neg ? "-" : ""}${i}.${f}`);
const exponent = fc.tuple(fc.stringMatching(/^-?[1-9][0-9]{0,20}(\.[0-9]{1,20})?$/), fc.constantFrom("e", "E", "e+", "E-", "e-"), fc.integer({ min: 0, max: 999 })).map(([m, e, x]) => `${m}${e}${x}`);
const literal = fc.oneof(bigInt, decimal, exponent, fc.constantFrom("1e400", "-1e-400", "-0", "0.0", "12345678901234567891", "0.1000000000000000055511151231257827", "9007199254740993"));
const gap = fc.constantFrom("", " ", "\n  ", "\t");

/** A body as text, written by hand so its number literals are exactly the generated ones. */
const bodyText = fc
  .tuple(fc.array(fc.tuple(literal, literal, literal, fc.integer({ min: 0, max: 900 })), { minLength: 2, maxLength: 7 }), literal, literal, gap)
  .map(([turns, top, meta, g]) => {
    const msgs = [`{"role":"user","content":"Compute the totals."}`];
    turns.forEach(([a, b, c, pad], i) => {
      msgs.push(`{"role":"assistant",${g}"content":[{"type":"text","text":"step ${i}"},{"type":"tool_use","id":"t${i}","name":"calc","input":{"n":${g}${a},"xs":[${b},${g}${c}]}}]}`);
      msgs.push(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t${i}","content":"${"r".repeat(pad)} ${a}"}]}`);
    });
    const text = `{${g}"model":"claude-x","max_tokens":${top},"metadata":{"seed":${meta}},${g}"messages":${g}[${msgs.join(`,${g}`)}],"temperature":${top}${g}}`;
    return { text, msgs };
  });

/** The messages a reference engine keeps, by index, and the body it sends. */
function expected(text: string): { kept: number[]; body: unknown; modified: boolean } {
  const parsed = JSON.parse(text);
  const p = new Engine(CONFIG).prepare(parsed, "anthropic");
  const at = new Map(p.messages.map((m, i) => [m, i]));
  return { kept: p.substituted.map((m) => at.get(m)).filter((i): i is number => i !== undefined), body: p.outgoingBody(), modified: p.modified };
}

function check(text: string, msgs: string[], received: string): boolean {
  const e = expected(text);
  expect(JSON.stringify(JSON.parse(received))).toBe(JSON.stringify(e.body));
  if (!e.modified) {
    expect(received).toBe(text);
    return false;
  }
  for (const i of e.kept) expect(received).toContain(msgs[i]);
  // Everything but the message list is the client's own text.
  const start = text.indexOf('"messages":');
  expect(received.startsWith(text.slice(0, start))).toBe(true);
  expect(received.endsWith(text.slice(text.lastIndexOf("]")))).toBe(true);
  expect(received).toContain(SUMMARY_HEADER.slice(0, 20));
  return true;
}

describe("splicedBody", () => {
  it("keeps every kept message's and field's text, in this process", () => {
    let compacted = 0;
    fc.assert(
      fc.property(bodyText, ({ text, msgs }) => {
        const parsed = JSON.parse(text);
        const p = new Engine(CONFIG).prepare(parsed, "anthropic");
        const out = p.modified ? splicedBody(text, "messages", p.messages, p.substituted) : text;
        expect(out).not.toBeNull();
        if (check(text, msgs, out!)) compacted++;
      }),
      { numRuns: 300 },
    );
    expect(compacted).toBeGreaterThan(100);
  });

  it("reads keys with escapes, duplicate keys (the last wins, as JSON.parse) and strings holding brackets and quotes", () => {
    const text = '{"messages":[1],"m\\u0065ssages" : [ {"a":"]\\"[}"} , 12345678901234567891 ,{"b":[1e400]} ],"x":"]"}';
    const parsed = JSON.parse(text);
    const [a, b, c] = parsed.messages;
    expect(splicedBody(text, "messages", parsed.messages, [c, { s: "new" }, a, b])).toBe('{"messages":[1],"m\\u0065ssages" : [{"b":[1e400]},{"s":"new"},{"a":"]\\"[}"},12345678901234567891],"x":"]"}');
    expect(splicedBody("[1]", "messages", [], [])).toBeNull();
    expect(splicedBody('{"messages":{}}', "messages", [], [])).toBeNull();
  });
});

/** The Node binaries on PATH, oldest first (the test runtime puts a newer one first). */
function nodes(): { path: string; version: string }[] {
  const seen = new Map<string, string>();
  for (const dir of (process.env.PATH ?? "").split(delimiter).concat(["/usr/bin", "/usr/local/bin"])) {
    const p = join(dir, "node");
    if (!existsSync(p)) continue;
    const real = realpathSync(p);
    if (seen.has(real)) continue;
    const v = spawnSync(real, ["--version"], { encoding: "utf8" }).stdout.trim();
    if (/^v\d+\.\d+/.test(v)) seen.set(real, v);
  }
  const key = (v: string) => v.slice(1).split(".").map(Number);
  return [...seen].map(([path, version]) => ({ path, version })).sort((x, y) => key(x.version)[0] - key(y.version)[0] || key(x.version)[1] - key(y.version)[1]);
}

const oldest = nodes()[0] ?? { path: process.execPath, version: process.version };

describe(`through the built proxy under the oldest Node on PATH (${oldest.version})`, () => {
  it("random big integers, long decimals and exponents in kept messages reach the upstream with the same text", () => {
    const [major, minor] = oldest.version.slice(1).split(".").map(Number);
    expect(major > 20 || (major === 20 && minor >= 19)).toBe(true); // the package's oldest supported Node, or newer
    const cases = fc.sample(bodyText, { numRuns: 120, seed: 22 });
    const child = spawnSync(oldest.path, [new URL("./numbers-child.mjs", import.meta.url).pathname], {
      input: JSON.stringify({ config: resolveConfig(CONFIG), cases: cases.map((c) => ({ path: "/v1/messages", text: c.text })) }),
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).toBe("");
    const out = JSON.parse(child.stdout) as { version: string; received: string[] };
    expect(out.version).toBe(oldest.version);
    expect(out.received).toHaveLength(cases.length);
    let compacted = 0;
    cases.forEach((c, i) => {
      if (check(c.text, c.msgs, out.received[i])) compacted++;
    });
    expect(compacted).toBeGreaterThan(40);
  });
});

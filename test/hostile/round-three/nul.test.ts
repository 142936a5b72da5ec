/**
 * Reliability, round three, item 2: text dense with characters the envelope escapes (NUL, CR, ESC,
 * lone surrogates). Escaping is linear and done only for what is rendered; candidates are sized
 * by counting; the time guard reads the clock inside long steps. Work is asserted by counts (units
 * the engine's string methods produce, clock reads); `npm run bench:stress` times 36 M NULs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { resolveConfig } from "../../../core/index.js";
import { parseEnvelope } from "../../../plugin/envelope-read.js";
import { escapedLength, escapeText, unescapeText, unsafeCount } from "../../../plugin/escape.js";
import { summarizeWithReport } from "../../../plugin/summarize.js";
import { TASK, type FlatMessage } from "../../helpers/flat-session.js";
import { BUNDLE_PATH, quickjsSandbox, vmSandbox, type Sandbox } from "../../helpers/sandboxes.js";

const BUNDLE = process.env.CLIFF_BUNDLE ?? BUNDLE_PATH;
const cfg = resolveConfig();

function dense(messages: number, nuls: number): FlatMessage[] {
  const out: FlatMessage[] = [TASK];
  for (let i = 0; i < messages; i++) out.push({ role: "assistant", content: `step ${i} ` + "\u0000".repeat(nuls) }, { role: "tool", content: `ok ${i}` });
  return out;
}

// Counts what the engine's string methods hand back inside the sandbox: a sizer that wrote the
// escaped text (five units per NUL) would show here.
const COUNTING = `
globalThis.__produced = 0;
for (const [proto, name] of [[String.prototype, "replaceAll"], [String.prototype, "replace"], [String.prototype, "split"], [Array.prototype, "join"], [String.prototype, "concat"]]) {
  const f = proto[name];
  if (typeof f !== "function") continue;
  proto[name] = function (...args) {
    const r = f.apply(this, args);
    globalThis.__produced += typeof r === "string" ? r.length : 0;
    return r;
  };
}`;

let sandboxes: Sandbox[];
beforeAll(async () => {
  sandboxes = [vmSandbox("", BUNDLE), await quickjsSandbox("", BUNDLE)];
});

describe("round three: NUL-dense text", () => {
  it("2. NUL-dense assistant text: a summary within budget, no NUL leaves the plugin, the NULs read back", () => {
    const msgs = dense(200, 2000);
    for (const sb of sandboxes) {
      const s = sb.summarize({ messages: msgs, threshold: 50_000 });
      expect(s, sb.name).not.toBe("");
      expect(s.indexOf("\u0000")).toBe(-1);
      expect(Math.ceil(s.length / 4)).toBeLessThanOrEqual(0.45 * 50_000);
      const env = parseEnvelope(s)!;
      expect(env.task).toEqual([TASK]);
      expect(env.digest).toContain("\u0000".repeat(100));
    }
  });

  it("2. sizing never writes the escaped text: the string methods produce less than three times the input", () => {
    const msgs = dense(50, 40_000); // 2 M NULs; written escaped they would be 10 M units
    const input = msgs.reduce((n, m) => n + m.content.length, 0);
    const vm = vmSandbox(COUNTING, BUNDLE);
    const s = vm.summarize({ messages: msgs, threshold: 50_000 });
    expect(s).not.toBe("");
    const produced = vm.evalJson("globalThis.__produced") as number;
    // The core writes each assistant part once per kind of rung (two); one escaped candidate would be five.
    expect(produced).toBeLessThan(3 * input);
  });

  it("2. the time guard reads the clock inside long steps (once per 1,024 messages summarised) and the first read past the deadline ends it", () => {
    const msgs: FlatMessage[] = [TASK];
    for (let i = 0; i < 60_000; i++) msgs.push({ role: i % 2 ? "tool" : "assistant", content: `s${i}` });
    let reads = 0;
    const fine = summarizeWithReport({ messages: msgs, threshold: 2_000 }, cfg, { now: () => (reads++, 0) });
    expect(fine.outcome).toBe("summary");
    // Every message is summarised at least once, so a step of the ladder holds tens of thousands.
    expect(reads).toBeGreaterThanOrEqual(60_000 / 1024);
    for (const at of [3, 20, 50]) {
      let n = 0;
      const r = summarizeWithReport({ messages: msgs, threshold: 2_000 }, cfg, { now: () => (n++ < at ? 0 : 1e12), timeLimitMs: 60_000 });
      expect(r.outcome).toBe("time-limit");
      expect(n).toBe(at + 1);
    }
  });

  it("2. escapedLength and unsafeCount count exactly what escapeText writes, and unescapeText reverses it", () => {
    const unit = fc.constantFrom("a", "\u0000", "\r", "\n", "\ue000", "\ud800", "\udc00", "😀", "<", "é");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }).map((xs) => xs.join("")), (text) => {
        const escaped = escapeText(text);
        expect(escapedLength(text)).toBe(escaped.length);
        expect(escaped.length).toBe(text.length + 4 * unsafeCount(text));
        expect(unescapeText(escaped)).toBe(text);
        expect(/[\u0000\r]/.test(escaped)).toBe(false);
      }),
      { numRuns: 1000 },
    );
    expect(unescapeText("a\ue000zz")).toBeNull();
  });
});

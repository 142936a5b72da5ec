/**
 * Reliability, round two: what an attacker and a strange host found. Each case is pinned at its
 * cause; the time and memory cases assert counts of work (probes, clock reads, comparisons,
 * entries and bytes kept), never wall-clock times. Set CLIFF_BUNDLE to another build of the
 * plugin to run the bundle cases against it (a build from before these fixes fails them).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUCKET_MAX } from "../../core/engine/memo.js";
import { Engine, isWellFormed, resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { ROLE_MAX } from "../../plugin/envelope.js";
import { summarizeWithReport } from "../../plugin/summarize.js";
import { count, cycleTurns, TASK, type FlatMessage } from "../helpers/flat-session.js";
import { BUNDLE_PATH, quickjsSandbox, vmSandbox, type Sandbox } from "../helpers/sandboxes.js";

const BUNDLE = process.env.CLIFF_BUNDLE ?? BUNDLE_PATH;
const tokens = (s: string): number => Math.ceil(s.length / 4);
const utf8RoundTrip = (s: string): string => Buffer.from(s, "utf8").toString("utf8");

let vm: Sandbox;
let qjs: Sandbox;
beforeAll(async () => {
  vm = vmSandbox("", BUNDLE);
  qjs = await quickjsSandbox("", BUNDLE);
});

/** Both sandboxes, the QuickJS one read out through quickjs-emscripten's C-string boundary (getString). */
const both = (): Sandbox[] => [vm, qjs];

describe("round two: the task can be lost, or the summary refused", () => {
  it("1. a role of 5,000 characters: the envelope reads back and the task survives the next compaction", () => {
    const long = "r".repeat(5000);
    const msgs: FlatMessage[] = [TASK, { role: "assistant", content: "look" }, { role: long, content: "odd host note" }, ...cycleTurns(1, 6)];
    for (const sb of both()) {
      const s = sb.summarize({ messages: msgs, threshold: 100000 });
      const env = parseEnvelope(s);
      expect(env, sb.name).not.toBeNull();
      const next = parseEnvelope(sb.summarize({ messages: [{ role: "user", content: s }, ...cycleTurns(2, 6)], threshold: 100000 }));
      expect(next!.task).toEqual([TASK]);
      expect(s.includes("r".repeat(ROLE_MAX + 1))).toBe(false);
    }
  });

  it("2. a NUL in a short tool output: no U+0000 leaves the plugin, QuickJS hands back the whole string, the next compaction parses it", () => {
    const msgs: FlatMessage[] = [TASK, { role: "assistant", content: "read the binary" }, { role: "tool", content: "ELF\u0000\u0001\u0002 header" }, ...cycleTurns(1, 4)];
    const fromVm = vm.summarize({ messages: msgs, threshold: 100000 });
    const fromQjs = qjs.summarize({ messages: msgs, threshold: 100000 });
    expect(fromVm.includes("\u0000")).toBe(false);
    expect(fromQjs).toBe(fromVm);
    expect(parseEnvelope(fromQjs)!.digest).toContain("result: ELF\u0000\u0001\u0002 header");
    const next = qjs.summarize({ messages: [{ role: "user", content: fromQjs }, ...cycleTurns(2, 4)], threshold: 100000 });
    expect(parseEnvelope(next)!.task).toEqual([TASK]);
  });

  it("3. a lone surrogate in a recent message: the output is well-formed, survives UTF-8 byte for byte, and the recent turn is read back verbatim", () => {
    const odd = { role: "tool", content: "half a pair \ud83d here, and a low one \udc00 too" };
    const msgs: FlatMessage[] = [TASK, ...cycleTurns(1, 4), { role: "assistant", content: "cat weird.txt" }, odd];
    for (const sb of both()) {
      const s = sb.summarize({ messages: msgs, threshold: 100000 });
      expect(isWellFormed(s), sb.name).toBe(true);
      expect(utf8RoundTrip(s)).toBe(s);
      const env = parseEnvelope(utf8RoundTrip(s))!;
      expect(env.recent.at(-1)).toEqual(odd);
      expect(env.task).toEqual([TASK]);
    }
  });

  it("4. no threshold and one large newest message: the summary fits half of the platform's true threshold", () => {
    // True threshold 10,000 tokens; the history is at ~9,300 when a 7,000-token tool output arrives.
    // Its long outputs are dropped from the digest, so a summary that keeps the new output verbatim
    // would fit 0.45 × the handed estimate (16,300), and be refused at 5,000.
    const msgs: FlatMessage[] = [TASK];
    for (let i = 0; i < 12; i++) msgs.push({ role: "assistant", content: `s${i}` }, { role: "tool", content: `out ${i}\n` + "x".repeat(3090) });
    msgs.push({ role: "assistant", content: "dump the log" }, { role: "tool", content: "L".repeat(28_000) });
    for (const sb of both()) {
      const s = sb.summarize({ messages: msgs });
      expect(s, sb.name).not.toBe("");
      expect(tokens(s)).toBeLessThanOrEqual(5000);
      expect(parseEnvelope(s)!.task).toEqual([TASK]);
    }
  });

  it("5. our previous summary echoed by an assistant or resent as a system note is never quoted again", () => {
    const first = vm.summarize({ messages: [TASK, ...cycleTurns(1, 8)], threshold: 100000 });
    expect(first).not.toBe("");
    for (const role of ["assistant", "system", "tool", "developer", "critic"]) {
      const msgs: FlatMessage[] = [{ role: "user", content: first }, ...cycleTurns(2, 3), { role, content: first }, ...cycleTurns(3, 4)];
      for (const sb of both()) {
        const s = sb.summarize({ messages: msgs, threshold: 100000 });
        expect(count(s, SUMMARY_HEADER), `${sb.name} ${role}`).toBe(1);
        expect(count(s, "<cliff-summary")).toBe(1);
        expect(parseEnvelope(s)!.task).toEqual([TASK]);
      }
    }
  });

  it("6. a repeat compaction that brings one new message after an envelope with no recent turns is answered", () => {
    // A tight budget drives the first compaction to rung 3 (no recent turns kept).
    const msgs: FlatMessage[] = [TASK, ...cycleTurns(1, 12)];
    const first = summarizeWithReport({ messages: msgs, threshold: 700 }, resolveConfig());
    expect(first.outcome).toBe("summary");
    expect(first.rung).toBe(3);
    expect(parseEnvelope(first.summary)!.recent).toEqual([]);
    for (const extra of [{ role: "assistant", content: "Continuing with the parser fix now." }, { role: "user", content: "please continue" }]) {
      for (const sb of both()) {
        const s = sb.summarize({ messages: [{ role: "user", content: first.summary }, extra], threshold: 700 });
        expect(s, `${sb.name} ${extra.role}`).not.toBe("");
        expect(tokens(s)).toBeLessThanOrEqual(0.45 * 700);
        expect(parseEnvelope(s)!.task).toEqual([TASK]);
      }
    }
  });

  it("7. the CLI's QuickJS path on a bracket bomb answers like the library (it used to abort)", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-bomb-"));
    const bomb = "[".repeat(10_000) + "]".repeat(10_000);
    const file = join(dir, "bomb.json");
    writeFileSync(file, JSON.stringify({ messages: [TASK, { role: "assistant", content: "look" }, { role: "tool", content: bomb }, ...cycleTurns(1, 3)] }));
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "compact", file, "--host", "agentparley", "--sandbox", "quickjs"], { encoding: "utf8", timeout: 60_000 });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("identical to the library's output");
  });

  it("7. a tool output of 10,000 nested brackets is text: QuickJS returns a summary instead of throwing", () => {
    const bomb = "[".repeat(10_000) + "]".repeat(10_000);
    for (const content of [bomb, "{" + '"a":{'.repeat(10_000) + "}".repeat(10_001), "[{" + '"type":['.repeat(5_000) + "]".repeat(5_000) + "}]"]) {
      const msgs: FlatMessage[] = [TASK, { role: "assistant", content }, { role: "tool", content }, ...cycleTurns(1, 4)];
      for (const sb of both()) {
        const s = sb.summarize({ messages: msgs, threshold: 100000 });
        expect(s, sb.name).not.toBe("");
        expect(parseEnvelope(s)!.task).toEqual([TASK]);
      }
    }
  });
});

describe("round two: the platform's 120 seconds", () => {
  const cfg = resolveConfig();

  it("8. a task alone over budget is answered from the task alone: no ladder probe runs", () => {
    const big: FlatMessage = { role: "user", content: "T".repeat(400_000) };
    const msgs: FlatMessage[] = [big];
    for (let i = 0; i < 20_000; i++) msgs.push({ role: i % 2 ? "tool" : "assistant", content: `s${i}` });
    const r = summarizeWithReport({ messages: msgs, threshold: 50_000 }, cfg);
    expect(r.outcome).toBe("task-too-large");
    expect(r.probes).toBe(0);
    // On a repeat compaction the task is known before any rung runs.
    const env = summarizeWithReport({ messages: [TASK, ...cycleTurns(1, 6)], threshold: 100000 }, cfg).summary;
    const bigTask = env.replace(TASK.content, TASK.content); // the same envelope, carried
    const again = summarizeWithReport({ messages: [{ role: "user", content: bigTask }, ...cycleTurns(2, 6)], threshold: 40 }, cfg);
    expect(again.outcome).toBe("task-too-large");
    expect(again.probes).toBe(0);
  });

  it("9. many small parts: the ladder sizes a bounded number of candidates, arithmetically", () => {
    const msgs: FlatMessage[] = [TASK];
    for (let i = 0; i < 150; i++) {
      const calls = Array.from({ length: 300 }, (_, k) => ({ type: "tool_use", id: `c${i}_${k}`, name: "read", input: { path: `src/f${k}.ts` } }));
      msgs.push({ role: "assistant", content: JSON.stringify(calls) });
      msgs.push({ role: "tool", content: `ok ${i}` });
    }
    const r = summarizeWithReport({ messages: msgs, threshold: 20_000 }, cfg);
    expect(r.outcome).toBe("summary");
    expect(r.rung).toBe(3);
    // 3 rungs, the shed re-measures and a binary search over ~45,000 parts: a few dozen probes, never one per part.
    expect(r.probes).toBeLessThan(60);
    expect(tokens(r.summary)).toBeLessThanOrEqual(0.45 * 20_000);
  });

  it("the time guard: past the limit, summarize returns \"\" between steps", () => {
    let t = 0;
    let reads = 0;
    const now = () => {
      reads++;
      return (t += 10_000); // every step takes 10 s
    };
    const msgs: FlatMessage[] = [TASK, ...cycleTurns(1, 40)];
    const r = summarizeWithReport({ messages: msgs, threshold: 2000 }, cfg, { now, timeLimitMs: 60_000 });
    expect(r.outcome).toBe("time-limit");
    expect(r.summary).toBe("");
    expect(reads).toBeLessThanOrEqual(8);
    const fine = summarizeWithReport({ messages: msgs, threshold: 2000 }, cfg, { now: () => 0 });
    expect(fine.outcome).toBe("summary");
  });
});

describe("round two: hosts and servers", () => {
  it("10. messages that share the memo's cheap key cost a bounded number of comparisons each", () => {
    const n = 4000;
    const same = (i: number) => ({ role: "user", content: "a" + String(i).padStart(6, "0").replace(/./g, (c) => String.fromCharCode(98 + Number(c))) + "z".repeat(40) + "a" });
    // Same length and the same characters at every sampled place; only the middle differs.
    const body = { model: "m", messages: Array.from({ length: n }, (_, i) => same(i)) };
    const e = new Engine({ thresholdTokens: 1 << 30 });
    e.prepare(body, "anthropic");
    e.prepare(JSON.parse(JSON.stringify(body)), "anthropic");
    expect(e.stats().memoComparisons).toBeLessThanOrEqual(2 * n * BUCKET_MAX);
  });

  it("10. memoMaxBytes 0 keeps nothing by content, and every cache is bounded in bytes", () => {
    const none = new Engine({ thresholdTokens: 200 }, { memoMaxBytes: 0 });
    const capped = new Engine({ thresholdTokens: 200 }, { memoMaxBytes: 200_000, digestCacheMaxBytes: 100_000 });
    for (let s = 0; s < 200; s++) {
      const msgs: unknown[] = [{ role: "user", content: `session ${s}: fix the build` }];
      for (let i = 0; i < 10; i++) msgs.push({ role: "assistant", content: `s${s} step ${i} `.repeat(20) }, { role: "user", content: `s${s} out ${i} `.repeat(30) });
      none.prepare({ messages: msgs }, "anthropic");
      capped.prepare({ messages: msgs }, "anthropic");
    }
    const z = none.stats();
    expect([z.memo.entries, z.memo.bytes, z.digests.entries, z.digests.bytes]).toEqual([0, 0, 0, 0]);
    const c = capped.stats();
    expect(c.memo.bytes).toBeLessThanOrEqual(200_000);
    expect(c.digests.bytes).toBeLessThanOrEqual(100_000);
    expect(c.memo.entries).toBeGreaterThan(0);
    expect(c.store.bytes).toBeLessThanOrEqual(capped.config.storeMaxBytes);
  });

  it("11. the CLI: endless input, a chart over its own input, a missing folder and deep nesting each get one line", () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 60_000 });
    const dir = mkdtempSync(join(tmpdir(), "cliff-r2-"));
    const session = join(dir, "s.json");
    writeFileSync(session, JSON.stringify({ messages: [TASK, ...cycleTurns(1, 6)] }));
    const oneLine = (r: ReturnType<typeof cli>, pattern: RegExp) => {
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    };
    oneLine(cli("compact", "/dev/zero"), /limit for a session/);
    oneLine(cli("compact", session, "--config", "/dev/zero"), /limit for a config/);
    oneLine(cli("simulate", session, "--threshold", "500", "--svg", session), /is the input file/);
    oneLine(cli("simulate", session, "--threshold", "500", "--csv", join(dir, "nope", "x.csv")), /does not exist/);
    const deep = '{"x":'.repeat(5000) + "1" + "}".repeat(5000);
    const deepFile = join(dir, "deep.json");
    writeFileSync(deepFile, `{"messages":[{"role":"user","content":"task"},{"role":"assistant","content":[{"type":"tool_use","id":"1","name":"f","input":${deep}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"1","content":"ok"}]},{"role":"assistant","content":"done"}]}`);
    const r = cli("compact", deepFile, "--host", "agentparley");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

/**
 * Re-fetches (core/refetch.ts): a call after a cliff that repeats a call whose result the cliff
 * dropped, in every dialect and for each way a file is read; repeats of what the request still
 * held, and second repeats, are none.
 */
import { describe, expect, it } from "vitest";
import { compact, getDialect, tokensOfChars } from "../../core/index.js";
import { refetchesIn, refetchTotals } from "../../core/refetch.js";
import { refOf } from "../../core/recall/index.js";
import { callKey } from "../../core/repeats/call-key.js";
import { ALL_DIALECTS, filler, numberedLines, session, stepMessages, type Step } from "../helpers/tool-steps.js";

const big = numberedLines("export function parseWidgetToken", 60);
const fillers = (from: number, n = 3): Step[] => Array.from({ length: n }, (_, i) => filler(from + i));

/** The session cut by a real cliff, then `after` steps: the re-fetches of those steps. */
function after(dialect: (typeof ALL_DIALECTS)[number], before: Step[], later: Step[], cfg: Record<string, unknown> = {}) {
  const msgs = session(dialect, [...before, ...fillers(0)]);
  const r = compact(msgs, dialect, { profile: "reference", keepRecent: 3, ...cfg });
  expect(r).not.toBeNull();
  const from = msgs.length;
  const all = [...msgs, ...later.flatMap((s) => stepMessages(dialect, s))];
  return refetchesIn(all, getDialect(dialect), { headLen: r!.headLen, cut: r!.cut, summaryText: r!.summaryText }, from);
}

describe("call keys: one file read however it is read, other calls by tool and normalised arguments", () => {
  it("reads of one path share a key across tools; key order and whitespace do not matter", () => {
    const read = callKey("Read", { file_path: "src/a.ts" });
    expect(callKey("read", { path: "./src/a.ts" })).toBe(read);
    expect(callKey("exec_command", { cmd: "sed -n '1,200p' src/a.ts" })).toBe(read);
    expect(callKey("shell", { command: ["bash", "-lc", "cat src/a.ts"] })).toBe(read);
    expect(callKey("bash", { command: "nl -ba src/a.ts" })).toBe(read);
    expect(callKey("str_replace_editor", { command: "view", path: "src/a.ts" })).toBe(read);
    expect(callKey("Read", { file_path: "src/b.ts" })).not.toBe(read);
    expect(callKey("grep", { pattern: "x", path: "src" })).toBe(callKey("Grep", JSON.stringify({ path: "src", pattern: "x" })));
    expect(callKey("bash", { command: "npm   test\n" })).toBe(callKey("bash", { command: "npm test" }));
    expect(callKey("bash", { command: "npm test" })).not.toBe(callKey("bash", { command: "npm run build" }));
  });
});

describe("re-fetches after a cliff", () => {
  it.each(ALL_DIALECTS)("%s: a file the cliff dropped read again counts once, with its result's tokens", (dialect) => {
    const found = after(dialect, [{ name: "Read", args: { file_path: "src/widget.ts" }, result: big }], [
      { name: "Read", args: { file_path: "src/widget.ts" }, result: big },
      { name: "Read", args: { file_path: "src/widget.ts" }, result: big },
    ]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ tool: "Read", path: "src/widget.ts" });
    expect(found[0].tokens).toBe(tokensOfChars(big.length));
    expect(found[0].tokens).toBeGreaterThan(500);
    expect(refetchTotals(found)).toEqual({ count: 1, tokens: found[0].tokens });
  });

  it.each(ALL_DIALECTS)("%s: a file never dropped (first read, or a short result the summary holds) counts none", (dialect) => {
    expect(after(dialect, [{ name: "Read", args: { file_path: "src/widget.ts" }, result: big }], [{ name: "Read", args: { file_path: "src/other.ts" }, result: big }])).toEqual([]);
    expect(after(dialect, [{ name: "Read", args: { file_path: "src/tiny.ts" }, result: "export const tiny = 1;" }], [{ name: "Read", args: { file_path: "src/tiny.ts" }, result: "export const tiny = 1;" }])).toEqual([]);
  });

  it("a command run again counts; a result the recall profile's working set kept does not", () => {
    const cmd = { name: "bash", args: { command: "npm test" }, result: big };
    expect(after("anthropic", [cmd], [{ ...cmd, args: { command: "npm  test" } }])).toHaveLength(1);
    const read = { name: "Read", args: { file_path: "src/widget.ts" }, result: big };
    expect(after("anthropic", [read], [read], { workingSetFileMaxChars: 16000 })).toEqual([]);
  });

  it("a Codex sed -n of a file that a Read dropped counts as a re-read of that file", () => {
    const found = after("openai-responses", [{ name: "exec_command", args: { cmd: "cat src/widget.ts" }, result: big }], [{ name: "exec_command", args: { cmd: "sed -n '1,40p' src/widget.ts" }, result: big }]);
    expect(found).toHaveLength(1);
    expect(found[0].path).toBe("src/widget.ts");
  });

  it("a recall by a ref the summary names counts once (the agent fetched the dropped text back); a ref it does not name does not", () => {
    const msgs = session("anthropic", [{ name: "bash", args: { command: "make" }, result: big }, ...fillers(0)]);
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3, refs: true, recallTool: true })!;
    const ref = refOf(big);
    expect(r.summaryText).toContain(`chars, ref ${ref}`);
    const recall = { name: "cliff_recall", args: { ref }, result: big };
    const all = [...msgs, ...stepMessages("anthropic", recall), ...stepMessages("anthropic", recall), ...stepMessages("anthropic", { name: "cliff_recall", args: { ref: "0123456789ab" }, result: "unknown ref" })];
    const found = refetchesIn(all, getDialect("anthropic"), { headLen: r.headLen, cut: r.cut, summaryText: r.summaryText }, msgs.length);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ tool: "cliff_recall", repeats: -1, path: null });
    // Without refs the summary names none: the same call is no re-fetch.
    const bare = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3 })!;
    expect(refetchesIn(all, getDialect("anthropic"), { headLen: bare.headLen, cut: bare.cut, summaryText: bare.summaryText }, msgs.length)).toEqual([]);
  });

  it("calls before `from` (made before the cliff) are never counted", () => {
    const read = { name: "Read", args: { file_path: "src/widget.ts" }, result: big };
    const msgs = session("anthropic", [read, ...fillers(0), read, ...fillers(3)]);
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3 })!;
    expect(refetchesIn(msgs, getDialect("anthropic"), { headLen: r.headLen, cut: r.cut, summaryText: r.summaryText }, msgs.length)).toEqual([]);
  });
});

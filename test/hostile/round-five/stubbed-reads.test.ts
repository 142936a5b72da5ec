/**
 * Round five, item 1: Claude Code's re-read stubs cost one pass over the request, not a scan of
 * every tool result per stub. The work is counted where it happens: each read of a call's
 * `file_path` (the rule reads it to match a stub to its file's text).
 */
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../../core/index.js";
import { READ_STUB_OPENINGS, stubbedReadParts } from "../../../core/parts/index.js";

/** `files` whole reads, then `stubs` re-reads of them that come back as stubs; every call's input counts its `file_path` reads. */
function session(files: number, stubs: number): { messages: unknown[]; reads: { n: number } } {
  const reads = { n: 0 };
  const input = (path: string) => new Proxy({ file_path: path }, { get: (t, k) => (k === "file_path" && reads.n++, Reflect.get(t, k)) });
  const messages: unknown[] = [{ role: "user", content: "fix the build" }];
  const call = (id: string, path: string) => ({ role: "assistant", content: [{ type: "tool_use", id, name: "Read", input: input(path) }] });
  const result = (id: string, text: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] });
  for (let i = 0; i < files; i++) messages.push(call(`r${i}`, `/src/f${i}.ts`), result(`r${i}`, `export const f${i} = ${i};\n`.repeat(200)));
  for (let i = 0; i < stubs; i++) messages.push(call(`s${i}`, `/src/f${i % files}.ts`), result(`s${i}`, READ_STUB_OPENINGS[0]));
  return { messages, reads };
}

describe("round five: re-read stubs", () => {
  it("1. re-read stubs are linear: file_path reads grow with the request, not stubs × results", () => {
    const cfg = resolveConfig({ profile: "recall", thresholdTokens: 1000 });
    const count = (stubs: number): number => {
      const { messages, reads } = session(50, stubs);
      const parts = stubbedReadParts(messages, { headLen: 1, spanFrom: 1, cut: 101 }, cfg);
      expect(parts.length).toBe(50);
      return reads.n;
    };
    const small = count(1000);
    const large = count(4000);
    // A few reads per call (index, trigger, render); a scan per stub would read about 5,000 × 4,000.
    expect(large).toBeLessThan(10 * (4000 + 50));
    expect(large / small).toBeLessThan(5);
  });
});

/**
 * Round five, item 11: the working set is linear in the copies one message holds. One assistant
 * message that writes thousands of files whole (a scaffolding step) makes one copy per file; a
 * superseded copy falls back inside the message's parts. The work is counted as the characters
 * String.prototype.indexOf scans while the message is compacted (each copy was searched for from
 * the start of its part before).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compact, resolveConfig } from "../../../core/index.js";

function session(n: number): unknown[] {
  const calls = Array.from({ length: n }, (_, i) => ({ type: "tool_use", id: `w${i}`, name: "Write", input: { file_path: `/src/f${i}.ts`, content: `export const f${i} = ${i};\n` } }));
  const results = calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: "ok" }));
  return [{ role: "user", content: "build it" }, { role: "assistant", content: calls }, { role: "user", content: results }, { role: "assistant", content: "done" }, { role: "user", content: "next" }, { role: "assistant", content: "ok" }];
}

/** Characters indexOf scanned while one session is compacted. */
function scanned(n: number): { chars: number; summary: string } {
  const own = String.prototype.indexOf;
  let chars = 0;
  vi.spyOn(String.prototype, "indexOf").mockImplementation(function (this: string, s: string, from?: number) {
    const start = Math.max(0, Math.min(this.length, from ?? 0));
    const at = own.call(this, s, from);
    chars += (at >= 0 ? at : this.length) - start;
    return at;
  });
  try {
    // A total cap the copies overrun: most fall back to their signature lines inside the message's part.
    const r = compact(session(n), "anthropic", resolveConfig({ profile: "recall", thresholdTokens: 1000, keepRecent: 1, workingSetMaxChars: 2000 }));
    return { chars, summary: JSON.stringify(r?.messages) };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("round five: the working set's copies", () => {
  afterEach(() => vi.restoreAllMocks());

  it("11. the working set is linear in copies inside one message", () => {
    const small = scanned(1000);
    const large = scanned(4000);
    expect(large.summary).toContain("/src/f3999.ts");
    expect(large.summary).toContain("/src/f0.ts");
    // Linear: four times the copies, about four times the scan; a search per copy from the part's start: about sixteen.
    expect(large.chars / small.chars).toBeLessThan(6);
  });
});

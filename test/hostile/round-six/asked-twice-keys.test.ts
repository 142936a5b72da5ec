/**
 * Round six, case 4: asked-twice keys deduplicated with a list search. One assistant message of K
 * parallel calls made each key a search of the message's keys so far: K²/2 comparisons (30,000
 * calls, 5 MB, held a proxy for 40–48 s). Counted as the elements Array.prototype.indexOf and
 * includes scan while the message is compacted under the default profile.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compact, resolveConfig } from "../../../core/index.js";

/** One assistant message of `n` parallel calls, each with its own arguments, then their results. */
function parallel(n: number): unknown[] {
  const calls = Array.from({ length: n }, (_, i) => ({ type: "tool_use", id: `c${i}`, name: "lookup", input: { query: `item ${i}` } }));
  const results = calls.map((c, i) => ({ type: "tool_result", tool_use_id: c.id, content: `found ${i}` }));
  return [{ role: "user", content: "look them all up" }, { role: "assistant", content: calls }, { role: "user", content: results }, { role: "assistant", content: "done" }, { role: "user", content: "next" }, { role: "assistant", content: "ok" }];
}

/** Array elements indexOf and includes scanned while `run` ran. */
function scanned(run: () => unknown): number {
  let elements = 0;
  for (const method of ["indexOf", "includes"] as const) {
    const own = Array.prototype[method] as (this: unknown[], x: unknown, from?: number) => number | boolean;
    vi.spyOn(Array.prototype, method).mockImplementation(function (this: unknown[], x: unknown, from?: number) {
      const found = own.call(this, x, from);
      // includes: the whole array counted (at most what it scanned).
      elements += method === "indexOf" && (found as number) >= 0 ? (found as number) : this.length;
      return found as never;
    });
  }
  try {
    run();
    return elements;
  } finally {
    vi.restoreAllMocks();
  }
}

describe("round six: asked-twice keys", () => {
  afterEach(() => vi.restoreAllMocks());

  it("4. one message's parallel calls are counted in time linear in the calls", () => {
    const cfg = resolveConfig({ profile: "recall", thresholdTokens: 1000, keepRecent: 1 });
    const n = 6000;
    const messages = parallel(n);
    let summary = "";
    const elements = scanned(() => (summary = compact(messages, "anthropic", cfg)!.summaryText));
    // A search of the keys so far per call: n²/2 = 18 M elements. Linear: a few per call.
    expect(elements).toBeLessThan(20 * n);
    expect(summary).toContain('[lookup] {"query":"item 5999"}');
  });
});

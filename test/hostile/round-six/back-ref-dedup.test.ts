/**
 * Round six, case 6: back-references deduplicated a message's dropped results with a list search.
 * 12,000 results sharing an opening (13.8 MB) each compared with every earlier one, char by char
 * through the opening (27–42 s in a proxy). Counted as the elements Array.prototype.indexOf
 * scans; and long results (past the 16,383 characters an engine's own Set hashes) of one length
 * sharing their opening, timed against a bound far from both the linear and the quadratic figure.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { performance } from "node:perf_hooks";
import { compact, resolveConfig } from "../../../core/index.js";
import { CallBook } from "../../../core/parts/call-book.js";
import { noteDropped } from "../../../core/parts/back-refs.js";

/** One message of `n` results of `size` characters that differ only in their last characters. */
function sharedOpening(n: number, size: number): unknown[] {
  const opening = "error: the build failed in the same way again ".repeat(Math.ceil(size / 47)).slice(0, size - 12);
  const calls = Array.from({ length: n }, (_, i) => ({ type: "tool_use", id: `c${i}`, name: "bash", input: { command: `make target${i}` } }));
  const results = calls.map((c, i) => ({ type: "tool_result", tool_use_id: c.id, content: opening + String(i).padStart(12, "0") }));
  return [{ role: "user", content: "build" }, { role: "assistant", content: calls }, { role: "user", content: results }, { role: "assistant", content: "now target1 fails at error" }, { role: "user", content: "next" }, { role: "assistant", content: "ok" }];
}

describe("round six: back-references' dropped results", () => {
  afterEach(() => vi.restoreAllMocks());

  it("6. a message's dropped results are kept once each in time linear in the results", () => {
    const own = Array.prototype.indexOf;
    let elements = 0;
    vi.spyOn(Array.prototype, "indexOf").mockImplementation(function (this: unknown[], x: unknown, from?: number) {
      const at = own.call(this, x, from);
      elements += at >= 0 ? at : this.length;
      return at;
    });
    const n = 4000;
    const cfg = resolveConfig({ profile: "recall", thresholdTokens: 1000, keepRecent: 1, askedTwiceMaxChars: 0 });
    const r = compact(sharedOpening(n, 1150), "anthropic", cfg);
    vi.restoreAllMocks();
    expect(r).not.toBeNull();
    // Each result searched for among those before it: n²/2 = 8 M elements (and each comparison reads the opening).
    expect(elements).toBeLessThan(20 * n);
  });

  it("6b. long results of one length that share their opening are told apart once each", () => {
    const book = new CallBook();
    book.at = 3;
    const opening = "x".repeat(16_900);
    const texts = Array.from({ length: 3000 }, (_, i) => opening + String(i).padStart(100, "0"));
    const t0 = performance.now();
    for (const t of texts) noteDropped(book, t);
    noteDropped(book, texts[7]);
    const ms = performance.now() - t0;
    // Compared in pairs: 3,000²/2 comparisons of 16,900 characters, about 76 G (15–20 s here); hashed once each: 51 M characters (under a second).
    expect(ms).toBeLessThan(6000);
  });
});

/**
 * Round six, case 5: re-fetch counting searched the summary for each repeated call's whole result.
 * The engine's search is quadratic on adversarial text: a result of a run of one letter with another
 * letter in its middle, in a summary of that run, compares half the result at every place (3.7 MB
 * and 500 calls: 5.8 s in a proxy, also in simulate, report and Pi's /cliff status). Now one lookup
 * per summary answers every result. Timed against a bound far from both figures.
 */
import { describe, expect, it } from "vitest";
import { performance } from "node:perf_hooks";
import { getDialect } from "../../../core/index.js";
import { refetchesIn } from "../../../core/refetch.js";

const RUN = 2500;

/** `n` calls whose results are runs with a letter in the middle, then the same calls again after the cliff. */
function session(n: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  const step = (i: number, again: boolean) => {
    const id = `c${i}${again ? "b" : "a"}`;
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id, name: "bash", input: { command: `make t${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "a".repeat(RUN + i) + "b" + "a".repeat(RUN) }] });
  };
  for (let i = 0; i < n; i++) step(i, false);
  for (let i = 0; i < n; i++) step(i, true);
  return msgs;
}

describe("round six: re-fetch counting", () => {
  it("5. every repeated call's result is looked up in the summary in time linear in the summary", () => {
    const n = 12;
    const messages = session(n);
    // The summary the agent saw: a run of the letter, holding the middle of each result but no result whole.
    const summaryText = "a".repeat(200_000) + "c" + "a".repeat(16) + "b" + "a".repeat(16) + "c" + "a".repeat(200_000);
    const t0 = performance.now();
    const found = refetchesIn(messages, getDialect("anthropic"), { headLen: 1, cut: 1 + 2 * n, summaryText }, 1 + 2 * n);
    const ms = performance.now() - t0;
    expect(found).toHaveLength(n);
    // Searched by the engine, each result costs about 2,500 comparisons at each of 400,000 places (seconds); looked up, milliseconds.
    expect(ms).toBeLessThan(2000);
    // A result the summary holds whole is no re-fetch: this text holds the results of t0 to t3.
    const held = "a".repeat(RUN + 3) + "b" + "a".repeat(RUN);
    const after = refetchesIn(messages, getDialect("anthropic"), { headLen: 1, cut: 1 + 2 * n, summaryText: summaryText + "\n" + held }, 1 + 2 * n);
    expect(after.map((r) => r.repeats)).toEqual(found.slice(4).map((r) => r.repeats));
  });
});

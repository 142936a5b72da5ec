/**
 * The one sentence that says what a replay saved, read off the same bill the table shows: in
 * dollars where the model is priced (the LLM summary's own calls, their output included, are in
 * its dollars), else in billed input tokens with the summary calls' output named beside it. A
 * difference either way is worded as it goes ("less", "more").
 */
import { n } from "../table.js";
import type { Billing } from "./billing.js";
import type { Simulation } from "./simulate.js";

/**
 * Dollars written with the cents a bill's own amounts need: cents from $1, tenths of a cent below
 * it, hundredths of a cent below 10 cents, so a table of small bills and the sentence under it
 * still show the difference they state.
 */
export function dollarFormat(amounts: readonly number[]): (v: number) => string {
  const top = Math.max(0, ...amounts);
  const digits = top >= 1 ? 2 : top >= 0.1 ? 3 : 4;
  return (v) => `$${v.toFixed(digits)}`;
}

/** "61.4% less" or "2.1% more": `a` against `b`. */
export function against(a: number, b: number): string {
  if (b <= 0) return "the same";
  const p = 100 * (1 - a / b);
  if (p.toFixed(1) === "0.0" || p.toFixed(1) === "-0.0") return "the same";
  return p > 0 ? `${p.toFixed(1)}% less` : `${(-p).toFixed(1)}% more`;
}

const summaryCalls = (b: Billing): string => (b.extraCalls === 1 ? "summary call's" : `${n(b.extraCalls)} summary calls'`);

// Why compacting can cost more than not: the request after a cliff is new to the provider's cache.
const MORE = "a cliff writes the prompt cache afresh, and the requests after it were too few to earn that back";

/** What the replay saved, in one sentence (null when nothing was billed). */
export function verdictLine(sim: Pick<Simulation, "priced" | "cliff" | "none" | "llm">, name = "cliffcompaction"): string | null {
  const { cliff, none, llm } = sim;
  if (none.billed <= 0) return null;
  if (sim.priced) {
    const usd = dollarFormat([cliff.dollars, none.dollars, llm.dollars]);
    const llmPart = llm.extraCalls > 0 ? ` and ${against(cliff.dollars, llm.dollars)} than an LLM summary at the same cliffs (${usd(llm.dollars)}, its ${summaryCalls(llm)} output included)` : "";
    return `${name} costs ${usd(cliff.dollars)}: ${against(cliff.dollars, none.dollars)} than no compaction (${usd(none.dollars)})${llmPart}${cliff.dollars > none.dollars ? `; ${MORE}` : ""}.`;
  }
  const llmPart = llm.extraCalls > 0 ? ` and ${against(cliff.billed, llm.billed)} than an LLM summary at the same cliffs (${n(Math.round(llm.billed))}, whose ${llm.extraCalls === 1 ? "summary call also writes" : `${n(llm.extraCalls)} summary calls also write`} ${n(llm.extraOutput)} output tokens)` : "";
  return `${name} bills ${n(Math.round(cliff.billed))} input tokens: ${against(cliff.billed, none.billed)} than no compaction (${n(Math.round(none.billed))})${llmPart}${cliff.billed > none.billed ? `; ${MORE}` : ""}; with no price for the session's model, this counts input tokens only.`;
}

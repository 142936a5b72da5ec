/**
 * What the model's side of test:deploy counts from the bodies it received alone, to hold against
 * the replicas' metrics: a cliff is a summary it had not received before, a reuse a summary it
 * had, a fallback a compacted body it refused (the client's own bytes came next), and the tokens
 * saved the estimate of what each client sent less the estimate of what arrived in its place.
 */
import { estimateTokens, SUMMARY_HEADER } from "../../core/index.js";
import type { Arrival } from "./upstream.js";

/** The summary a body carries (null when none). */
export function summaryOf(body: string): string | null {
  let parsed: { messages?: { content: unknown }[] };
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  for (const m of parsed.messages ?? []) {
    const text = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? (m.content[0] as { text?: unknown })?.text : undefined;
    if (typeof text === "string" && text.startsWith(SUMMARY_HEADER)) return text;
  }
  return null;
}

export interface Counted {
  cliffs: number;
  reuses: number;
  fallbacks: number;
  tokensSaved: number;
}

/** `originals`: what the client sent, by `seq`. */
export function upstreamCounts(arrivals: readonly Arrival[], originals: ReadonlyMap<number, string>): Counted {
  const seen = new Set<string>();
  const c: Counted = { cliffs: 0, reuses: 0, fallbacks: 0, tokensSaved: 0 };
  for (const a of arrivals) {
    const summary = summaryOf(a.body);
    if (a.status !== 200) {
      if (summary !== null) c.fallbacks++;
      continue;
    }
    const original = originals.get(a.seq);
    if (original !== undefined) c.tokensSaved += estimateTokens(JSON.parse(original)) - estimateTokens(JSON.parse(a.body));
    if (summary === null) continue;
    if (seen.has(summary)) c.reuses++;
    else c.cliffs++;
    seen.add(summary);
  }
  return c;
}

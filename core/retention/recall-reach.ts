/**
 * What a recall could bring back of what a cliff lost. A lost needed token is *reachable* when it
 * stands in a text whose ref the compacted request names (a summary's `result: dropped … ref …` or
 * `call: cut … ref …` line): the model can ask for that text by its ref. The recalls that bring back
 * every reachable lost token are chosen greedily (each time the named text that covers the most
 * tokens still missing), so their count is an upper bound on the fewest.
 */
import { REF_LINE } from "../archive.js";
import type { Config } from "../config/index.js";
import { tokensOfChars } from "../estimate/estimate.js";
import { isObj } from "../guards.js";
import { RecallTexts } from "../recall/texts.js";
import { addDistinctive } from "./distinctive.js";
import type { TokenReader } from "./retention.js";

/** One cut's recall reach: how many lost needed tokens a named ref holds, and what recalling them costs. */
export interface RecallReach {
  /** Lost needed tokens inside a text whose ref the compacted request names. */
  reachable: number;
  /** Recalls (a greedy cover) that bring back every reachable lost token, and the estimated tokens of their texts. */
  recalls: number;
  recallTokens: number;
}

/** The refs the ref lines of `compacted`'s strings name, in order, each once. */
export function namedRefs(compacted: readonly unknown[]): string[] {
  const out: string[] = [];
  const stack: unknown[] = [...compacted];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.indexOf(", ref ") < 0) continue;
      for (const line of v.split("\n")) {
        const m = REF_LINE.exec(line);
        if (m !== null && out.indexOf(m[3]) < 0) out.push(m[3]);
      }
    } else if (typeof v === "object" && v !== null && !seen.has(v)) {
      seen.add(v);
      if (Array.isArray(v)) for (const x of v) stack.push(x);
      else if (isObj(v)) for (const k of Object.keys(v)) stack.push(v[k]);
    }
  }
  return out;
}

/**
 * Measures how much of `lost` (needed tokens the compacted request no longer holds) the texts
 * named by its refs hold, the texts read from `history` (what was compacted) as `cfg`'s host would
 * answer a recall.
 */
export function recallReach(history: readonly unknown[], compacted: readonly unknown[], lost: readonly string[], reader: TokenReader, cfg: Config): RecallReach {
  const none: RecallReach = { reachable: 0, recalls: 0, recallTokens: 0 };
  if (lost.length === 0) return none;
  const refs = namedRefs(compacted);
  if (refs.length === 0) return none;
  const texts = RecallTexts.of(history, reader.dialect, cfg);
  const missing = new Set(lost);
  const candidates: { text: string; covers: Set<string> }[] = [];
  for (const ref of refs) {
    const t = texts.get(ref);
    if (t === undefined) continue;
    const covers = new Set<string>();
    for (const w of addDistinctive(t.text, new Set())) if (missing.has(w)) covers.add(w);
    if (covers.size > 0) candidates.push({ text: t.text, covers });
  }
  const reachable = new Set<string>();
  for (const c of candidates) for (const w of c.covers) reachable.add(w);
  const out: RecallReach = { reachable: reachable.size, recalls: 0, recallTokens: 0 };
  while (reachable.size > 0) {
    let best = candidates[0];
    let gain = -1;
    for (const c of candidates) {
      let g = 0;
      for (const w of c.covers) if (reachable.has(w)) g++;
      if (g > gain) [best, gain] = [c, g];
    }
    for (const w of best.covers) reachable.delete(w);
    out.recalls++;
    out.recallTokens += tokensOfChars(best.text.length);
  }
  return out;
}

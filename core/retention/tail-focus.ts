/**
 * A focus from the live tail (a recall rule): the distinctive terms (core/retention/distinctive.ts) of the
 * turns kept verbatim (paths, identifiers, numbers: what the agent is working on now) act as a
 * `/compact <focus>` on the results the length rule drops, merged with the user's focus under the
 * same caps. The tail's terms are searched within one bound per compaction (TERM_SCAN_BUDGET), spent
 * in the pass's order, oldest result first: the parts cache makes every part that reads the focus
 * again, in order, in every pass, so a rung that reuses parts spends it as a fresh compaction does.
 */
import { REFERENCE_CONFIG, type Config } from "../config/index.js";
import type { Dialect } from "../dialects/types.js";
import { TERM_SCAN_BUDGET, type Focus, type TermScans } from "../focus.js";
import type { DecodedJson } from "../parts/index.js";
import { addDistinctive } from "./distinctive.js";

/** At most this many tail terms (each one searched for in a dropped result while the compaction's TERM_SCAN_BUDGET lasts). */
export const MAX_TAIL_TERMS = 40;
/** Shorter words say too little about which lines matter. */
const MIN_TERM_LENGTH = 4;

// What the tail is read as: its calls and texts whole, its long results left out (they are the
// agent's input, not what it is working on).
const TAIL_READING: Config = { ...REFERENCE_CONFIG, cmdMaxChars: 0, thoughtMaxChars: 0, thinkingMaxChars: 0, keepThinking: true, humanMaxChars: 0 };

/** At most this many characters of the tail are read for its terms, newest first. */
export const TAIL_READ_MAX = 8_000;

/**
 * The kept tail's distinctive words, lower-cased, newest message first, up to MAX_TAIL_TERMS,
 * read from its newest TAIL_READ_MAX characters (a long part is read from its end).
 */
export function tailTerms(tail: readonly unknown[], d: Dialect, cfg: Config, decoded?: DecodedJson): string[] {
  const terms: string[] = [];
  const reading: Config = { ...TAIL_READING, resultMaxChars: cfg.resultMaxChars };
  let budget = TAIL_READ_MAX;
  for (let i = tail.length - 1; i >= 0 && budget > 0 && terms.length < MAX_TAIL_TERMS; i--) {
    const words = new Set<string>();
    const parts = d.summarize(tail[i], { cfg: reading, decoded });
    for (let k = parts.length - 1; k >= 0 && budget > 0; k--) {
      const p = parts[k];
      // Cut at a word boundary, so no word is read from its middle.
      addDistinctive(p.length <= budget ? p : p.slice(p.length - budget).replace(/^\S*/, ""), words);
      budget -= p.length;
    }
    for (const w of words) {
      const term = w.toLowerCase();
      if (terms.length >= MAX_TAIL_TERMS) break;
      if (term.length >= MIN_TERM_LENGTH && terms.indexOf(term) < 0) terms.push(term);
    }
  }
  return terms;
}

/** The focus for the dropped results of one cliff: the user's terms, then the tail's; undefined when there are none. */
export function withTailTerms(user: Focus | undefined, tail: readonly string[]): Focus | undefined {
  const terms = user === undefined ? [] : user.terms.slice();
  for (const t of tail) if (terms.indexOf(t) < 0) terms.push(t);
  return terms.length === 0 ? undefined : { text: user?.text ?? "", terms };
}

/** The bound on the tail terms' searches for one compaction: the user's own terms are searched whatever it costs. */
export function tailScans(user: Focus | undefined): TermScans {
  return { left: TERM_SCAN_BUDGET, from: user === undefined ? 0 : user.terms.length };
}

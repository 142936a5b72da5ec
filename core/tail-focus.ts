/**
 * A focus from the live tail (a recall rule): the distinctive terms (core/distinctive.ts) of the
 * turns kept verbatim (paths, identifiers, numbers: what the agent is working on now) act as a
 * `/compact <focus>` on the results the length rule drops, merged with the user's focus under the
 * same caps.
 */
import { DEFAULT_CONFIG, type Config } from "./config.js";
import type { Dialect } from "./dialects/types.js";
import type { Focus } from "./focus.js";
import type { DecodedJson } from "./parts.js";
import { addDistinctive } from "./distinctive.js";

/** At most this many tail terms (each one is searched for in every dropped result). */
export const MAX_TAIL_TERMS = 40;
/** Shorter words say too little about which lines matter. */
const MIN_TERM_LENGTH = 4;

// What the tail is read as: its calls and texts whole, its long results left out (they are the
// agent's input, not what it is working on).
const TAIL_READING: Config = { ...DEFAULT_CONFIG, cmdMaxChars: 0, thoughtMaxChars: 0, thinkingMaxChars: 0, keepThinking: true, humanMaxChars: 0 };

/**
 * The focus for the dropped results of one cliff: the user's terms, then the tail's distinctive
 * words, newest first, up to MAX_TAIL_TERMS; undefined when there are none.
 */
export function tailFocus(tail: readonly unknown[], d: Dialect, cfg: Config, user: Focus | undefined, decoded?: DecodedJson): Focus | undefined {
  const terms = user === undefined ? [] : user.terms.slice();
  const reading: Config = { ...TAIL_READING, resultMaxChars: cfg.resultMaxChars };
  let added = 0;
  for (let i = tail.length - 1; i >= 0 && added < MAX_TAIL_TERMS; i--) {
    const words = new Set<string>();
    for (const p of d.summarize(tail[i], { cfg: reading, decoded })) addDistinctive(p, words);
    for (const w of words) {
      const term = w.toLowerCase();
      if (added >= MAX_TAIL_TERMS) break;
      if (term.length >= MIN_TERM_LENGTH && terms.indexOf(term) < 0) {
        terms.push(term);
        added++;
      }
    }
  }
  if (terms.length === 0) return undefined;
  return { text: user?.text ?? "", terms };
}

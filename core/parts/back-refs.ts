/**
 * Back-references (a recall rule, backRefMaxChars): a long result no rule keeps, that a later model
 * message of the compacted span names (a path, an identifier, an error code: the distinctive words
 * of its text and calls, read from the summary's own parts of the next REACH model messages), gives
 * the lines that name them, verbatim, found as the focus finds them (core/focus.ts: the engine's
 * own search per term, no string per line), under a per-result and a total cap, newest first. The
 * tail focus does the same for what the kept tail names.
 */
import type { CallBook } from "./call-book.js";
import type { Config } from "../config/index.js";
import type { PartContext } from "./context.js";
import { focusExcerpt, FOCUS_EXCERPT_TAG, TERM_SCAN_BUDGET, type FocusBudget } from "../focus.js";
import { addDistinctive } from "../retention/distinctive.js";
import { toWellFormed } from "../text.js";
import { TextSet } from "../text-set.js";

export const BACK_REF_TAG = "result (named later): ";
/** Later model messages read for a result's terms. */
const REACH = 8;
const MAX_TERMS = 40;
const MIN_TERM = 4;

// The sandbox build has no one to tell which rule made a line.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** One message's dropped results, each once, in the order first noted (a message may hold thousands). */
interface AtDropped {
  list: string[];
  seen: TextSet;
}

// Each list's dropped results by body index, beside its call book (kept across the passes of one
// list as the book is: a pass that reuses cached parts still finds them).
const DROPPED = /* @__PURE__ */ new WeakMap<CallBook, Map<number, AtDropped>>();

/** A long result no rule keeps, at the book's message. */
export function noteDropped(book: CallBook, clean: string): void {
  let m = DROPPED.get(book);
  if (m === undefined) DROPPED.set(book, (m = new Map()));
  let at = m.get(book.at);
  if (at === undefined) m.set(book.at, (at = { list: [], seen: new TextSet() }));
  if (at.seen.add(clean)) at.list.push(clean);
}

/** The back-reference parts of the span [0, end): added after each message's own parts. */
export function backRefs(book: CallBook, end: number, made: readonly string[][], isModel: (i: number) => boolean, cfg: Config, note?: PartContext["note"]): ((i: number, parts: string[]) => string[]) | null {
  const dropped = DROPPED.get(book);
  if (dropped === undefined) return null;
  const words = new Map<number, string[]>();
  const termsOf = (j: number): string[] => {
    let w = words.get(j);
    if (w === undefined) {
      const set = new Set<string>();
      for (const p of made[j]) addDistinctive(p, set);
      w = [];
      for (const t of set) if (t.length >= MIN_TERM) w.push(t.toLowerCase());
      words.set(j, w);
    }
    return w;
  };
  const out = new Map<number, string[]>();
  let remaining = cfg.backRefTotalMaxChars;
  // One bound on the searching for the whole span, spent newest result first (one call: the same whatever order parts were made in).
  const scans = { left: TERM_SCAN_BUDGET, from: 0 };
  const at = [...dropped.keys()].filter((i) => i < end).sort((a, b) => b - a);
  for (const i of at) {
    if (remaining <= 0) break;
    const terms: string[] = [];
    for (let j = i + 1, seen = 0; j < end && seen < REACH && terms.length < MAX_TERMS; j++) {
      if (!isModel(j)) continue;
      seen++;
      for (const t of termsOf(j)) if (terms.length < MAX_TERMS && terms.indexOf(t) < 0) terms.push(t);
    }
    if (terms.length === 0) continue;
    for (const text of dropped.get(i)!.list) {
      const budget: FocusBudget = { focus: { text: "", terms }, perResult: cfg.backRefMaxChars, remaining, context: cfg.focusContextLines, scans };
      const ex = focusExcerpt(text, budget);
      if (ex === null) continue;
      remaining = budget.remaining;
      const line = toWellFormed(BACK_REF_TAG + ex.slice(FOCUS_EXCERPT_TAG.length));
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) note?.("back-ref", line);
      (out.get(i) ?? out.set(i, []).get(i)!).push(line);
    }
  }
  // A line the message's own parts already show (the working set kept the result whole) is not repeated.
  return (i, parts) => {
    const add = out.get(i);
    if (add === undefined) return parts;
    const fresh = add.filter((a) => !parts.some((p) => p.indexOf(a.slice(BACK_REF_TAG.length)) >= 0));
    return fresh.length === 0 ? parts : parts.concat(fresh);
  };
}

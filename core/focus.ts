/**
 * Focus, mechanically: the user's `/compact <focus>` text is turned into search terms, and a tool
 * result that the length rule would drop contributes the lines that mention a term (with one line
 * of context either side), verbatim, under a per-result and a total cap. Nothing is rephrased.
 */
import { truncate } from "./text.js";

export interface Focus {
  /** The focus text as the user gave it. */
  readonly text: string;
  /** Lower-cased search terms. */
  readonly terms: readonly string[];
}

/** Tag of a focus excerpt line in a summary. */
export const FOCUS_EXCERPT_TAG = "result (focus excerpt): ";

const STOPWORDS = new Set(
  ("the and for with that this from into onto about keep focus on in of to a an is are was were be been " +
    "what which when where who how why all any each not but only also just then than them they their there " +
    "please make sure remember preserve important details detail anything everything things thing file files")
    .split(" "),
);
const MAX_TERMS = 32;

/**
 * Terms of a focus text: the whole text when it is a short phrase, quoted phrases whole, then
 * words that are not filler (3+ characters, or 2+ when they hold a digit).
 */
export function parseFocus(text: unknown): Focus | undefined {
  if (typeof text !== "string") return undefined;
  const terms: string[] = [];
  const add = (t: string): void => {
    const term = t.toLowerCase();
    const long = term.length >= 3 || (term.length === 2 && /\d/.test(term));
    if (long && !STOPWORDS.has(term) && terms.indexOf(term) < 0 && terms.length < MAX_TERMS) terms.push(term);
  };
  const whole = text.trim().replace(/\s+/g, " ");
  if (whole.includes(" ") && whole.length <= 80) add(whole);
  const rest = text.replace(/"([^"]+)"|'([^']+)'|`([^`]+)`/g, (_, a?: string, b?: string, c?: string) => {
    add((a ?? b ?? c ?? "").trim());
    return " ";
  });
  for (const word of rest.split(/[^\p{L}\p{N}_.\/:-]+/u)) add(word.replace(/^[.:\/-]+|[.:\/-]+$/g, ""));
  return terms.length === 0 ? undefined : { text, terms };
}

/**
 * What the recall rules' term searches may still cost in one compaction, in characters searched
 * once per term: each term is one pass of the engine's search over a result, so without a bound a
 * result is read 40 to 80 times (the sandbox has no faster search). The terms before `from` (the
 * user's own focus) are searched whatever the budget; the rest while it lasts, newest result first
 * where the rule goes newest first.
 */
export interface TermScans {
  left: number;
  readonly from: number;
}

/** Each recall rule's term searches in one compaction: 4 M characters searched (about 50 KB of results read for 80 terms; 0.1 s in QuickJS). */
export const TERM_SCAN_BUDGET = 4_000_000;

/** Running allowance for focus excerpts within one compaction. */
export interface FocusBudget {
  focus: Focus;
  perResult: number;
  /** Lines of context kept either side of a matching line. */
  context: number;
  remaining: number;
  /** The recall rules' bound on searching (absent: every term is searched, as the reference does). */
  scans?: TermScans;
}

/** The terms to search `result` for under the budget's scans, charged to them. */
function termsToSearch(result: string, budget: FocusBudget): readonly string[] {
  const terms = budget.focus.terms;
  const s = budget.scans;
  if (s === undefined || terms.length <= s.from) return terms;
  const per = Math.max(1, result.length);
  const n = s.left <= 0 ? 0 : Math.min(terms.length - s.from, Math.ceil(s.left / per));
  s.left -= n * per;
  return n === terms.length - s.from ? terms : terms.slice(0, s.from + n);
}

/**
 * The focus excerpt of a dropped result, as a summary part, or null when no term matches or the
 * total allowance is spent. Each excerpt line is a whole line of the result; windows are in order.
 * Linear in the result and making no string per line: the engine's own search finds each term and
 * each hit's line ends, so a result of millions of short lines costs what one long line does.
 * Lines are counted only when a term matches more than 5 times, and then only as far as deciding
 * whether it is on more than a fifth of them needs.
 */
export function focusExcerpt(result: string, budget: FocusBudget): string | null {
  if (budget.remaining <= 0) return null;
  const terms = termsToSearch(result, budget);
  if (terms.length === 0) return null;
  const lower = result.toLowerCase();
  // A term found on most lines says nothing about which lines matter: use the selective ones,
  // or failing that the rarest. Only the first hits are kept.
  const byTerm = terms.map((term) => termHits(lower, term)).filter((t) => t.count > 0);
  if (byTerm.length === 0) return null;
  for (const t of byTerm) weigh(result, t);
  const selective = byTerm.filter((t) => t.selective);
  const chosen = selective.length > 0 ? selective : [byTerm.reduce((a, b) => (b.count < a.count ? b : a))];
  const hits = ([] as number[]).concat(...chosen.map((t) => t.first)).slice(0, MAX_HITS);
  const wanted = new Set<number>();
  for (const h of hits) for (const start of windowStarts(result, lineStartAt(result, h), budget.context)) wanted.add(start);
  const text = Array.from(wanted)
    .sort((a, b) => a - b)
    .map((start) => {
      const end = result.indexOf("\n", start);
      return result.slice(start, end < 0 ? result.length : end);
    })
    .join("\n");
  const cap = Math.min(budget.perResult, budget.remaining);
  const excerpt = truncate(text, cap);
  budget.remaining -= excerpt.length;
  return FOCUS_EXCERPT_TAG + excerpt;
}

/** At most this many hits make windows. */
const MAX_HITS = 256;

/** Lines of `text` up to `limit` (counting stops there). */
function linesUpTo(text: string, limit: number, end = text.length): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < end && n < limit; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

interface TermHits {
  /** Occurrences, as the selectivity rule counts them (at most the lines + 1; MAX_HITS + 1 when there are more). */
  count: number;
  first: number[];
  /** More than MAX_HITS occurrences: counting stopped. */
  more: boolean;
  selective: boolean;
}

/** Where `term` occurs, its first MAX_HITS (and whether there are more). */
function termHits(lower: string, term: string): TermHits {
  const first: number[] = [];
  let i = lower.indexOf(term);
  for (; i >= 0 && first.length < MAX_HITS; i = lower.indexOf(term, i + term.length)) first.push(i);
  return { count: first.length, first, more: i >= 0, selective: false };
}

/**
 * Whether a term is selective: on at most max(5, a fifth of the lines), its count taken as at most
 * the lines + 1 (and its hits with it). Exact up to MAX_HITS hits or 5 × (MAX_HITS + 1) lines,
 * the lines counted only as far as five per hit; past both, the term is weighed by the lines before
 * its last hit kept (a term that dense there is on most lines).
 */
function weigh(text: string, t: TermHits): void {
  const count = t.more ? MAX_HITS + 1 : t.count;
  const lines = linesUpTo(text, 5 * count);
  if (!t.more || lines < 5 * count) {
    t.count = Math.min(count, lines + 1);
    if (t.first.length > t.count) t.first = t.first.slice(0, t.count);
    t.selective = t.count <= Math.max(5, lines * 0.2);
    return;
  }
  t.count = count;
  t.selective = linesUpTo(text, 5 * count, t.first[t.first.length - 1]) >= 5 * count;
}

/** Where the line holding `pos` starts. */
function lineStartAt(text: string, pos: number): number {
  return pos <= 0 ? 0 : text.lastIndexOf("\n", pos - 1) + 1;
}

/** The starts of the lines within `context` lines of the line starting at `start`, in order. */
function windowStarts(text: string, start: number, context: number): number[] {
  const out = [start];
  for (let k = 0, s = start; k < context && s > 0; k++) out.unshift((s = lineStartAt(text, s - 1)));
  for (let k = 0, s = start; k < context; k++) {
    const nl = text.indexOf("\n", s);
    if (nl < 0) break;
    out.push((s = nl + 1));
  }
  return out;
}

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

/** Running allowance for focus excerpts within one compaction. */
export interface FocusBudget {
  focus: Focus;
  perResult: number;
  /** Lines of context kept either side of a matching line. */
  context: number;
  remaining: number;
}

/**
 * The focus excerpt of a dropped result, as a summary part, or null when no term matches or the
 * total allowance is spent. Each excerpt line is a whole line of the result; windows are in order.
 * Linear in the result and making no string per line: the engine's own search finds each term and
 * each hit's line ends, so a result of millions of short lines costs what one long line does.
 */
export function focusExcerpt(result: string, budget: FocusBudget): string | null {
  if (budget.remaining <= 0) return null;
  const lower = result.toLowerCase();
  const lineCount = countLines(result);
  // A term found on most lines says nothing about which lines matter: use the selective ones,
  // or failing that the rarest. Counts stop past the line count; only the first hits are kept.
  const byTerm = budget.focus.terms.map((term) => termHits(lower, term, lineCount)).filter((t) => t.count > 0);
  if (byTerm.length === 0) return null;
  const selective = byTerm.filter((t) => t.count <= Math.max(5, lineCount * 0.2));
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

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** How often `term` occurs (counting stops past `lineCount`) and where, its first MAX_HITS. */
function termHits(lower: string, term: string, lineCount: number): { count: number; first: number[] } {
  const first: number[] = [];
  let count = 0;
  for (let i = lower.indexOf(term); i >= 0 && count <= lineCount; i = lower.indexOf(term, i + term.length)) {
    if (count < MAX_HITS) first.push(i);
    count++;
  }
  return { count, first };
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

/**
 * Focus, mechanically: the user's `/compact <focus>` text is turned into search terms, and a tool
 * result that the length rule would drop contributes the lines that mention a term (with one line
 * of context either side), verbatim, under a per-result and a total cap. Nothing is rephrased.
 */
import { truncate } from "./text";

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
const CONTEXT_LINES = 1;

/** Terms of a focus text: quoted phrases whole, then words of 3+ characters that are not filler. */
export function parseFocus(text: unknown): Focus | undefined {
  if (typeof text !== "string") return undefined;
  const terms: string[] = [];
  const add = (t: string): void => {
    const term = t.toLowerCase();
    if (term.length >= 3 && !STOPWORDS.has(term) && terms.indexOf(term) < 0 && terms.length < MAX_TERMS) terms.push(term);
  };
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
  remaining: number;
}

/**
 * The focus excerpt of a dropped result, as a summary part, or null when no term matches or the
 * total allowance is spent. Each excerpt line is a whole line of the result; windows are in order.
 */
export function focusExcerpt(result: string, budget: FocusBudget): string | null {
  if (budget.remaining <= 0) return null;
  const lower = result.toLowerCase();
  const hits: number[] = [];
  for (const term of budget.focus.terms) {
    for (let at = lower.indexOf(term); at >= 0 && hits.length < 256; at = lower.indexOf(term, at + term.length)) hits.push(at);
  }
  if (hits.length === 0) return null;
  // Line index of each hit, then windows of ±CONTEXT_LINES lines.
  const starts: number[] = [0];
  for (let i = result.indexOf("\n"); i >= 0; i = result.indexOf("\n", i + 1)) starts.push(i + 1);
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const wanted = new Set<number>();
  for (const h of hits) {
    const line = lineOf(h);
    for (let l = Math.max(0, line - CONTEXT_LINES); l <= Math.min(starts.length - 1, line + CONTEXT_LINES); l++) wanted.add(l);
  }
  const lines = Array.from(wanted).sort((a, b) => a - b);
  const text = lines
    .map((l) => result.slice(starts[l], l + 1 < starts.length ? starts[l + 1] - 1 : result.length))
    .join("\n");
  const cap = Math.min(budget.perResult, budget.remaining);
  const excerpt = truncate(text, cap);
  budget.remaining -= excerpt.length;
  return FOCUS_EXCERPT_TAG + excerpt;
}

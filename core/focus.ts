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
 */
export function focusExcerpt(result: string, budget: FocusBudget): string | null {
  if (budget.remaining <= 0) return null;
  const lower = result.toLowerCase();
  const lineCount = 1 + (result.match(/\n/g)?.length ?? 0);
  // A term found on most lines says nothing about which lines matter: use the selective ones,
  // or failing that the rarest.
  const byTerm = budget.focus.terms.map((term) => {
    const at: number[] = [];
    for (let i = lower.indexOf(term); i >= 0 && at.length <= lineCount; i = lower.indexOf(term, i + term.length)) at.push(i);
    return at;
  }).filter((at) => at.length > 0);
  if (byTerm.length === 0) return null;
  const selective = byTerm.filter((at) => at.length <= Math.max(5, lineCount * 0.2));
  const chosen = selective.length > 0 ? selective : [byTerm.reduce((a, b) => (b.length < a.length ? b : a))];
  const hits = ([] as number[]).concat(...chosen).slice(0, 256);
  // Line index of each hit, then windows of ±context lines.
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
    for (let l = Math.max(0, line - budget.context); l <= Math.min(starts.length - 1, line + budget.context); l++) wanted.add(l);
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

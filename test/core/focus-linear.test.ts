/**
 * The focus excerpt searches without splitting a result into lines: the same excerpt as the
 * line-array reading it replaced (kept here as the oracle), for any text, terms and context.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { focusExcerpt, FOCUS_EXCERPT_TAG, type FocusBudget } from "../../core/focus.js";
import { truncate } from "../../core/text.js";

/** The former reading: a list of line starts, a binary search per hit. */
function byLines(result: string, budget: FocusBudget): string | null {
  if (budget.remaining <= 0) return null;
  const lower = result.toLowerCase();
  const lineCount = 1 + (result.match(/\n/g)?.length ?? 0);
  const byTerm = budget.focus.terms.map((term) => {
    const at: number[] = [];
    for (let i = lower.indexOf(term); i >= 0 && at.length <= lineCount; i = lower.indexOf(term, i + term.length)) at.push(i);
    return at;
  }).filter((at) => at.length > 0);
  if (byTerm.length === 0) return null;
  const selective = byTerm.filter((at) => at.length <= Math.max(5, lineCount * 0.2));
  const chosen = selective.length > 0 ? selective : [byTerm.reduce((a, b) => (b.length < a.length ? b : a))];
  const hits = ([] as number[]).concat(...chosen).slice(0, 256);
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
  const text = Array.from(wanted).sort((a, b) => a - b).map((l) => result.slice(starts[l], l + 1 < starts.length ? starts[l + 1] - 1 : result.length)).join("\n");
  const excerpt = truncate(text, Math.min(budget.perResult, budget.remaining));
  budget.remaining -= excerpt.length;
  return FOCUS_EXCERPT_TAG + excerpt;
}

const budget = (terms: string[], context: number, perResult: number): FocusBudget => ({ focus: { text: "", terms }, perResult, context, remaining: 6000 });

describe("focus excerpts without splitting into lines", () => {
  it("give the line reading's excerpt for any text, terms and context", () => {
    const piece = fc.constantFrom("\n", "\n\n", "ab", "AB", "x", " ", "ab\n", "İ", "é");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }).map((p) => p.join("")), fc.array(fc.constantFrom("ab", "x", "b\u0307", "zz", "a"), { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3 }), fc.constantFrom(5, 40, 800), (text, terms, context, per) => {
        const a = budget(terms, context, per);
        const b = budget(terms, context, per);
        expect(focusExcerpt(text, a)).toBe(byLines(text, b));
        expect(a.remaining).toBe(b.remaining);
      }),
      { numRuns: 2000 },
    );
  });

  it("on a long result of short lines, a term on every line falls back to the rarest and keeps the first hits' windows", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `ok ${i}`).join("\n") + "\nthe needle 42";
    for (const terms of [["ok"], ["needle", "ok"], ["ok", "zz"]]) expect(focusExcerpt(text, budget(terms, 1, 800))).toBe(byLines(text, budget(terms, 1, 800)));
    expect(focusExcerpt(text, budget(["needle", "ok"], 1, 800))).toBe(`${FOCUS_EXCERPT_TAG}ok 4999\nthe needle 42`);
  });
});

/**
 * Round five, items 7 and 10: the recall rules' term searches. A dropped result was searched once
 * per term (up to 40 back-reference and 40 tail terms) and its lines were all counted before any
 * term was known to match; now the searching has a bound per compaction (TERM_SCAN_BUDGET) and
 * lines are counted only as far as a matching term needs. Counted as String.prototype.indexOf's
 * work: characters scanned, and searches for a line end.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { compact, parseFocus, resolveConfig } from "../../../core/index.js";
import { focusExcerpt, TERM_SCAN_BUDGET } from "../../../core/focus.js";

function counted<T>(run: () => T): { chars: number; newlines: number; value: T } {
  const own = String.prototype.indexOf;
  let chars = 0;
  let newlines = 0;
  vi.spyOn(String.prototype, "indexOf").mockImplementation(function (this: string, s: string, from?: number) {
    const start = Math.max(0, Math.min(this.length, from ?? 0));
    const at = own.call(this, s, from);
    chars += (at >= 0 ? at : this.length) - start;
    if (s === "\n") newlines++;
    return at;
  });
  try {
    return { chars, newlines, value: run() } as never;
  } finally {
    const out = { chars, newlines };
    vi.restoreAllMocks();
    Object.assign(counted, { last: out });
  }
}

/** Dropped results, each followed by a model message naming 45 distinctive words none of them holds. */
function backRefSession(results: number): unknown[] {
  const body = Array.from({ length: 2000 }, (_, k) => `line ${k}: value ${k * 7} of the build log`).join("\n");
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < results; i++) {
    msgs.push({ role: "assistant", content: `[bash] {"command":"make ${i}"}` }, { role: "tool", content: `${i}\n${body}` });
    msgs.push({ role: "assistant", content: `next I check ${Array.from({ length: 45 }, (_, k) => `zqIdent${i}_${k}`).join(" ")}` }, { role: "tool", content: "ok" });
  }
  return msgs;
}

const chars = (run: () => unknown): number => {
  counted(run);
  return (counted as unknown as { last: { chars: number } }).last.chars;
};

describe("round five: the recall rules' term searches", () => {
  afterEach(() => vi.restoreAllMocks());

  it("7. the recall build searches a dropped result within a bound, not once per term", () => {
    // The back-references alone: the tail focus (bounded on its own, test 7b) and the listings and outlines (one linear read of each result, measured in bench:stress) off.
    const cfg = resolveConfig({ profile: "recall", thresholdTokens: 20_000, keepRecent: 1, tailFocus: false, listingMaxChars: 0, outlineFileMaxChars: 0 });
    const ref = resolveConfig({ profile: "reference", thresholdTokens: 20_000, keepRecent: 1 });
    const messages = backRefSession(60); // about 4.9 MB of dropped results
    const recall = chars(() => compact(messages, "plain", cfg));
    const reference = chars(() => compact(messages, "plain", ref));
    // Once per term would be about 40 × 4.9 M characters (377 M with the tail focus); the bound is the budget past what the reference reads.
    expect(recall - reference).toBeLessThanOrEqual(TERM_SCAN_BUDGET + 82_000);
  });

  it("7b. the tail focus searches the dropped results within a bound, not once per kept-tail term", () => {
    // The kept tail names 45 distinctive words no dropped result holds: each was one search of every result.
    const tail = `now I check ${Array.from({ length: 45 }, (_, k) => `zqTail_${k}`).join(" ")}`;
    const session = backRefSession(60) as { role: string; content: string }[];
    const newest = session.findIndex((m) => m.content.startsWith("59\n"));
    session[newest] = { role: "tool", content: `${session[newest].content}\nzqneedle here` };
    const messages = [...session, { role: "user", content: "go on" }, { role: "assistant", content: tail }];
    const alone = { profile: "recall", thresholdTokens: 20_000, keepRecent: 1, backRefMaxChars: 0, listingMaxChars: 0, outlineFileMaxChars: 0 } as const;
    const withTail = chars(() => compact(messages, "plain", resolveConfig({ ...alone, tailFocus: true })));
    const without = chars(() => compact(messages, "plain", resolveConfig({ ...alone, tailFocus: false })));
    // Once per term would be about 40 × 4.9 M characters; the bound is the budget (and the tail's own reading).
    expect(withTail - without).toBeLessThanOrEqual(TERM_SCAN_BUDGET + 82_000);
    expect(withTail - without).toBeGreaterThan(TERM_SCAN_BUDGET / 2);
    // The user's own focus is searched whatever the budget (spent oldest result first): its term in the newest dropped result is found.
    const focused = compact(messages, "plain", resolveConfig({ ...alone, tailFocus: true }), { focus: parseFocus("zqneedle") })!;
    expect(focused.parts.map((p) => p.replace(/\nresult: dropped [\d,]+ chars, ref [0-9a-f]{12}$/, ""))).toContain("result (focus excerpt): line 1999: value 13993 of the build log\nzqneedle here");
  });

  it("10. the tail focus counts no line of a dropped result before a term matches, and few after", () => {
    const text = "ok 1234 done\n".repeat(300_000);
    const budget = (terms: string[]) => ({ focus: { text: "", terms }, perResult: 800, remaining: 6000, context: 1 });
    const none = counted(() => focusExcerpt(text, budget(["parser", "zq"])));
    expect((counted as unknown as { last: { newlines: number } }).last.newlines).toBe(0);
    expect(none.value).toBeNull();
    const every = counted(() => focusExcerpt(text, budget(["done", "parser"])));
    expect(every.value).toMatch(/^result \(focus excerpt\): ok 1234 done\n/);
    // A term on every line: weighed from its first 257 hits, never by counting 300,000 lines.
    expect((counted as unknown as { last: { newlines: number } }).last.newlines).toBeLessThan(5_000);
  });
});

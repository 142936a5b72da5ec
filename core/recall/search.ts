/**
 * A search of the history's texts: every line that holds the search text (case-insensitive), newest
 * text first, each as `ref:line: text`, bounded in lines and characters. Linear: each text is
 * lowered once and scanned once, its line numbers counted as the scan moves on.
 */
import { groupDigits } from "../archive.js";
import type { RecallAnswer } from "./recall-answer.js";
import type { RecallTexts } from "./texts.js";

/** At most this many lines in one answer… */
export const SEARCH_MAX_LINES = 40;
/** …each cut to this many characters… */
export const SEARCH_LINE_MAX_CHARS = 300;
/** …and the search text itself at most this long. */
const SEARCH_MAX_CHARS = 1000;

/** The lines of `texts` that hold `query`, newest text first. */
export function searchTexts(texts: RecallTexts, query: string): RecallAnswer {
  const needle = query.slice(0, SEARCH_MAX_CHARS).toLowerCase();
  const lines: string[] = [];
  let total = 0;
  for (let t = texts.list.length - 1; t >= 0; t--) {
    const { ref, text } = texts.list[t];
    total += scan(text, needle, (line, n) => {
      if (lines.length < SEARCH_MAX_LINES) lines.push(`${ref}:${n}: ${clip(line)}`);
    });
  }
  if (total === 0) return { text: `No line of the earlier history (${groupDigits(texts.size)} texts) holds "${query.slice(0, 200)}".`, isError: false, matches: 0 };
  const more = total > lines.length ? `\n[${groupDigits(total - lines.length)} more matching lines not shown: search for something narrower]` : "";
  const head = `${groupDigits(total)} matching line${total === 1 ? "" : "s"} (ref:line: text); {"ref": "…"} gives a whole text:\n`;
  return { text: head + lines.join("\n") + more, isError: false, matches: total };
}

/** Calls `hit` with each line of `text` that holds `needle` (lowered) and its number from 1; returns how many. */
function scan(text: string, needle: string, hit: (line: string, n: number) => void): number {
  const lower = text.toLowerCase();
  // Lowering may change a text's length (a few letters): then lines are cut from the lowered text.
  const source = lower.length === text.length ? text : lower;
  let count = 0;
  let lineNo = 1;
  let counted = 0;
  let from = 0;
  while (from <= lower.length) {
    const i = lower.indexOf(needle, from);
    if (i < 0) break;
    for (let j = lower.indexOf("\n", counted); j >= 0 && j < i; j = lower.indexOf("\n", j + 1)) {
      lineNo++;
      counted = j + 1;
    }
    const start = lower.lastIndexOf("\n", i) + 1;
    let end = lower.indexOf("\n", i + needle.length);
    if (end < 0) end = lower.length;
    hit(source.slice(start, end), lineNo);
    count++;
    from = end + 1;
  }
  return count;
}

function clip(line: string): string {
  const l = line.replace(/\r$/, "");
  return l.length <= SEARCH_LINE_MAX_CHARS ? l : l.slice(0, SEARCH_LINE_MAX_CHARS) + "…";
}

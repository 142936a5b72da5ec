/** The text of a content value in any dialect, and whether a text is a previous summary. */
import { SUMMARY_HEADER } from "../summary.js";
import { arr, obj, str } from "../guards.js";

/** Text of a content value: a string, or the `text` of text-like blocks (and bare strings) joined with "\n". */
export function contentText(content: unknown, types: readonly string[] = ["text"]): string {
  if (typeof content === "string") return content;
  const out: string[] = [];
  for (const b of arr(content)) {
    if (typeof b === "string") out.push(b);
    else {
      const block = obj(b);
      if (types.indexOf(str(block.type)) >= 0 && typeof block.text === "string") out.push(block.text);
    }
  }
  return out.join("\n");
}

/** The text a summary message carries, in any dialect (a string, or its text / input_text blocks). */
// The AgentParley sandbox build reads flat messages only: the Gemini shape is left out of its bundle.
declare const __CLIFF_SANDBOX__: boolean | undefined;

export function summaryMessageText(message: unknown): string {
  const m = obj(message);
  // A Gemini content holds untyped `{text}` parts.
  if (!(typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) && m.content === undefined && Array.isArray(m.parts)) return m.parts.map((p) => obj(p).text).filter((t) => typeof t === "string").join("\n");
  return contentText(m.content, ["text", "input_text"]);
}

/** True when a text is a previous summary (it opens with the header). */
export function isSummaryText(text: unknown): boolean {
  return typeof text === "string" && text.startsWith(SUMMARY_HEADER);
}

/** A single optional part as a list. */
export function one(part: string | null): string[] {
  return part === null ? [] : [part];
}

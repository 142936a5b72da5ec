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

// The AgentParley sandbox build reads flat messages only: the Gemini shape is left out of its bundle.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** The text a summary message carries, in any dialect (a string, its text / input_text blocks, or a Gemini content's parts). */
export function summaryMessageText(message: unknown): string {
  if (!(typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) && Array.isArray(obj(message).parts)) return partsText(obj(message));
  return contentText(obj(message).content, ["text", "input_text"]);
}

/** A Gemini content's untyped `{text}` parts, joined (its `content`, if it has one, as any other dialect's). */
function partsText(m: Record<string, unknown>): string {
  if (m.content !== undefined) return contentText(m.content, ["text", "input_text"]);
  return arr(m.parts).map((p) => obj(p).text).filter((t) => typeof t === "string").join("\n");
}

/** True when a text is a previous summary (it opens with the header). */
export function isSummaryText(text: unknown): boolean {
  return typeof text === "string" && text.startsWith(SUMMARY_HEADER);
}

/** A single optional part as a list. */
export function one(part: string | null): string[] {
  return part === null ? [] : [part];
}

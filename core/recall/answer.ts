/**
 * A recall answered: `{ref}` gives that text exactly (a long one in pages), `{search}` the lines of
 * the history's texts that hold the search text. The answer is the text a tool result carries, and
 * whether it is a tool error; each host wraps it in its own API's shape. Never compacted again.
 */
import { groupDigits } from "../archive.js";
import { REF_PATTERN } from "./ref.js";
import { clientFileOf, clientFileNote } from "./client-file.js";
import { searchTexts } from "./search.js";
import type { RecallTexts } from "./texts.js";
import type { RecallAnswer } from "./recall-answer.js";

export type { RecallAnswer };

/** The smallest page a long text is given in: a text up to this length comes back whole, with nothing added. */
export const RECALL_PAGE_CHARS = 20_000;

/** A recall's input as the tool takes it. */
export type RecallInput = { readonly ref: string; readonly offset: number } | { readonly search: string };

/** The input read from the call's arguments (an object, or its JSON text), or a tool error saying what is wrong. */
export function recallInput(args: unknown): RecallInput | RecallAnswer {
  let a = args;
  if (typeof a === "string") {
    try {
      a = JSON.parse(a) as unknown;
    } catch {
      return fail('The arguments are not JSON. Call with {"ref": "<12 hex digits>"} or {"search": "<text>"}.');
    }
  }
  if (a === null || typeof a !== "object" || Array.isArray(a)) return fail('Call with {"ref": "<12 hex digits>"} or {"search": "<text>"}.');
  const { ref, offset, search } = a as { ref?: unknown; offset?: unknown; search?: unknown };
  if (typeof ref === "string" && ref !== "") {
    const r = ref.trim().toLowerCase();
    if (!REF_PATTERN.test(r)) return fail(`"${ref.slice(0, 40)}" is not a ref: a ref is the 12 hex digits a summary names a dropped text by, as in "ref 7c928f4c697a".`);
    const at = offset === undefined || offset === null ? 0 : typeof offset === "number" ? offset : Number(offset);
    if (!Number.isInteger(at) || at < 0) return fail("offset must be a whole number of characters, 0 or more.");
    return { ref: r, offset: at };
  }
  if (typeof search === "string" && search.trim() !== "") return { search };
  return fail('Call with {"ref": "<12 hex digits>"} (and "offset" for a later page) or {"search": "<text>"}.');
}

/** The answer to a recall whose arguments are `args`, from the texts the request's history holds. */
export function answerRecall(args: unknown, texts: RecallTexts): RecallAnswer {
  const input = recallInput(args);
  if ("isError" in input) return input;
  if ("search" in input) return searchTexts(texts, input.search);
  return page(texts, input.ref, input.offset);
}

function page(texts: RecallTexts, ref: string, offset: number): RecallAnswer {
  const found = texts.get(ref);
  if (found === undefined) {
    return fail(
      `No text with ref ${ref} is in this conversation's history any more (the client may have compacted it away itself). ` +
        'Search the history with {"search": "<text>"}, or run the tool again if you need its output.',
    );
  }
  const text = found.text;
  const whole = offset === 0 && text.length <= RECALL_PAGE_CHARS;
  // The client's placeholder for an output it kept out of the request: where the output is comes first.
  const file = offset === 0 ? clientFileOf(text) : null;
  const before = file === null ? "" : clientFileNote(ref, file) + "\n";
  if (whole) return { text: before + text, isError: false, recalled: { ref, chars: text.length, given: text.length } };
  if (offset >= text.length) return fail(`The text with ref ${ref} has ${groupDigits(text.length)} characters: offset ${offset} is past its end.`);
  let end = Math.min(text.length, offset + RECALL_PAGE_CHARS);
  // A page never splits a surrogate pair (so every page is well formed where the text is).
  if (end < text.length && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end))) end++;
  const rest = text.length - end;
  const note =
    `[ref ${ref}: characters ${groupDigits(offset)} to ${groupDigits(end)} of ${groupDigits(text.length)}; ` +
    (rest === 0 ? "this is the end of the text]" : `${groupDigits(rest)} remain: call again with {"ref": "${ref}", "offset": ${end}} for the next page]`);
  return { text: before + note + "\n" + text.slice(offset, end), isError: false, recalled: { ref, chars: text.length, given: end - offset } };
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

function fail(text: string): RecallAnswer {
  return { text, isError: true };
}

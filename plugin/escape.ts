/**
 * What leaves the plugin must cross any host boundary byte for byte: a UTF-8 round trip (lone
 * surrogates do not survive it), a C string (NUL ends it) and a line-end conversion (a CR may be
 * added, dropped or turned into LF). Inside the envelope such characters are written as ESC + four
 * hex digits and decoded when the envelope is read back, so the task and the recent turns stay
 * verbatim and every stated length still holds after the crossing. ESC is a private-use character
 * that ordinary text does not hold; when it does, it is escaped too.
 *
 * Every pass here is linear whatever the text holds: characters are replaced by the engine's own
 * search and replace (a string built by concatenation at each hit was quadratic in QuickJS), and
 * a length for sizing is counted, never built.
 */
import { LONE_SURROGATE as LONE } from "../core/platform/index.js";

// Any surrogate at all: most text has none, so the search for lone ones is seldom run.
const SURROGATE = /[\ud800-\udfff]/;

/** The escape introducer, U+E000. */
export const ESC = "\ue000";

const hex4 = (c: number): string => ("000" + c.toString(16)).slice(-4);

type Native = { replaceAll?: (this: string, from: string, to: string) => string };
// ES2021's replaceAll where the engine has it (V8, QuickJS); split and join do the same elsewhere.
const nativeReplaceAll = (String.prototype as Native).replaceAll;

/** Every `from` in `text` replaced by `to`, by the engine's own search. */
function replaceEvery(text: string, from: string, to: string): string {
  if (text.indexOf(from) < 0) return text;
  return nativeReplaceAll !== undefined ? nativeReplaceAll.call(text, from, to) : text.split(from).join(to);
}

/** How many times the one-unit `ch` occurs in `text`. */
const occurrences = (text: string, ch: string): number => (text.indexOf(ch) < 0 ? 0 : text.length - replaceEvery(text, ch, "").length);

// What escapeText writes as ESC + hex, besides lone surrogates; ESC first, so no escape is escaped again.
export const TEXT_UNSAFE: readonly string[] = [ESC, "\u0000", "\r"];
// A path is one line of a tagged list: line breaks and "<" too.
const PATH_UNSAFE = [...TEXT_UNSAFE, "\n", "<"];

function escapeWith(text: string, unsafe: readonly string[]): string {
  let out = text;
  for (const ch of unsafe) out = replaceEvery(out, ch, ESC + hex4(ch.charCodeAt(0)));
  // The engine's replace joins its pieces once; only what is rendered is escaped, so the hits are few.
  return SURROGATE.test(out) ? out.replace(LONE, (c) => ESC + hex4(c.charCodeAt(0))) : out;
}

/** The text with every character that cannot cross a host boundary escaped (the text itself when none). */
export const escapeText = (text: string): string => escapeWith(text, TEXT_UNSAFE);

/** A file path escaped for one line of the files section. */
export const escapePath = (path: string): string => escapeWith(path, PATH_UNSAFE);

/** How many characters of `text` escapeText escapes (each adds 4 units), counted: the escaped text is never written. */
export function unsafeCount(text: string): number {
  let n = 0;
  for (const ch of TEXT_UNSAFE) n += occurrences(text, ch);
  // Lone surrogates, counted by the engine's own search; only a text holding a surrogate is searched.
  return SURROGATE.test(text) ? n + text.length - text.replace(LONE, "").length : n;
}

/** `escapeText(text).length`, by arithmetic. */
export const escapedLength = (text: string): number => text.length + 4 * unsafeCount(text);

/** Reverses escapeText / escapePath; null when an escape is malformed (a damaged envelope). */
export function unescapeText(text: string): string | null {
  if (text.indexOf(ESC) < 0) return text;
  let bad = false;
  const out = text.replace(/\ue000([0-9a-f]{4})?/g, (_, hex?: string) => {
    if (hex === undefined) bad = true;
    return hex === undefined ? "" : String.fromCharCode(parseInt(hex, 16));
  });
  return bad ? null : out;
}

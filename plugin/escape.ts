/**
 * What leaves the plugin must cross any host boundary byte for byte: a UTF-8 round trip (lone
 * surrogates do not survive it) and a C string (NUL ends it). Inside the envelope such characters
 * are written as ESC + four hex digits and decoded when the envelope is read back, so the task and
 * the recent turns stay verbatim and every stated length still holds after the crossing. ESC is a
 * private-use character that ordinary text does not hold; when it does, it is escaped too.
 */

/** The escape introducer, U+E000. */
export const ESC = "\ue000";

// Characters that cannot cross, plus ESC itself. Lone surrogates only: a well-formed pair crosses.
// A first look for what must be escaped: NUL and ESC by indexOf, lone surrogates by one regex
// (well-formed pairs, emoji say, are common and need nothing); any hit is then read exactly.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const textUnsafe = (s: string): boolean => s.indexOf("\u0000") >= 0 || s.indexOf(ESC) >= 0 || LONE_SURROGATE.test(s);
// A path in the files section is one line of a tagged list: line breaks and "<" are escaped too.
const PATH_UNSAFE = /[\u0000\ue000\n\r<]|[\ud800-\udfff]/;

const hex4 = (c: number): string => ("000" + c.toString(16)).slice(-4);

function escapeWith(text: string, unsafe: (c: number, text: string, i: number) => boolean): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!unsafe(c, text, i)) {
      if (c >= 0xd800 && c <= 0xdbff) i++; // a well-formed pair
      continue;
    }
    out += text.slice(from, i) + ESC + hex4(c);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

function loneOrSpecial(c: number, text: string, i: number): boolean {
  if (c === 0 || c === 0xe000) return true;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    return !(d >= 0xdc00 && d <= 0xdfff);
  }
  return c >= 0xdc00 && c <= 0xdfff; // a low surrogate not consumed with its high one
}

/** The text with every character that cannot cross a host boundary escaped (the text itself when none). */
export function escapeText(text: string): string {
  return textUnsafe(text) ? escapeWith(text, loneOrSpecial) : text;
}

/** A file path escaped for one line of the files section. */
export function escapePath(path: string): string {
  if (!PATH_UNSAFE.test(path)) return path;
  return escapeWith(path, (c, text, i) => c === 10 || c === 13 || c === 0x3c || loneOrSpecial(c, text, i));
}

/** Reverses escapeText / escapePath; null when an escape is malformed (a damaged envelope). */
export function unescapeText(text: string): string | null {
  if (text.indexOf(ESC) < 0) return text;
  let out = "";
  let from = 0;
  for (let i = text.indexOf(ESC); i >= 0; i = text.indexOf(ESC, from)) {
    const digits = text.slice(i + 1, i + 5);
    if (!/^[0-9a-f]{4}$/.test(digits)) return null;
    out += text.slice(from, i) + String.fromCharCode(parseInt(digits, 16));
    from = i + 5;
  }
  return out + text.slice(from);
}

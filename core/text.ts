/**
 * Text helpers shared by every dialect. They follow the reference's Python semantics
 * (str.strip whitespace set, `text[:n] + "..."` truncation) but work on UTF-16 units and
 * never leave half of a surrogate pair behind.
 */

/** Appended to a truncated excerpt. */
export const ELLIPSIS = "...";

function isPyWhitespace(c: number): boolean {
  // Python's str.isspace() set; JavaScript's trim() differs (it strips U+FEFF, keeps U+001C-U+001F, U+0085).
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** Python `str.strip()`. */
export function strip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPyWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isPyWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** True when the string is blank by Python's rules. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isPyWhitespace(text.charCodeAt(i))) return false;
  return true;
}

/**
 * `text[:n] + "..."` when `n > 0` and the text is longer than `n`; otherwise the text unchanged.
 * A cut that would separate a surrogate pair moves one unit left, so the excerpt stays well-formed.
 */
export function truncate(text: string, n: number): string {
  if (!(n > 0) || text.length <= n) return text;
  let cut = n;
  const before = text.charCodeAt(cut - 1);
  if (before >= 0xd800 && before <= 0xdbff) {
    const after = text.charCodeAt(cut);
    if (after >= 0xdc00 && after <= 0xdfff) cut--;
  }
  return text.slice(0, cut) + ELLIPSIS;
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * A lone surrogate: a high one not followed by a low one, or a low one not after a high one. Global:
 * each user starts it from 0 (exec sets lastIndex; replace resets it) and reads it to the end.
 */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

type NativeWellFormed = { isWellFormed?: () => boolean; toWellFormed?: () => string };
// ES2024's own methods where the engine has them (Node 20, recent V8): it knows a string's shape without reading it.
const nativeIs = (String.prototype as NativeWellFormed).isWellFormed;
const nativeTo = (String.prototype as NativeWellFormed).toWellFormed;

/** Replaces lone surrogates with U+FFFD; a string that is already well-formed is returned as is. */
export function toWellFormed(text: string): string {
  if (nativeIs !== undefined && nativeTo !== undefined) return nativeIs.call(text) ? text : nativeTo.call(text);
  if (!SURROGATE.test(text)) return text;
  // Pieces joined once: a string grown at every hit is quadratic in some engines (QuickJS).
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    out.push(text.slice(from, i), "\ufffd");
    from = i + 1;
  }
  if (from === 0) return text;
  out.push(text.slice(from));
  return out.join("");
}

/** True when the string has no lone surrogate. */
export function isWellFormed(text: string): boolean {
  return nativeIs !== undefined ? nativeIs.call(text) : toWellFormed(text) === text;
}

const TASK_NOTIFICATION = /<task-notification>[\s\S]*?<\/task-notification>\s*/g;

/** Removes `<task-notification>…</task-notification>` blocks (and the white space after each). */
export function stripTaskNotifications(text: string): string {
  return text.indexOf("<task-notification>") < 0 ? text : text.replace(TASK_NOTIFICATION, "");
}

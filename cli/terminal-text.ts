/**
 * Session text on a terminal is inert: a terminal acts on control characters (ESC starts a
 * sequence that can clear the screen, recolour it or, with OSC 52, set the clipboard), so every
 * C0 and C1 control, DEL and the bidirectional controls (which reorder what a line appears to say)
 * are shown as visible escapes (`\x1b`, `\u202e`). Columns are counted as a terminal draws them:
 * East Asian Wide and Fullwidth characters take two cells, combining marks none. Output to a pipe
 * or a file keeps the exact bytes: only a terminal gets the escaped form.
 */

/** Bidirectional controls: embeddings and overrides, isolates, and the marks. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** Everything a terminal might act on, in a single cell (a line break too). */
const CELL_UNSAFE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
/** The same in a block of lines: a line break and a tab stay what they are. */
const BLOCK_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

const escape = (c: string): string => {
  const n = c.charCodeAt(0);
  return n <= 0xff ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
};

/** One cell of a table or a line of a view: nothing in it moves the cursor or changes the terminal. */
export const inertCell = (text: string): string => text.replace(CELL_UNSAFE, escape);

/** Lines of text for a terminal: line breaks and tabs kept, every other control shown. */
export const inertBlock = (text: string): string => text.replace(BLOCK_UNSAFE, escape);

/** Whether `text` holds anything a terminal would act on (besides line breaks and tabs). */
export const hasControls = (text: string): boolean => new RegExp(BLOCK_UNSAFE.source).test(text) || BIDI.test(text);

/** What goes to `stream`: escaped for a terminal, the exact text otherwise. */
export const forStream = (text: string, stream: { isTTY?: boolean }): string => (stream.isTTY === true ? inertBlock(text) : text);

// East Asian Wide (W) and Fullwidth (F) code points, as [first, last] ranges (Unicode 15).
const WIDE: readonly [number, number][] = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55], [0x2e80, 0x303e],
  [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3],
  [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], [0x1b000, 0x1b2ff], [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a], [0x1f200, 0x1f202], [0x1f210, 0x1f23b], [0x1f240, 0x1f248], [0x1f250, 0x1f251],
  [0x1f260, 0x1f265], [0x1f300, 0x1f320], [0x1f32d, 0x1f335], [0x1f337, 0x1f37c], [0x1f37e, 0x1f393],
  [0x1f3a0, 0x1f3ca], [0x1f3cf, 0x1f3d3], [0x1f3e0, 0x1f3f0], [0x1f3f4, 0x1f3f4], [0x1f3f8, 0x1f43e],
  [0x1f440, 0x1f440], [0x1f442, 0x1f4fc], [0x1f4ff, 0x1f53d], [0x1f54b, 0x1f54e], [0x1f550, 0x1f567],
  [0x1f57a, 0x1f57a], [0x1f595, 0x1f596], [0x1f5a4, 0x1f5a4], [0x1f5fb, 0x1f64f], [0x1f680, 0x1f6c5],
  [0x1f6cc, 0x1f6cc], [0x1f6d0, 0x1f6d2], [0x1f6d5, 0x1f6d7], [0x1f6dc, 0x1f6df], [0x1f6eb, 0x1f6ec],
  [0x1f6f4, 0x1f6fc], [0x1f7e0, 0x1f7eb], [0x1f7f0, 0x1f7f0], [0x1f90c, 0x1f93a], [0x1f93c, 0x1f945],
  [0x1f947, 0x1f9ff], [0x1fa70, 0x1faff], [0x20000, 0x2fffd], [0x30000, 0x3fffd],
];

function wide(cp: number): boolean {
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < WIDE[mid][0]) hi = mid - 1;
    else if (cp > WIDE[mid][1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Nonspacing and enclosing marks, zero-width spaces and joiners, variation selectors: no cell of their own. */
const ZERO = /^[\p{Mn}\p{Me}\u200b-\u200d\u2060\ufeff\ufe00-\ufe0f]$/u;

/** The cells one code point takes on a terminal. */
export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (cp < 0x300) return 1;
  if (ZERO.test(ch)) return 0;
  return wide(cp) ? 2 : 1;
}

/** The cells `text` takes on a terminal (text without controls: pass it through `inertCell` first). */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** The longest start of `text` that fits in `width` cells (a combining mark stays with its letter). */
export function takeWidth(text: string, width: number): string {
  let w = 0;
  let end = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width) break;
    w += cw;
    end += ch.length;
  }
  return text.slice(0, end);
}

/** Cut (with …) or padded to exactly `width` cells. */
export function fitCells(text: string, width: number): string {
  const w = textWidth(text);
  if (w <= width) return text + " ".repeat(width - w);
  if (width <= 0) return "";
  const cut = takeWidth(text, width - 1).trimEnd() + "…";
  return cut + " ".repeat(width - textWidth(cut));
}

/** Every string in a value (a proxy's status, an event) made inert, the rest as it was: what a view draws from is then safe however it is cut. */
export function inertDeep<T>(v: T, depth = 0): T {
  if (typeof v === "string") return inertCell(v) as T;
  if (depth > 8 || v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => inertDeep(x, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[inertCell(k)] = inertDeep(x, depth + 1);
  return out as T;
}

/**
 * Whether a summary holds a text whole, for every result a re-fetch count asks about: one lookup
 * built per summary, not a search of the summary per result. The engine's own search is quadratic
 * on adversarial text (a result that opens with one letter and goes on with a run of another, in
 * a summary of that run, compares the run at every place), so a text past a few characters is
 * found by a rolling hash of the summary: the summary's prefix hashes are made once, each text
 * is hashed once and compared with the summary's window at each place in constant time, and only
 * a window whose hash agrees is compared character by character (the answer is exact whatever
 * collides). Each distinct text is answered once.
 */

/** The hash's base: odd, drawn per process. Arithmetic is modulo 2^32 (Math.imul), exact and fast in every engine. */
const BASE = (Math.floor(Math.random() * 0x3fffffff) << 1) | 1;
/** Texts this short are searched by the engine (at most this many comparisons per place). */
const SHORT = 8;
const PROBE = 32;

function power(e: number): number {
  let r = 1;
  let b = BASE;
  for (; e > 0; e >>>= 1) {
    if (e & 1) r = Math.imul(r, b);
    b = Math.imul(b, b);
  }
  return r;
}

function hashOf(text: string, end = text.length): number {
  let h = 0;
  for (let i = 0; i < end; i++) h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
  return h;
}

/** A summary's lookup: `holds(text)` is `summary.indexOf(text) >= 0`. */
export function heldWhole(summary: string): (text: string) => boolean {
  let prefix: Int32Array | null = null;
  const answered = new Map<number, { text: string; held: boolean }[]>();
  const find = (text: string): boolean => {
    const n = summary.length;
    const len = text.length;
    if (len > n) return false;
    if (len <= SHORT) return summary.indexOf(text) >= 0;
    // Most texts asked about are not there: a piece of each end and of the middle, searched by the
    // engine (at most PROBE comparisons per place), turns them away before any hashing.
    if (len > 3 * PROBE) {
      const mid = (len - PROBE) >> 1;
      if (summary.indexOf(text.slice(0, PROBE)) < 0 || summary.indexOf(text.slice(mid, mid + PROBE)) < 0 || summary.indexOf(text.slice(len - PROBE)) < 0) return false;
    }
    if (prefix === null) {
      prefix = new Int32Array(n + 1);
      for (let i = 0; i < n; i++) prefix[i + 1] = (Math.imul(prefix[i], BASE) + summary.charCodeAt(i)) | 0;
    }
    const pre = prefix;
    const h = hashOf(text);
    const shift = power(len);
    // A window whose hash agrees is compared in full (a collision costs the common opening, at most).
    for (let p = 0; p + len <= n; p++) if (((pre[p + len] - Math.imul(pre[p], shift)) | 0) === h && summary.startsWith(text, p)) return true;
    return false;
  };
  return (text) => {
    // Each distinct text once (a call repeated many times asks about the same result).
    const key = text.length <= SHORT ? -1 : hashOf(text, Math.min(64, text.length)) * 31 + text.length;
    const same = answered.get(key);
    const known = same?.find((a) => a.text === text);
    if (known !== undefined) return known.held;
    const held = find(text);
    if (same === undefined) answered.set(key, [{ text, held }]);
    else if (same.length < 8) same.push({ text, held });
    return held;
  };
}

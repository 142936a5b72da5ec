/**
 * A set of texts that stays linear however alike they are. A JavaScript engine's own Set hashes a
 * long string by its length alone (V8 past 16,383 characters), so thousands of long texts of one
 * length that share an opening are compared with each other in pairs: quadratic. Here a long text
 * is compared only with those of its length whose own hash of every character agrees, each text
 * hashed once, and only once a second text of its length arrives.
 */

/** Texts up to this length go to the engine's own Set, which hashes them whole. */
const ENGINE_HASHED = 16_383;

interface Long {
  text: string;
  hash: string | null;
}

function hashOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = (Math.imul(b, 31) + c) | 0;
  }
  return a + ":" + b;
}

export class TextSet {
  private readonly short = new Set<string>();
  private readonly long = new Map<number, Long[]>();

  /** Adds `text`; false when it was there already. */
  add(text: string): boolean {
    if (text.length <= ENGINE_HASHED) {
      if (this.short.has(text)) return false;
      this.short.add(text);
      return true;
    }
    const same = this.long.get(text.length);
    if (same === undefined) {
      this.long.set(text.length, [{ text, hash: null }]);
      return true;
    }
    const hash = hashOf(text);
    for (const e of same) if ((e.hash ??= hashOf(e.text)) === hash && e.text === text) return false;
    same.push({ text, hash });
    return true;
  }
}

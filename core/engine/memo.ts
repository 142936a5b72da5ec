/**
 * Per-message memo for an engine: a host that resends the whole history each request hands the
 * same message objects again, so their billable size and digest are kept. A snapshot of every
 * key and leaf value guards against in-place edits: it is checked by identity (O(nodes), not
 * O(characters)), and any difference recomputes the entry.
 */

import { sha256Hex } from "./sha256";

const OBJ = {};
const ARR = {};

/** Keys and leaves of a value in a fixed walk order. */
function snapshot(value: unknown): unknown[] {
  const out: unknown[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") {
      out.push(v);
      continue;
    }
    if (Array.isArray(v)) {
      out.push(ARR, v.length);
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      out.push(OBJ, keys.length);
      for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]], keys[i]);
    }
  }
  return out;
}

/** True when `value` still has exactly the keys and leaves recorded in `snap`. */
function unchanged(value: unknown, snap: readonly unknown[]): boolean {
  const stack: unknown[] = [value];
  let at = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") {
      if (snap[at++] !== v && !(v !== v && snap[at - 1] !== snap[at - 1])) return false;
      continue;
    }
    if (Array.isArray(v)) {
      if (snap[at++] !== ARR || snap[at++] !== v.length) return false;
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      if (snap[at++] !== OBJ || snap[at++] !== keys.length) return false;
      for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]], keys[i]);
    }
    if (stack.length > snap.length) return false; // cannot match, and guards against cycles
  }
  return at === snap.length;
}

export interface MemoEntry {
  cost: number;
  digest: string | null;
  digestDialect: string | null;
}

export class MessageMemo {
  private readonly entries = new WeakMap<object, { snap: unknown[]; entry: MemoEntry }>();

  /** The memo entry of a message, fresh (computed by `cost`) when the message is new or was edited. */
  get(message: unknown, cost: (m: unknown) => number): MemoEntry {
    if (message === null || typeof message !== "object") return { cost: cost(message), digest: null, digestDialect: null };
    const hit = this.entries.get(message);
    if (hit !== undefined && unchanged(message, hit.snap)) return hit.entry;
    const entry: MemoEntry = { cost: cost(message), digest: null, digestDialect: null };
    this.entries.set(message, { snap: snapshot(message), entry });
    return entry;
  }
}

/**
 * SHA-256 by text, for texts seen before: looking a string up hashes it natively, far faster than
 * SHA-256 in JavaScript. Bounded by the characters it keeps; the oldest texts go first.
 */
export class TextDigests {
  private readonly digests = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  digest(text: string): string {
    const hit = this.digests.get(text);
    if (hit !== undefined) return hit;
    const digest = sha256Hex(text);
    if (text.length <= this.maxChars) {
      this.digests.set(text, digest);
      this.chars += text.length;
      for (const [k] of this.digests) {
        if (this.chars <= this.maxChars) break;
        this.digests.delete(k);
        this.chars -= k.length;
      }
    }
    return digest;
  }
}

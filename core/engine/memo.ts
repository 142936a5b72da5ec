/**
 * Per-message memo for an engine. A host that resends the whole history each request hands the
 * same messages again: as the same objects, or (a proxy) parsed anew into equal ones. Either way
 * their billable size and digest are kept, found by content: a message's keys and leaves, walked
 * in a fixed order, must equal a stored walk element by element (strings compare by content), so
 * an edit anywhere, in place or not, gives a new entry. A cheap key over lengths and a few
 * characters only picks the candidates to compare.
 */

import { sha256Hex } from "../sha256.js";

const OBJ = {};
const ARR = {};
/** What a memo keeps by default, in (estimated) bytes. */
export const DEFAULT_MEMO_MAX_BYTES = 64 * 1024 * 1024;
/** What the canonical-text digest cache keeps by default, in (estimated) bytes. */
export const DEFAULT_DIGEST_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/**
 * Slots compared per cheap key. Messages that agree on it but differ elsewhere (an attacker's, or
 * many sessions of one shape) would otherwise be compared against every slot: past this many,
 * a new message is simply not memoised by content, so the work per message stays bounded.
 */
export const BUCKET_MAX = 8;
// Estimated bytes: 2 per UTF-16 unit, 16 per walk element, and a slot's own objects.
const BYTES_PER_CHAR = 2;
const BYTES_PER_ELEMENT = 16;
const SLOT_BYTES = 96;
/** Walks longer than this (a cyclic value never ends) are not memoised. */
const MAX_WALK = 1 << 20;

interface Walk {
  leaves: unknown[];
  key: number;
  /** What keeping it costs, in estimated bytes. */
  size: number;
}

function mix(key: number, x: number): number {
  return Math.imul(key ^ x, 0x9e3779b1) + 0x7f4a7c15;
}

/** An array, or an object whose prototype is null or a root one (so also plain data made in another realm). */
function isPlain(v: object): boolean {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v) as object | null;
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Keys and leaves of a value in a fixed walk order. Null for what a walk cannot stand for: a
 * class instance (it may serialise in its own way) or a walk past MAX_WALK.
 */
function walk(value: unknown): Walk | null {
  const leaves: unknown[] = [];
  const stack: unknown[] = [value];
  let key = 0;
  let size = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (leaves.length > MAX_WALK) return null;
    if (typeof v === "string") {
      const n = v.length;
      key = mix(key, n);
      if (n > 0) key = mix(mix(mix(mix(mix(key, v.charCodeAt(0)), v.charCodeAt(n >> 2)), v.charCodeAt(n >> 1)), v.charCodeAt(n - (n >> 2) - 1)), v.charCodeAt(n - 1));
      size += n;
      leaves.push(v);
    } else if (v === null || typeof v !== "object") {
      key = mix(key, typeof v === "number" ? v | 0 : v === true ? 1 : 2);
      leaves.push(v);
    } else if (!isPlain(v)) {
      return null;
    } else if (Array.isArray(v)) {
      key = mix(key, v.length + 3);
      leaves.push(ARR, v.length);
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      key = mix(key, keys.length + 5);
      leaves.push(OBJ, keys.length);
      for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]], keys[i]);
    }
  }
  return { leaves, key, size: size * BYTES_PER_CHAR + leaves.length * BYTES_PER_ELEMENT + SLOT_BYTES };
}

/** Leaves are equal by identity (strings by content), and NaN equals NaN. */
function sameLeaf(x: unknown, y: unknown): boolean {
  return x === y || (x !== x && y !== y);
}

/** True when `value` still walks to exactly `leaves` (the check of a message seen before, without building a walk). */
function unchanged(value: unknown, leaves: readonly unknown[]): boolean {
  const stack: unknown[] = [value];
  let at = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") {
      if (!sameLeaf(leaves[at++], v)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      if (leaves[at++] !== ARR || leaves[at++] !== v.length) return false;
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      if (leaves[at++] !== OBJ || leaves[at++] !== keys.length || !isPlain(v)) return false;
      for (let i = keys.length - 1; i >= 0; i--) stack.push((v as Record<string, unknown>)[keys[i]], keys[i]);
    }
    if (stack.length > leaves.length) return false; // cannot match; also ends a cycle
  }
  return at === leaves.length;
}

function sameLeaves(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameLeaf(a[i], b[i])) return false;
  return true;
}

export interface MemoEntry {
  cost: number;
  digest: string | null;
  digestDialect: string | null;
}

function fresh(message: unknown, cost: (m: unknown) => number): MemoEntry {
  return { cost: cost(message), digest: null, digestDialect: null };
}

interface Slot {
  walk: Walk;
  entry: MemoEntry;
  /** Used since eviction last passed it: it gets a second chance. */
  used: boolean;
}

/** What a cache holds now, and the work the memo has done. */
export interface CacheStats {
  entries: number;
  bytes: number;
}

export class MessageMemo {
  /** Walks compared with a stored one, since the memo was made (bounded by BUCKET_MAX per lookup). */
  comparisons = 0;
  /** The same object again is checked against its own walk, which costs no allocation. */
  private readonly byObject = new WeakMap<object, Slot>();
  private readonly buckets = new Map<number, Slot[]>();
  /** Slots in the order eviction visits them (oldest first; a used slot is moved to the end). */
  private readonly order = new Set<Slot>();
  private size = 0;

  /** `maxBytes` bounds what is kept by content (estimated bytes); 0 keeps nothing. */
  constructor(private readonly maxBytes = DEFAULT_MEMO_MAX_BYTES) {}

  stats(): CacheStats {
    return { entries: this.order.size, bytes: this.size };
  }

  /** The memo entry of a message, fresh (computed by `cost`) when no equal message was seen. */
  get(message: unknown, cost: (m: unknown) => number): MemoEntry {
    if (message === null || typeof message !== "object") return fresh(message, cost);
    const mine = this.byObject.get(message);
    if (mine !== undefined && unchanged(message, mine.walk.leaves)) return this.used(mine);
    const w = walk(message);
    if (w === null) return fresh(message, cost);
    const bucket = this.buckets.get(w.key);
    if (bucket !== undefined) {
      for (const slot of bucket) {
        // Not remembered by identity: an equal object parsed anew is rarely seen twice, and a
        // WeakMap entry per message of every request would cost more than it saves.
        this.comparisons++;
        if (sameLeaves(slot.walk.leaves, w.leaves)) return this.used(slot);
      }
    }
    const slot: Slot = { walk: w, entry: fresh(message, cost), used: false };
    if (w.size <= this.maxBytes && (bucket === undefined || bucket.length < BUCKET_MAX)) this.keep(slot);
    this.byObject.set(message, slot);
    return slot.entry;
  }

  private used(slot: Slot): MemoEntry {
    slot.used = true;
    return slot.entry;
  }

  private keep(slot: Slot): void {
    const bucket = this.buckets.get(slot.walk.key);
    if (bucket === undefined) this.buckets.set(slot.walk.key, [slot]);
    else bucket.push(slot);
    this.order.add(slot);
    this.size += slot.walk.size;
    for (const old of this.order) {
      if (this.size <= this.maxBytes) break;
      this.order.delete(old);
      if (old.used) {
        old.used = false;
        this.order.add(old);
        continue;
      }
      this.size -= old.walk.size;
      const b = this.buckets.get(old.walk.key) as Slot[];
      if (b.length === 1) this.buckets.delete(old.walk.key);
      else b.splice(b.indexOf(old), 1);
    }
  }
}

/**
 * SHA-256 by text, for texts seen before: looking a string up hashes it natively, far faster than
 * SHA-256 in JavaScript. Bounded in estimated bytes; the oldest texts go first; 0 keeps nothing.
 */
export class TextDigests {
  private readonly digests = new Map<string, string>();
  private bytes = 0;

  constructor(private readonly maxBytes: number, private readonly hash: (text: string) => string = sha256Hex) {}

  private static cost(text: string): number {
    return text.length * BYTES_PER_CHAR + 64 * BYTES_PER_CHAR + SLOT_BYTES;
  }

  stats(): CacheStats {
    return { entries: this.digests.size, bytes: this.bytes };
  }

  digest(text: string): string {
    if (this.maxBytes === 0) return this.hash(text); // keeps nothing: not even a lookup
    const hit = this.digests.get(text);
    if (hit !== undefined) return hit;
    const digest = this.hash(text);
    const cost = TextDigests.cost(text);
    if (cost <= this.maxBytes) {
      this.digests.set(text, digest);
      this.bytes += cost;
      for (const [k] of this.digests) {
        if (this.bytes <= this.maxBytes) break;
        this.digests.delete(k);
        this.bytes -= TextDigests.cost(k);
      }
    }
    return digest;
  }
}

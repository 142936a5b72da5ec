/**
 * The prefix store: cliffs already computed, keyed by the chain hash of the original prefix they
 * replace. LRU, bounded by entry count and by UTF-8 bytes of the stored summaries. An entry larger
 * than the whole budget (or a store with no capacity) is refused rather than evicting everything.
 */
import { pythonJson } from "../estimate/json.js";
import { utf8Length } from "../sha256.js";

/**
 * A copy of a summary message that the host may change without changing the stored one. Strings
 * cannot change, so they are shared: the copy costs a step per array and object, not one per
 * character. (Summary messages are the dialects' own: a few levels of plain data, fixed keys.)
 */
export function cloneSummary<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(cloneSummary) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = cloneSummary((v as Record<string, unknown>)[k]);
  return out as T;
}

export interface StoreEntry {
  /** Messages before the summary. */
  headLen: number;
  /** The summary message that replaces messages[headLen..cut). */
  summary: unknown;
  /** Index in the original history where the verbatim tail starts. */
  cut: number;
  /** Messages the replay had read when it made this cut: a shorter request would not have made it. */
  reach: number;
  /** Where the messages the summary's own parts describe start (before it, an earlier cliff's span). */
  spanFrom?: number;
  /** Canonical JSON of the config and fixed request size the entry was made under. */
  policy: string;
  dialect: string;
  /** First 8 hex digits of the summary text's SHA-256, when known (saves hashing it on every reuse). */
  summaryFp?: string;
}

export class PrefixStore {
  private readonly entries = new Map<string, { entry: StoreEntry; size: number }>();
  private bytes = 0;
  private pending: (() => void)[] = [];

  constructor(readonly maxEntries = 4096, readonly maxBytes = 67108864) {}

  /**
   * Queues a write whose key is costly to compute (it hashes a whole history). It runs before the
   * store is next read or written, by anyone, so a request that is never followed never pays for it.
   */
  defer(write: () => void): void {
    this.pending.push(write);
  }

  private settle(): void {
    while (this.pending.length > 0) {
      const writes = this.pending;
      this.pending = [];
      for (const w of writes) w();
    }
  }

  get size(): number {
    this.settle();
    return this.entries.size;
  }

  /** Total UTF-8 bytes of the stored summaries. */
  get totalBytes(): number {
    this.settle();
    return this.bytes;
  }

  /** The entry, refreshed as most recently used. */
  get(key: string): StoreEntry | undefined {
    this.settle();
    const hit = this.entries.get(key);
    if (hit === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.entry;
  }

  has(key: string): boolean {
    this.settle();
    return this.entries.has(key);
  }

  /** Stores an entry; returns false (and evicts nothing) when it can never fit. */
  put(key: string, entry: StoreEntry): boolean {
    this.settle();
    let size: number;
    try {
      size = utf8Length(pythonJson(entry.summary));
    } catch {
      return false;
    }
    if (this.maxEntries <= 0 || this.maxBytes <= 0 || size > this.maxBytes) return false;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= old.size;
    }
    this.entries.set(key, { entry, size });
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.size;
    }
    return true;
  }

  clear(): void {
    this.pending = [];
    this.entries.clear();
    this.bytes = 0;
  }
}

/**
 * The proxy pipeline as a library (spec §11, with the TypeScript port's choices of §16): for a
 * host that resends the whole history every request, `prepare` substitutes the longest stored
 * cliff, replays the original history when the context is over the threshold (so a history that
 * arrives in one piece ends with the same "last cycle only" summary an incremental run would),
 * escalates through the rungs, and `reactive` takes one more rung after an upstream
 * context-length error.
 */
import { ConfigError, resolveConfig, type Config } from "../config.js";
import { getDialect, type DialectName } from "../dialects/index.js";
import { billableChars, fixedChars } from "../estimate.js";
import { canonicalJson } from "../json.js";
import { climb, maxRung, rungConfig, type Rung } from "../ladder.js";
import { sha256Hex } from "../sha256.js";
import { canonicalText } from "./digest.js";
import { DEFAULT_DIGEST_CACHE_MAX_BYTES, DEFAULT_MEMO_MAX_BYTES, MessageMemo, TextDigests, type CacheStats, type MemoEntry } from "./memo.js";
import { replay, truncateSummary } from "./replay.js";
import { summaryMessageText } from "../parts.js";
import { cutAllowed, fingerprint, newRequest, outgoingTokens, type PrepareContext, type RequestState } from "./request.js";
import { PrefixStore } from "./store.js";
import type { ArchiveFn } from "../archive.js";

export type { PrepareContext } from "./request.js";

/**
 * A copy of a summary message that the host may change without changing the stored one. Strings
 * cannot change, so they are shared: the copy costs a step per array and object, not one per
 * character. (Summary messages are the dialects' own: a few levels of plain data, fixed keys.)
 */
function clone<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = clone((v as Record<string, unknown>)[k]);
  return out as T;
}

export interface EngineOptions {
  /** A store to share between engines (an empty one is kept, not replaced). */
  store?: PrefixStore;
  /**
   * What the message memo may keep, in estimated bytes (default 64 MiB). 0 keeps nothing by
   * content: every message object not seen before is measured anew.
   */
  memoMaxBytes?: number;
  /**
   * What the cache of digests by canonical text may keep, in estimated bytes. Default: 32 MiB (or
   * memoMaxBytes when smaller) with the core's own SHA-256; 0 with a `sha256` of the host's, since
   * a native hash costs no more than finding the text in a table.
   */
  digestCacheMaxBytes?: number;
  /** @deprecated the earlier name of memoMaxBytes. */
  memoMaxSize?: number;
  /**
   * SHA-256 as lowercase hex. Default: the core's own, in plain JavaScript (it runs in a sandbox);
   * Node hosts pass node:crypto's. Digests, chains and bodies are the same either way.
   */
  sha256?: (text: string) => string;
  /**
   * The host's archive (core/archive.ts): what a cliff drops is kept there and the summary points
   * at it. A pointer depends on the text alone, so warm growth still equals a cold replay.
   */
  archive?: ArchiveFn;
}

/** What the engine keeps, by cache. */
export interface EngineStats {
  memo: CacheStats;
  digests: CacheStats;
  store: CacheStats;
  /** Walks the memo compared since the engine was made. */
  memoComparisons: number;
}

function byteOption(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  throw new ConfigError(name, `${name} must be a whole number ≥ 0, got ${String(v)}`);
}

export class Engine {
  readonly config: Config;
  readonly store: PrefixStore;
  private readonly memo: MessageMemo;
  private readonly texts: TextDigests;
  private readonly hash: (text: string) => string;
  private readonly archive: ArchiveFn | undefined;
  // The previous request's chain: a resent history shares its leading memo entries, so only the
  // links after the first new or edited message are hashed again.
  private lastChain: { entries: MemoEntry[]; chain: string[]; dialect: string } = { entries: [], chain: [], dialect: "" };
  private readonly policyKeys = new Map<string, string>();
  /** The request `prepare` is deciding, while it does. */
  private current: RequestState | null = null;

  constructor(config?: Partial<Config>, options: EngineOptions = {}) {
    this.config = resolveConfig(config);
    this.store = options.store !== undefined ? options.store : new PrefixStore(this.config.storeMaxEntries, this.config.storeMaxBytes);
    const memoBytes = byteOption(options.memoMaxBytes !== undefined ? "memoMaxBytes" : "memoMaxSize", options.memoMaxBytes ?? options.memoMaxSize, DEFAULT_MEMO_MAX_BYTES);
    const digestBytes = byteOption("digestCacheMaxBytes", options.digestCacheMaxBytes, options.sha256 !== undefined ? 0 : Math.min(DEFAULT_DIGEST_CACHE_MAX_BYTES, memoBytes));
    this.hash = options.sha256 ?? sha256Hex;
    this.archive = options.archive;
    this.memo = new MessageMemo(memoBytes);
    this.texts = new TextDigests(digestBytes, this.hash);
  }

  /** What each cache holds now (the store's bytes are its summaries' UTF-8 bytes). */
  stats(): EngineStats {
    return {
      memo: this.memo.stats(),
      digests: this.texts.stats(),
      store: { entries: this.store.size, bytes: this.store.totalBytes },
      memoComparisons: this.memo.comparisons,
    };
  }

  /**
   * Digest of one message, memoised by content (the same object or an equal one parsed anew) and
   * by canonical text, so a resent history is hashed only where it is new.
   */
  digest(message: unknown, dialect: DialectName): string {
    const entry = this.memo.get(message, billableChars);
    if (entry.digest === null || entry.digestDialect !== dialect) {
      entry.digest = this.texts.digest(canonicalText(message, dialect, this.hash));
      entry.digestDialect = dialect;
    }
    return entry.digest;
  }

  /** Decides what to send for `body`. Never throws for malformed bodies (they pass through). */
  prepare(body: unknown, dialectName: DialectName | string): PrepareContext {
    const d = getDialect(dialectName);
    const b = (body !== null && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const raw = b[d.messagesKey];
    const messages: unknown[] = Array.isArray(raw) ? raw : [];
    const fixed = fixedChars(b, d.messagesKey);
    const entries = messages.map((m) => this.memo.get(m, billableChars));
    const ctx = newRequest(b, d, messages, entries, fixed, canonicalJson([this.config, fixed]), this.config, this.hash);
    ctx.archive = this.archive;
    // A request that fits is sent as it is, even when a stored cliff would match it.
    if (ctx.estTokensIn <= this.config.thresholdTokens || messages.length === 0) return ctx;
    this.current = ctx;
    try {
      this.decide(ctx);
    } finally {
      this.current = null;
    }
    return ctx;
  }

  private decide(ctx: RequestState): void {
    const threshold = this.config.thresholdTokens;
    this.lookup(ctx);
    if (ctx.estTokensOut <= threshold) return;
    if (this.proactive(ctx)) this.storeResult(ctx);
    // The reference's rule: strict does nothing in shadow mode, which never sends what it decides.
    const top = this.config.shadow ? 2 : maxRung(this.config);
    const reached = climb(1, top, (rung) => this.escalate(ctx, rung), () => ctx.estTokensOut <= threshold);
    if (reached > 0) ctx.rung = reached;
    ctx.overBudget = ctx.estTokensOut > threshold;
  }

  /**
   * One more step after the upstream rejected the request as too long: a forced compaction
   * first, then each rung in turn. False once nothing is left (at most 4 successful steps).
   */
  reactive(context: PrepareContext): boolean {
    const ctx = context as RequestState;
    let done = false;
    if (!ctx.compacted && ctx.rung === 0 && !ctx.reactiveBaseTried) {
      ctx.reactiveBaseTried = true;
      done = this.forced(ctx);
    }
    if (!done) {
      climb((ctx.rung + 1) as Rung, 3, (rung) => {
        ctx.rung = rung;
        return (done = this.escalate(ctx, rung));
      }, () => done);
    }
    if (done) ctx.overBudget = ctx.estTokensOut > this.config.thresholdTokens;
    return done;
  }

  /** Rung 0 as the threshold asks: resume after the cliff found in the store, cliff where the replay crosses. */
  private proactive(ctx: RequestState): boolean {
    return replay(ctx, this.config, { resume: true, force: false });
  }

  /** After an upstream refusal with nothing compacted yet: the base compaction, at least once. */
  private forced(ctx: RequestState): boolean {
    return replay(ctx, this.config, { resume: true, force: true });
  }

  /**
   * Rungs 1 and 2 replay the original history with the rung's config (a resumed replay could not
   * apply the thought cap to the old summary); rung 3 cuts the summary to its newest parts.
   */
  private escalate(ctx: RequestState, rung: Rung): boolean {
    return rung < 3 ? replay(ctx, rungConfig(this.config, rung), { resume: false, force: true }) : truncateSummary(ctx);
  }

  /**
   * The chain of the first `upTo` messages. Keys mix each digest with the message's billable size,
   * so a re-priced message never reuses a cliff.
   */
  private chainOf(ctx: RequestState, upTo = ctx.entries.length): string[] {
    if (ctx.chain !== null) return ctx.chain;
    const out: string[] = [];
    let prev = "";
    const last = this.lastChain;
    let i = 0;
    const same = last.dialect === ctx.dialect.name ? Math.min(upTo, last.chain.length) : 0;
    while (i < same && ctx.entries[i] === last.entries[i]) {
      prev = last.chain[i];
      out.push(prev);
      i++;
    }
    for (; i < upTo; i++) {
      prev = this.hash(prev + this.digest(ctx.messages[i], ctx.dialect.name) + ":" + ctx.costs[i]);
      out.push(prev);
    }
    this.lastChain = { entries: ctx.entries, chain: out, dialect: ctx.dialect.name };
    if (upTo === ctx.entries.length) ctx.chain = out;
    return out;
  }

  /** Keys carry the policy too, so clients of a shared store with other configs never overwrite each other. */
  private storeKey(ctx: RequestState, chainHash: string): string {
    if (ctx.policyKey === null) {
      const policy = ctx.policy + "\u0000" + ctx.dialect.name;
      let key = this.policyKeys.get(policy);
      if (key === undefined) {
        if (this.policyKeys.size >= 64) this.policyKeys.clear(); // a request's fixed size is part of it
        key = this.hash(policy).slice(0, 16);
        this.policyKeys.set(policy, key);
      }
      ctx.policyKey = key;
    }
    return chainHash + ":" + ctx.policyKey;
  }

  private lookup(ctx: RequestState): void {
    if (this.store.size === 0) return; // (this also runs any deferred write)
    const chain = this.chainOf(ctx);
    for (let i = ctx.messages.length - 1; i >= 0; i--) {
      const entry = this.store.get(this.storeKey(ctx, chain[i]));
      // Entries made under another config, request shape or dialect belong to other clients of a shared store.
      if (entry === undefined || entry.policy !== ctx.policy || entry.dialect !== ctx.dialect.name) continue;
      const fits = entry.cut === i + 1 && entry.headLen <= entry.cut && ctx.messages.length >= entry.reach;
      if (fits && cutAllowed(ctx.dialect, ctx.messages, entry.cut, this.config)) {
        const summary = clone(entry.summary);
        ctx.substituted = [...ctx.messages.slice(0, entry.headLen), summary, ...ctx.messages.slice(entry.cut)];
        ctx.baseCut = entry.cut;
        ctx.baseHead = entry.headLen;
        ctx.reach = entry.reach;
        ctx.modified = ctx.matched = true;
        ctx.estTokensOut = outgoingTokens(ctx, ctx.substituted);
        ctx.summaryFp = entry.summaryFp ?? fingerprint(ctx, summaryMessageText(summary));
      }
      return; // only the longest stored prefix is considered
    }
  }

  /** Only proactive cliffs made with the base config are stored; escalations stay request-local. */
  private storeResult(ctx: RequestState): void {
    const entry = {
      headLen: ctx.baseHead,
      summary: clone(ctx.substituted[ctx.baseHead]),
      cut: ctx.baseCut,
      reach: ctx.reach,
      policy: ctx.policy,
      dialect: ctx.dialect.name,
      summaryFp: ctx.summaryFp,
    };
    // The key hashes the whole prefix; the store computes it only when it is next used. By then
    // the host may have edited those messages in place: the cliff no longer describes them.
    this.store.defer(() => {
      if (ctx.chain === null && !this.unchangedUpTo(ctx, entry.cut)) return;
      // Only the prefix checked above is hashed: later messages may have changed.
      this.store.put(this.storeKey(ctx, this.chainOf(ctx, entry.cut)[entry.cut - 1]), entry);
    });
  }

  /**
   * The first `n` messages still have the contents they had when `ctx` was prepared. A message the
   * request being prepared resends at the same place was just measured, so its entry is compared.
   */
  private unchangedUpTo(ctx: RequestState, n: number): boolean {
    const now = this.current;
    for (let i = 0; i < n; i++) {
      const m = ctx.messages[i];
      const entry = now !== null && now.messages[i] === m ? now.entries[i] : this.memo.get(m, billableChars);
      if (entry !== ctx.entries[i]) return false;
    }
    return true;
  }
}

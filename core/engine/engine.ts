/**
 * The proxy pipeline as a library (spec §11, with the TypeScript port's choices of §16): for a
 * host that resends the whole history every request, `prepare` substitutes the longest stored
 * cliff, replays the original history when the context is over the threshold (so a history that
 * arrives in one piece ends with the same "last cycle only" summary an incremental run would),
 * escalates through the rungs, and `reactive` takes one more rung after an upstream
 * context-length error.
 */
import { resolveConfig, type Config } from "../config/index.js";
import { getDialect, type DialectName } from "../dialects/index.js";
import { compactionRequestOf } from "../dialects/compaction-request.js";
import { fixedChars, messageChars } from "../estimate/estimate.js";
import { canonicalJson } from "../estimate/json.js";
import { climb, maxRung, rungConfig, type Rung } from "../ladder.js";
import { sha256Hex } from "../sha256.js";
import { canonicalText } from "./digest.js";
import { DEFAULT_DIGEST_CACHE_MAX_BYTES, DEFAULT_MEMO_MAX_BYTES, MessageMemo, TextDigests, type MemoEntry } from "./memo.js";
import { replay, truncateSummary, type ChainStart } from "./replay.js";
import { summaryMessageText } from "../parts/index.js";
import { boundCalibration } from "./calibration.js";
import { cutAllowed, fingerprint, newRequest, outgoingTokens, type PrepareContext, type RequestState } from "./request.js";
import { byteOption, requestConfig, type EngineOptions, type EngineStats, type PrepareOptions } from "./options.js";
import { cloneSummary as clone, PrefixStore, type StoreEntry } from "./store.js";
import type { ArchiveFn } from "../archive.js";
import { withoutStubbedReads, withStubbedReads } from "./stubbed.js";
import { verdictOf, type Verdict } from "./verdict.js";
import { EarlierRequests, refetchesOf, type RefetchesSeen } from "./refetches.js";

export type { CliffFloor, PrepareContext } from "./request.js";
export type { EngineOptions, EngineStats, PrepareOptions } from "./options.js";
export type { Verdict } from "./verdict.js";
export type { RefetchesSeen } from "./refetches.js";

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
    const entry = this.memo.get(message, messageChars);
    if (entry.digest === null || entry.digestDialect !== dialect) {
      entry.digest = this.texts.digest(canonicalText(message, dialect, this.hash));
      entry.digestDialect = dialect;
    }
    return entry.digest;
  }

  /** Decides what to send for `body`. Never throws for malformed bodies (they pass through). */
  prepare(body: unknown, dialectName: DialectName | string, options: PrepareOptions = {}): PrepareContext {
    const ratio = boundCalibration(options.calibration);
    const cfg = requestConfig(this.config, options.thresholdTokens, options.minGainTokens);
    const ctx = this.prepareWith(body, dialectName, ratio, cfg, options);
    if (options.recalibrate === undefined || !ctx.compacted) return withStubbedReads(ctx, this.config);
    const next = boundCalibration(options.recalibrate);
    if (next === ratio) return withStubbedReads(ctx, this.config);
    const again = this.prepareWith(body, dialectName, next, cfg, options);
    return withStubbedReads(again.compacted ? again : ctx, this.config);
  }

  /** `cliff`, `reuse` or `pass` for a request `prepare` decided with `options`, from the request alone (verdict.ts). */
  verdict(ctx: PrepareContext, options: PrepareOptions = {}): Verdict {
    return verdictOf(ctx, (body) => this.earlier.of(ctx, () => this.prepare(body, ctx.dialect.name, options)));
  }
  /** The re-fetches of the request's newest turn, from the request alone (refetches.ts); null: no cliff stood before it. */
  refetches(ctx: PrepareContext, options: PrepareOptions = {}): RefetchesSeen | null {
    return refetchesOf(ctx, (body) => this.earlier.of(ctx, () => this.prepare(body, ctx.dialect.name, options)));
  }
  private readonly earlier = new EarlierRequests();
  private prepareWith(body: unknown, dialectName: DialectName | string, ratio: number, cfg: Config, options: PrepareOptions = {}): RequestState {
    const d = getDialect(dialectName);
    const b = (body !== null && typeof body === "object" && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
    const raw = b[d.messagesKey];
    const messages: unknown[] = Array.isArray(raw) ? raw : [];
    const fixed = fixedChars(b, d.messagesKey);
    const entries = messages.map((m) => this.memo.get(m, messageChars));
    const policy = ratio === 1 ? canonicalJson([cfg, fixed]) : canonicalJson([cfg, fixed, ratio]);
    const ctx = newRequest(b, d, messages, entries, fixed, policy, cfg, this.hash, ratio);
    ctx.archive = this.archive;
    // One that asks for a compaction goes as it came: its answer replaces the history it carries.
    ctx.compactionRequest = options.compactionRequest ?? compactionRequestOf(b, d.name);
    if (ctx.compactionRequest !== null) return ctx;
    // A request that fits is sent as it is, even when a stored cliff would match it (unless the host keeps cliffs: see idle).
    const below = ctx.estTokensIn <= ctx.threshold;
    if (messages.length === 0 || (below && options.idleFloorTokens === undefined && options.keepCliffs !== true)) return ctx;
    this.current = ctx;
    try {
      if (below) this.idle(ctx, options.idleFloorTokens === undefined ? undefined : Math.ceil(options.idleFloorTokens / ratio));
      else this.decide(ctx);
    } finally {
      this.current = null;
    }
    return ctx;
  }

  /** Under the threshold: a stored cliff applies; after an idle gap, a cliff from `floor` and the last floor plus the gain, stored like any. */
  private idle(ctx: RequestState, floor: number | undefined): void {
    this.lookup(ctx);
    if (floor === undefined || ctx.estTokensOut < floor) return;
    const last = ctx.floor();
    if (last !== null && ctx.minGain > 0 && ctx.estTokensOut < last.tokens + ctx.minGain) return;
    if (!replay(ctx, this.config, { resume: true, force: true, minGain: 0 }) || !ctx.compacted) return;
    ctx.idle = true;
    this.storeResult(ctx);
  }

  private decide(ctx: RequestState): void {
    const threshold = ctx.threshold;
    this.lookup(ctx);
    if (ctx.estTokensOut <= threshold) return;
    if (this.proactive(ctx)) this.storeResult(ctx);
    // The reference's rule: strict does nothing in shadow mode, which never sends what it decides.
    const top = this.config.shadow ? 2 : maxRung(this.config);
    const reached = climb(1, top, (rung) => this.escalate(ctx, rung, true), () => ctx.estTokensOut <= threshold);
    if (reached > 0) ctx.rung = reached;
    ctx.overBudget = ctx.estTokensOut > threshold;
  }

  /**
   * One more step after the upstream rejected the request as too long: a forced compaction
   * first, then each rung in turn. False once nothing is left (at most 4 successful steps).
   */
  reactive(context: PrepareContext): boolean {
    if (context.compactionRequest !== null) return false;
    const ctx = withoutStubbedReads(context as RequestState);
    let done = false;
    if (!ctx.compacted && ctx.rung === 0 && !ctx.reactiveBaseTried) {
      ctx.reactiveBaseTried = true;
      done = this.forced(ctx);
    }
    if (!done) {
      climb((ctx.rung + 1) as Rung, 3, (rung) => {
        ctx.rung = rung;
        return (done = this.escalate(ctx, rung, false));
      }, () => done);
    }
    if (done) ctx.overBudget = ctx.estTokensOut > ctx.threshold;
    withStubbedReads(ctx, this.config);
    return done;
  }

  /** Rung 0 as the threshold asks: resume after the cliff found in the store, cliff where the replay crosses. */
  private proactive(ctx: RequestState): boolean {
    return replay(ctx, this.config, { resume: true, force: false, minGain: ctx.minGain });
  }

  /** After an upstream refusal with nothing compacted yet: the base compaction, at least once. */
  private forced(ctx: RequestState): boolean {
    return replay(ctx, this.config, { resume: true, force: true, minGain: 0 });
  }

  /**
   * Rungs 1 and 2 replay the original history with the rung's config (a resumed replay could not
   * apply the thought cap to the old summary); rung 3 cuts the summary to its newest parts. With a
   * minimum gain, a proactive rung keeps a chain of its own in the store, so it too cliffs only
   * once per gain; the reactive path (`proactive` false) is never held back.
   */
  private escalate(ctx: RequestState, rung: Rung, proactive: boolean): boolean {
    if (rung === 3) return truncateSummary(ctx);
    const cfg = rungConfig(this.config, rung);
    if (!proactive || ctx.minGain === 0) return replay(ctx, cfg, { resume: false, force: true, minGain: 0 });
    const policy = ctx.calibration === 1 ? canonicalJson([cfg, ctx.fixed]) : canonicalJson([cfg, ctx.fixed, ctx.calibration]);
    const from = this.find(ctx, policy, cfg);
    const done = replay(ctx, cfg, { resume: false, force: true, minGain: ctx.minGain, from });
    if (done && ctx.compacted) this.storeResult(ctx, policy);
    return done;
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
  private storeKey(ctx: RequestState, chainHash: string, policy = ctx.policy): string {
    if (policy !== ctx.policy) return chainHash + ":" + this.policyKey(policy + "\u0000" + ctx.dialect.name);
    if (ctx.policyKey === null) ctx.policyKey = this.policyKey(ctx.policy + "\u0000" + ctx.dialect.name);
    return chainHash + ":" + ctx.policyKey;
  }

  private policyKey(policy: string): string {
    let key = this.policyKeys.get(policy);
    if (key === undefined) {
      if (this.policyKeys.size >= 64) this.policyKeys.clear(); // a request's fixed size is part of it
      key = this.hash(policy).slice(0, 16);
      this.policyKeys.set(policy, key);
    }
    return key;
  }

  /** The longest stored cliff for this history under `policy`, when it still applies. */
  private find(ctx: RequestState, policy: string, cfg: Config): ChainStart | undefined {
    if (this.store.size === 0) return undefined; // (this also runs any deferred write)
    const chain = this.chainOf(ctx);
    for (let i = ctx.messages.length - 1; i >= 0; i--) {
      const entry = this.store.get(this.storeKey(ctx, chain[i], policy));
      // Entries made under another config, request shape or dialect belong to other clients of a shared store.
      if (entry === undefined || entry.policy !== policy || entry.dialect !== ctx.dialect.name) continue;
      const fits = entry.reach === i + 1 && entry.headLen <= entry.cut && entry.cut <= entry.reach;
      if (!fits || !cutAllowed(ctx.dialect, ctx.messages, entry.cut, cfg) || entry.cut < (ctx.dialect.providerCompactionEnd?.(ctx.messages) ?? 0)) return undefined;
      return { headLen: entry.headLen, summary: clone(entry.summary), cut: entry.cut, reach: entry.reach, spanFrom: entry.spanFrom, summaryFp: entry.summaryFp };
    }
    return undefined; // only the longest stored prefix is considered
  }

  private lookup(ctx: RequestState): void {
    const entry = this.find(ctx, ctx.policy, this.config);
    if (entry === undefined) return;
    ctx.substituted = [...ctx.messages.slice(0, entry.headLen), entry.summary, ...ctx.messages.slice(entry.cut)];
    ctx.baseCut = entry.cut;
    ctx.baseHead = entry.headLen;
    ctx.reach = entry.reach;
    ctx.baseSpan = entry.spanFrom ?? entry.headLen;
    ctx.modified = ctx.matched = true;
    ctx.estTokensOut = outgoingTokens(ctx, ctx.substituted);
    ctx.summaryFp = entry.summaryFp ?? fingerprint(ctx, summaryMessageText(entry.summary));
  }

  /** Proactive cliffs are stored under the policy they were made with; the reactive path's stay request-local. */
  private storeResult(ctx: RequestState, policy = ctx.policy): void {
    const entry: StoreEntry = {
      headLen: ctx.baseHead, summary: clone(ctx.substituted[ctx.baseHead]), cut: ctx.baseCut, reach: ctx.reach, spanFrom: ctx.baseSpan, policy, dialect: ctx.dialect.name, summaryFp: ctx.summaryFp,
    };
    // The key hashes the whole prefix; the store computes it only when it is next used. By then
    // the host may have edited those messages in place: the cliff no longer describes them.
    this.store.defer(() => {
      if (ctx.chain === null && !this.unchangedUpTo(ctx, entry.reach)) return;
      // Only the prefix checked above is hashed: later messages may have changed.
      this.store.put(this.storeKey(ctx, this.chainOf(ctx, entry.reach)[entry.reach - 1], policy), entry);
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
      const entry = now !== null && now.messages[i] === m ? now.entries[i] : this.memo.get(m, messageChars);
      if (entry !== ctx.entries[i]) return false;
    }
    return true;
  }
}

/**
 * The proxy pipeline as a library (spec §11, with the TypeScript port's choices of §16): for a
 * host that resends the whole history every request, `prepare` substitutes the longest stored
 * cliff, replays the original history when the context is over the threshold (so a history that
 * arrives in one piece ends with the same "last cycle only" summary an incremental run would),
 * escalates through the rungs, and `reactive` takes one more rung after an upstream
 * context-length error.
 */
import { compactWith } from "../compact";
import { ConfigError, resolveConfig, type Config } from "../config";
import { getDialect, type Dialect, type DialectName } from "../dialects/index";
import { billableChars } from "../estimate";
import { canonicalJson } from "../json";
import { rungConfig, type Rung } from "../ladder";
import { contentText } from "../parts";
import { fitSummary, SUMMARY_HEADER, summaryParts } from "../summary";
import { canonicalText } from "./digest";
import { DEFAULT_MEMO_MAX_SIZE, MessageMemo, TextDigests, type MemoEntry } from "./memo";
import { sha256Hex } from "../sha256";
import { PrefixStore } from "./store";

export interface PrepareContext {
  /** The request body as received (never modified). */
  readonly body: Record<string, unknown>;
  readonly dialect: Dialect;
  /** The original message list. */
  readonly messages: readonly unknown[];
  /** The outgoing message list. */
  substituted: unknown[];
  /** The outgoing list differs from the incoming one. */
  modified: boolean;
  /** A compaction ran for this request (not just a stored prefix reused). */
  compacted: boolean;
  /** A stored cliff was reused. */
  matched: boolean;
  /** Where the verbatim tail starts in the original list, and the head length (0 when unmodified). */
  baseCut: number;
  baseHead: number;
  estTokensIn: number;
  estTokensOut: number;
  /** Highest escalation rung that succeeded (0 = none). */
  rung: number;
  /** Still over the threshold after everything allowed. */
  overBudget: boolean;
  /** Compactions the last replay made. */
  chainSteps: number;
  /** First 8 hex digits of the summary text's SHA-256 ("" when none). */
  summaryFp: string;
  /** The body to send: the original object when nothing changed (or in shadow mode), else a shallow copy. */
  outgoingBody(): Record<string, unknown>;
}

interface Internal extends PrepareContext {
  fixed: number;
  costs: number[];
  entries: MemoEntry[];
  chain: string[] | null;
  index: Map<unknown, number> | null;
  policy: string;
  policyKey: string | null;
  reactiveBaseTried: boolean;
  /** Messages read when the current cut was made. */
  reach: number;
}


/** The message text a dialect's summary message carries. */
function summaryTextOf(message: unknown): string {
  const content = (message as { content?: unknown }).content;
  return contentText(content, ["text", "input_text"]);
}

/** What `summaryFp` shows of a summary text: the first 8 hex digits of its SHA-256. */
function fingerprint(text: string): string {
  return sha256Hex(text).slice(0, 8);
}

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export interface EngineOptions {
  /** A store to share between engines (an empty one is kept, not replaced). */
  store?: PrefixStore;
  /**
   * What the message memo may keep, in characters of message strings plus one per element
   * (default 16 Mi). 0 keeps nothing by content: every message object not seen before is measured anew.
   */
  memoMaxSize?: number;
}

export class Engine {
  readonly config: Config;
  readonly store: PrefixStore;
  private readonly memo: MessageMemo;
  private readonly texts = new TextDigests(16 * 1024 * 1024);
  // The previous request's chain: a resent history shares its leading memo entries, so only the
  // links after the first new or edited message are hashed again.
  private lastChain: { entries: MemoEntry[]; chain: string[]; dialect: string } = { entries: [], chain: [], dialect: "" };
  private readonly policyKeys = new Map<string, string>();
  /** The request `prepare` is deciding, while it does. */
  private current: Internal | null = null;

  constructor(config?: Partial<Config>, options: EngineOptions = {}) {
    this.config = resolveConfig(config);
    this.store = options.store !== undefined ? options.store : new PrefixStore(this.config.storeMaxEntries, this.config.storeMaxBytes);
    const memoMaxSize = options.memoMaxSize ?? DEFAULT_MEMO_MAX_SIZE;
    if (!(Number.isInteger(memoMaxSize) && memoMaxSize >= 0)) throw new ConfigError("memoMaxSize", `memoMaxSize must be a whole number ≥ 0, got ${String(memoMaxSize)}`);
    this.memo = new MessageMemo(memoMaxSize);
  }

  /**
   * Digest of one message, memoised by content (the same object or an equal one parsed anew) and
   * by canonical text, so a resent history is hashed only where it is new.
   */
  digest(message: unknown, dialect: DialectName): string {
    const entry = this.memo.get(message, billableChars);
    if (entry.digest === null || entry.digestDialect !== dialect) {
      entry.digest = this.texts.digest(canonicalText(message, dialect));
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
    const fixed = billableChars({ ...b, [d.messagesKey]: [] });
    const entries = messages.map((m) => this.memo.get(m, billableChars));
    const costs = entries.map((e) => e.cost);
    const shadow = this.config.shadow;
    const ctx: Internal = {
      body: b, dialect: d, messages, substituted: messages, modified: false, compacted: false, matched: false,
      baseCut: 0, baseHead: 0, estTokensIn: 0, estTokensOut: 0, rung: 0, overBudget: false, chainSteps: 0, summaryFp: "",
      fixed, costs, entries, chain: null, index: null, policy: canonicalJson([this.config, fixed]), policyKey: null, reactiveBaseTried: false, reach: 0,
      outgoingBody() {
        return !this.modified || shadow ? b : { ...b, [d.messagesKey]: this.substituted };
      },
    };
    ctx.estTokensIn = ctx.estTokensOut = Math.floor(this.bodyChars(fixed, costs) / 4);
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

  private decide(ctx: Internal): void {
    const threshold = this.config.thresholdTokens;
    this.lookup(ctx);
    if (ctx.estTokensOut <= threshold) return;
    if (this.replay(ctx, this.config, false, true)) this.storeResult(ctx);
    const top: Rung = this.config.strict && !this.config.shadow ? 3 : 2;
    for (let rung = 1 as Rung; rung <= top && ctx.estTokensOut > threshold; rung = (rung + 1) as Rung) {
      if (rung < 3 ? this.replay(ctx, rungConfig(this.config, rung), true, false) : this.truncateSummary(ctx)) ctx.rung = rung;
    }
    ctx.overBudget = ctx.estTokensOut > threshold;
  }

  /**
   * One more step after the upstream rejected the request as too long: a forced compaction
   * first, then each rung in turn. False once nothing is left (at most 4 successful steps).
   */
  reactive(context: PrepareContext): boolean {
    const ctx = context as Internal;
    if (!ctx.compacted && ctx.rung === 0 && !ctx.reactiveBaseTried) {
      ctx.reactiveBaseTried = true;
      if (this.replay(ctx, this.config, true, true)) return this.settle(ctx);
    }
    while (ctx.rung < 3) {
      ctx.rung++;
      const ok = ctx.rung < 3 ? this.replay(ctx, rungConfig(this.config, ctx.rung as Rung), true, false) : this.truncateSummary(ctx);
      if (ok) return this.settle(ctx);
    }
    return false;
  }

  private settle(ctx: Internal): true {
    ctx.overBudget = ctx.estTokensOut > this.config.thresholdTokens;
    return true;
  }

  /** Characters of a body: the fixed part plus each message and its `, ` separator. */
  private bodyChars(fixed: number, costs: readonly number[]): number {
    let chars = fixed;
    for (let i = 0; i < costs.length; i++) chars += costs[i] + (i > 0 ? 2 : 0);
    return chars;
  }

  /**
   * The chain of the first `upTo` messages. Keys mix each digest with the message's billable size,
   * so a re-priced message never reuses a cliff.
   */
  private chainOf(ctx: Internal, upTo = ctx.entries.length): string[] {
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
      prev = sha256Hex(prev + this.digest(ctx.messages[i], ctx.dialect.name) + ":" + ctx.costs[i]);
      out.push(prev);
    }
    this.lastChain = { entries: ctx.entries, chain: out, dialect: ctx.dialect.name };
    if (upTo === ctx.entries.length) ctx.chain = out;
    return out;
  }

  /** Keys carry the policy too, so clients of a shared store with other configs never overwrite each other. */
  private storeKey(ctx: Internal, chainHash: string): string {
    if (ctx.policyKey === null) {
      const policy = ctx.policy + "\u0000" + ctx.dialect.name;
      let key = this.policyKeys.get(policy);
      if (key === undefined) {
        if (this.policyKeys.size >= 64) this.policyKeys.clear(); // a request's fixed size is part of it
        key = sha256Hex(policy).slice(0, 16);
        this.policyKeys.set(policy, key);
      }
      ctx.policyKey = key;
    }
    return chainHash + ":" + ctx.policyKey;
  }

  /** With keepRecent 0 a cut may only fall where a turn ends. */
  private cutAllowed(d: Dialect, msgs: readonly unknown[], cut: number, cfg: Config): boolean {
    return cfg.keepRecent > 0 || cut >= msgs.length || d.startsTurn(msgs[cut], msgs[cut - 1]);
  }

  private lookup(ctx: Internal): void {
    if (this.store.size === 0) return; // (this also runs any deferred write)
    const chain = this.chainOf(ctx);
    for (let i = ctx.messages.length - 1; i >= 0; i--) {
      const entry = this.store.get(this.storeKey(ctx, chain[i]));
      // Entries made under another config, request shape or dialect belong to other clients of a shared store.
      if (entry === undefined || entry.policy !== ctx.policy || entry.dialect !== ctx.dialect.name) continue;
      const fits = entry.cut === i + 1 && entry.headLen <= entry.cut && ctx.messages.length >= entry.reach;
      if (fits && this.cutAllowed(ctx.dialect, ctx.messages, entry.cut, this.config)) {
        const summary = clone(entry.summary);
        ctx.substituted = [...ctx.messages.slice(0, entry.headLen), summary, ...ctx.messages.slice(entry.cut)];
        ctx.baseCut = entry.cut;
        ctx.baseHead = entry.headLen;
        ctx.reach = entry.reach;
        ctx.modified = ctx.matched = true;
        ctx.estTokensOut = this.tokensOf(ctx, ctx.substituted);
        ctx.summaryFp = entry.summaryFp ?? fingerprint(summaryTextOf(summary));
      }
      return; // only the longest stored prefix is considered
    }
  }

  /** Body characters for an outgoing list: known messages at their cached cost, new ones (summaries) priced now. */
  private charsOf(ctx: Internal, list: readonly unknown[]): number {
    if (ctx.index === null) {
      ctx.index = new Map();
      ctx.messages.forEach((m, i) => ctx.index!.set(m, i));
    }
    const index = ctx.index;
    return this.bodyChars(ctx.fixed, list.map((m) => {
      const k = index.get(m);
      return k !== undefined ? ctx.costs[k] : billableChars(m);
    }));
  }

  private tokensOf(ctx: Internal, list: readonly unknown[]): number {
    return Math.floor(this.charsOf(ctx, list) / 4);
  }

  /**
   * The replay: feed the original messages one by one and cliff whenever the running estimate
   * crosses the threshold, each cliff dropping the previous summary. Resumes after a stored cliff
   * when `fromBase`; `force` compacts once at the end if nothing crossed.
   */
  private replay(ctx: Internal, cfg: Config, force: boolean, fromBase: boolean): boolean {
    const d = ctx.dialect;
    const msgs = ctx.messages;
    const threshold = this.config.thresholdTokens;
    let working: unknown[] = [];
    let origin: number[] = [];
    let workingCosts: number[] = [];
    let summaryAt = -1;
    let next = 0;
    if (fromBase && ctx.baseCut > 0) {
      working = ctx.substituted.slice(0, ctx.baseHead + 1);
      origin = working.map((_, i) => (i < ctx.baseHead ? i : -1));
      workingCosts = working.map((m, i) => (i < ctx.baseHead ? ctx.costs[i] : billableChars(m)));
      summaryAt = ctx.baseHead;
      next = ctx.baseCut;
    }
    let chars = this.bodyChars(ctx.fixed, workingCosts);
    let steps = 0;
    let cut = ctx.baseCut;
    let reach = ctx.reach;
    let summary: unknown = null;
    let stopped = false;
    const attempt = (): void => {
      if (!this.cutAllowed(d, msgs, next, cfg)) return;
      const r = compactWith(working, d, cfg);
      if (r === null) return;
      if ((summaryAt >= 0 && r.headLen !== summaryAt) || r.cut <= r.headLen) {
        stopped = true; // the old summary would be cut into: leave the history as it is
        return;
      }
      const newCut = r.cut < working.length ? origin[r.cut] : next;
      if (!(newCut >= 1 && newCut <= msgs.length)) {
        stopped = true;
        return;
      }
      origin = [...origin.slice(0, r.headLen), -1, ...origin.slice(r.cut)];
      workingCosts = [...workingCosts.slice(0, r.headLen), billableChars(r.summary), ...workingCosts.slice(r.cut)];
      working = r.messages;
      chars = this.bodyChars(ctx.fixed, workingCosts);
      summaryAt = r.headLen;
      summary = r.summary;
      cut = newCut;
      reach = next;
      steps++;
    };
    while (next < msgs.length && !stopped) {
      chars += ctx.costs[next] + (working.length > 0 ? 2 : 0);
      working.push(msgs[next]);
      origin.push(next);
      workingCosts.push(ctx.costs[next]);
      next++;
      if (Math.floor(chars / 4) > threshold) attempt();
    }
    if (!stopped && steps === 0 && force) attempt();
    if (steps === 0) return false;
    ctx.substituted = working;
    ctx.baseCut = cut;
    ctx.baseHead = summaryAt;
    ctx.reach = reach;
    ctx.modified = ctx.compacted = true;
    ctx.chainSteps = steps;
    ctx.estTokensOut = Math.floor(chars / 4);
    ctx.summaryFp = fingerprint(summaryTextOf(summary));
    return true;
  }

  /** Only proactive cliffs made with the base config are stored; escalations stay request-local. */
  private storeResult(ctx: Internal): void {
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
  private unchangedUpTo(ctx: Internal, n: number): boolean {
    const now = this.current;
    for (let i = 0; i < n; i++) {
      const m = ctx.messages[i];
      const entry = now !== null && now.messages[i] === m ? now.entries[i] : this.memo.get(m, billableChars);
      if (entry !== ctx.entries[i]) return false;
    }
    return true;
  }

  /** Rung 3: keep only the newest contiguous summary parts that fit; head and tail untouched. */
  private truncateSummary(ctx: Internal): boolean {
    if (ctx.baseCut <= 0 || !ctx.modified) return false;
    const d = ctx.dialect;
    const text = summaryTextOf(ctx.substituted[ctx.baseHead]);
    if (!text.startsWith(SUMMARY_HEADER)) return false;
    const others = ctx.substituted.filter((_, i) => i !== ctx.baseHead);
    const fixed = this.charsOf(ctx, others) + (others.length > 0 ? 2 : 0);
    const threshold = this.config.thresholdTokens;
    const fitted = fitSummary(SUMMARY_HEADER, summaryParts(text), (candidate) =>
      Math.floor((fixed + billableChars(d.summaryMessage(candidate))) / 4) <= threshold,
    );
    if (fitted.text.length >= text.length) return false;
    ctx.substituted = ctx.substituted.slice();
    ctx.substituted[ctx.baseHead] = d.summaryMessage(fitted.text);
    ctx.estTokensOut = this.tokensOf(ctx, ctx.substituted);
    ctx.summaryFp = fingerprint(fitted.text);
    ctx.overBudget = ctx.estTokensOut > threshold;
    return true;
  }
}

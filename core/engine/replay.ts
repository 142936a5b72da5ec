/**
 * The request-local operations of the engine's ladder. The replay feeds the original messages
 * one by one and cliffs whenever the running estimate crosses the threshold, each cliff dropping
 * the previous summary, so a history that arrives in one piece ends with the same "last cycle
 * only" summary an incremental run would. Rung 3 cuts the summary down to its newest parts.
 */
import { compactWith } from "../compact.js";
import type { Config } from "../config/index.js";
import { billableChars, bodyChars, tokensOfChars } from "../estimate/estimate.js";
import { fitSummary, SUMMARY_HEADER, summaryParts } from "../summary.js";
import { summaryMessageText } from "../parts/index.js";
import { askedTwiceOn, countCallKeys, type PriorCalls } from "../repeats/asked-twice.js";
import { cutAllowed, fingerprint, floorChars, outgoingChars, outgoingTokens, type RequestState } from "./request.js";

// A sandbox build whose config never turns asked-twice on leaves it out (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;

export interface ReplayMode {
  /** Resume after the cliff already in the outgoing list (a stored or earlier one) instead of from the start. */
  resume: boolean;
  /** Compact once at the end when the replay never crossed the threshold. */
  force: boolean;
  /**
   * After a cliff, cliff again only once the context has grown this many (raw) tokens beyond what
   * that cliff left. 0 cliffs at every crossing (the reference's rule; the reactive path's).
   */
  minGain: number;
  /** Resume after this cliff (an escalation's own stored chain) instead; its state is adopted even when nothing more is cut. */
  from?: ChainStart;
}

/** A cliff a replay may resume after: the messages before the summary, the summary, where the tail starts, and how far the replay had read. */
export interface ChainStart {
  headLen: number;
  summary: unknown;
  cut: number;
  reach: number;
  /** Where the messages the summary's own parts describe start (its head length when it is the first cliff). */
  spanFrom?: number;
  /** The summary's fingerprint, when the store knows it. */
  summaryFp?: string;
}

/** The working list of a replay, with each message's place in the original list (-1 for the summary). */
class Replay {
  working: unknown[] = [];
  origin: number[] = [];
  costs: number[] = [];
  summaryAt = -1;
  next = 0;
  steps = 0;
  stopped = false;
  summary: unknown = null;
  cut: number;
  reach: number;
  spanFrom: number;
  chars: number;
  /** Characters right after the last cliff (-1 before any): what the next cliff must gain on. */
  floor = -1;

  /** Messages before this index stay as the client sent them: the provider's own compaction and all before it. */
  private readonly fixedUpTo: number;

  constructor(private readonly ctx: RequestState, private readonly cfg: Config, private readonly mode: ReplayMode) {
    this.fixedUpTo = ctx.dialect.providerCompactionEnd?.(ctx.messages) ?? 0;
    let start = mode.from ?? (mode.resume && ctx.baseCut > 0 ? { headLen: ctx.baseHead, summary: ctx.substituted[ctx.baseHead], cut: ctx.baseCut, reach: ctx.reach, spanFrom: ctx.baseSpan } : null);
    // A cliff from before the provider compacted would keep every later cliff from reaching past its compaction.
    if (start !== null && start.cut < this.fixedUpTo) start = null;
    this.cut = ctx.baseCut;
    this.reach = ctx.reach;
    this.spanFrom = ctx.baseSpan;
    if (start !== null) {
      this.working = [...ctx.messages.slice(0, start.headLen), start.summary];
      this.origin = this.working.map((_, i) => (i < start.headLen ? i : -1));
      this.costs = this.working.map((m, i) => (i < start.headLen ? ctx.costs[i] : billableChars(m)));
      this.summaryAt = start.headLen;
      this.summary = start.summary;
      this.next = this.cut = start.cut;
      this.reach = start.reach;
      this.spanFrom = start.spanFrom ?? start.headLen;
      if (mode.minGain > 0) this.floor = floorChars(ctx, start.headLen, this.costs[start.headLen], start.cut, start.reach);
    }
    this.chars = bodyChars(ctx.fixed, this.costs);
  }

  /** The calls of the original history that the working list's summary replaced, counted once per replay as its cut moves on. */
  private prior: { upTo: number; counts: Map<string, number> } | null = null;

  /** What the asked-twice rule needs of the calls earlier cliffs replaced (nothing before the first cliff, or with the rule off). */
  private priorCalls(): PriorCalls | undefined {
    if ((typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) || this.summaryAt < 0 || !askedTwiceOn(this.cfg)) return undefined;
    const ctx = this.ctx;
    if (this.prior === null) this.prior = { upTo: this.summaryAt, counts: new Map() };
    if (this.prior.upTo < this.cut) countCallKeys(ctx.messages, ctx.dialect, this.prior.upTo, this.cut, this.cfg, this.prior.counts);
    this.prior.upTo = Math.max(this.prior.upTo, this.cut);
    return this.prior.counts;
  }

  /** No cliff yet, or the context has grown by the minimum gain past what the last one left. */
  private due(): boolean {
    return this.floor < 0 || tokensOfChars(this.chars) >= tokensOfChars(this.floor) + this.mode.minGain;
  }

  /** Feeds every remaining message, cliffing wherever the estimate crosses the threshold. */
  run(): void {
    const ctx = this.ctx;
    // Once stopped, the rest still goes on verbatim: the outgoing list always ends as the client's does.
    while (this.next < ctx.messages.length) {
      this.chars += ctx.costs[this.next] + (this.working.length > 0 ? 2 : 0);
      this.working.push(ctx.messages[this.next]);
      this.origin.push(this.next);
      this.costs.push(ctx.costs[this.next]);
      this.next++;
      if (!this.stopped && tokensOfChars(this.chars) > ctx.threshold && this.next > this.fixedUpTo && this.due()) this.attempt();
    }
  }

  attempt(): void {
    const ctx = this.ctx;
    if (!cutAllowed(ctx.dialect, ctx.messages, this.next, this.cfg)) return;
    // The files kept for re-read stubs go into the outgoing summary only (see stubbed.ts).
    const r = compactWith(this.working, ctx.dialect, this.cfg, { archive: ctx.archive, sha256: ctx.hash, stubbedReads: false, priorCalls: this.priorCalls() });
    if (r === null) return;
    // The old summary would be cut into, or the cut falls outside the history: leave it as it is.
    const newCut = r.cut < this.working.length ? this.origin[r.cut] : this.next;
    if ((this.summaryAt >= 0 && r.headLen !== this.summaryAt) || r.cut <= r.headLen || !(newCut >= 1 && newCut <= ctx.messages.length)) {
      this.stopped = true;
      return;
    }
    // After an earlier summary, this one's own parts describe the messages from that cliff's cut on.
    this.spanFrom = this.summaryAt >= 0 ? this.cut : r.headLen;
    this.origin = [...this.origin.slice(0, r.headLen), -1, ...this.origin.slice(r.cut)];
    this.costs = [...this.costs.slice(0, r.headLen), billableChars(r.summary), ...this.costs.slice(r.cut)];
    this.working = r.messages;
    this.chars = bodyChars(ctx.fixed, this.costs);
    this.summaryAt = r.headLen;
    this.summary = r.summary;
    this.cut = newCut;
    this.reach = this.next;
    this.steps++;
    if (this.mode.minGain > 0) this.floor = this.chars;
  }

  /** Writes the replay's outcome into the request. */
  adopt(): void {
    const ctx = this.ctx;
    ctx.substituted = this.working;
    ctx.baseCut = this.cut;
    ctx.baseHead = this.summaryAt;
    ctx.reach = this.reach;
    ctx.baseSpan = this.spanFrom;
    ctx.modified = true;
    // Resumed after a stored cliff with nothing more cut, the chain sends what it sent before.
    ctx.compacted = this.steps > 0;
    if (this.steps === 0) ctx.matched = true;
    ctx.chainSteps = this.steps;
    ctx.estTokensOut = tokensOfChars(this.chars);
    ctx.summaryFp = fingerprint(ctx, summaryMessageText(this.summary));
  }
}

/** Replays the request's history with `cfg`; true when it compacted (the request then holds the result). */
export function replay(ctx: RequestState, cfg: Config, mode: ReplayMode): boolean {
  const r = new Replay(ctx, cfg, mode);
  r.run();
  if (!r.stopped && r.steps === 0 && mode.force && mode.from === undefined) r.attempt();
  if (r.steps === 0 && mode.from === undefined) return false;
  r.adopt();
  return true;
}

/** Rung 3: keep only the newest contiguous summary parts that fit; head and tail untouched. */
export function truncateSummary(ctx: RequestState): boolean {
  if (ctx.baseCut <= 0 || !ctx.modified) return false;
  const d = ctx.dialect;
  const text = summaryMessageText(ctx.substituted[ctx.baseHead]);
  if (!text.startsWith(SUMMARY_HEADER)) return false;
  const others = ctx.substituted.filter((_, i) => i !== ctx.baseHead);
  const fixed = outgoingChars(ctx, others) + (others.length > 0 ? 2 : 0);
  const fitted = fitSummary(SUMMARY_HEADER, summaryParts(text), (_kept, candidate) =>
    tokensOfChars(fixed + billableChars(d.summaryMessage(candidate()))) <= ctx.threshold,
  );
  if (fitted.text.length >= text.length) return false;
  ctx.substituted = ctx.substituted.slice();
  ctx.substituted[ctx.baseHead] = d.summaryMessage(fitted.text);
  ctx.estTokensOut = outgoingTokens(ctx, ctx.substituted);
  ctx.summaryFp = fingerprint(ctx, fitted.text);
  ctx.overBudget = ctx.estTokensOut > ctx.threshold;
  return true;
}

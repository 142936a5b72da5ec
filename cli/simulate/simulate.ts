/**
 * Replays a session as an agent host would: one model request before every turn, the history
 * resent each time, a cliff whenever the context crosses the threshold. Billing follows a simple
 * prefix-cache model: the part of a request that repeats the previous request's messages (the
 * same objects, in order) is a cache hit; everything after the first difference is prefilled again.
 */
import { billableChars, bodyChars, countCallKeys, planCliff, getDialect, tokensOfChars, type ArchiveFn, type CliffPlan, type Config, type Dialect, type DialectName } from "../../core/index.js";
import type { Price, Tier } from "../../core/models/index.js";
import { bill, billOutput, emptyBilling, type Billing, type BillingModel } from "./billing.js";
import { MinGain, type FloorParts } from "./min-gain.js";

export type { Billing } from "./billing.js";

export interface SimulationStep {
  step: number;
  /** Index in the session of the message the request was made before. */
  index: number;
  context: number;
  cliff: boolean;
  cached: number;
  uncached: number;
  baselineContext: number;
}

export interface Simulation {
  steps: SimulationStep[];
  cliffs: number;
  peak: number;
  /** Smallest context right after a cliff (0 when there was none). */
  floor: number;
  cliff: Billing;
  none: Billing;
  llm: Billing;
  cacheDiscount: number;
  /** Each cliff, in order. */
  records: CliffRecord[];
  /** The minimum gain between cliffs the replay applied, the requests over the threshold it held back, and the first floor within the gain of the threshold. */
  minGain: number;
  held: number;
  tightFloor: FloorParts | null;
  /** Cliffs made after an idle gap, below the threshold. */
  idleCliffs: number;
  /** Whether the transcript had timestamps (else no request ever found its cache expired). */
  timed: boolean;
  /** The bill has dollars (the model has a price). */
  priced: boolean;
}

/** Token arithmetic of a message list as one body, each message priced once. */
class Pricer {
  private readonly costs = new Map<unknown, number>();
  constructor(private readonly fixedChars: number) {}

  cost(m: unknown): number {
    let c = this.costs.get(m);
    if (c === undefined) {
      c = billableChars(m);
      if (m !== null && typeof m === "object") this.costs.set(m, c);
    }
    return c;
  }

  tokens(msgs: readonly unknown[], upTo = msgs.length): number {
    const costs: number[] = [];
    for (let i = 0; i < upTo; i++) costs.push(this.cost(msgs[i]));
    return tokensOfChars(bodyChars(this.fixedChars, costs));
  }
}

function commonPrefix(a: readonly unknown[], b: readonly unknown[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export interface SimulateOptions {
  threshold: number;
  cacheDiscount?: number;
  /** Billable characters of the request body with an empty message list (default: a bare list, 2). */
  fixedChars?: number;
  onProgress?: (done: number, total: number) => void;
  /** The export each cliff hands what it drops to, when asked for (see core/archive.ts). */
  archive?: ArchiveFn;
  /** The host's SHA-256, when it has a faster one than the core's (refs are the same either way). */
  sha256?: (text: string) => string;
  /** When each message was written (ms since the epoch): a gap between requests longer than `cacheTtlMs` finds the cache expired. */
  times?: WeakMap<object, number>;
  /** How long the provider's cache lives between requests (ms); absent: it never expires. */
  cacheTtlMs?: number;
  /** The model's prices and long-context tier, for the bill in dollars (absent: tokens only). */
  price?: Price | null;
  tier?: Tier | null;
  /** The idle cliff: after a gap longer than `afterMs`, cliff from `floor` × the threshold (and the last floor plus the minimum gain). */
  idle?: { afterMs: number; floor: number };
}

/** One cliff of a simulation: the list that crossed the threshold and the plan that cut it. */
export interface CliffRecord {
  step: number;
  /** The message list before the cliff, and the plan the ladder made for it. */
  input: unknown[];
  plan: CliffPlan;
  before: number;
  after: number;
  /** Why: the context crossed the threshold, or the session came back after an idle gap. */
  reason: "threshold" | "idle";
}

/** The replay's running state. */
class Run {
  readonly cliff = emptyBilling();
  readonly none = emptyBilling();
  readonly llm = emptyBilling();
  readonly steps: SimulationStep[] = [];
  readonly records: CliffRecord[] = [];
  working: unknown[] = [];
  previous: unknown[] = [];
  previousNone = 0;
  previousLlm = 0;
  peak = 0;
  floor = Infinity;
  idleCliffs = 0;
  /** The newest message time seen, and the time of the previous request. */
  latest: number | undefined;
  lastRequest: number | undefined;
  readonly gain: MinGain;
  readonly model: BillingModel;
  /** The calls the cliffs so far replaced, by key (as the engine's replay counts them). */
  readonly prior = new Map<string, number>();

  constructor(readonly messages: readonly unknown[], readonly d: Dialect, readonly cfg: Config, readonly threshold: number, readonly pricer: Pricer, readonly opts: SimulateOptions) {
    this.gain = new MinGain(cfg.minGainTokens, threshold);
    this.model = { discount: opts.cacheDiscount ?? 0.1, price: opts.price ?? null, tier: opts.tier ?? null };
  }

  /** A message joins the history; its timestamp, when it has one, moves the clock. */
  add(m: unknown): void {
    this.working.push(m);
    const t = m !== null && typeof m === "object" ? this.opts.times?.get(m) : undefined;
    if (t !== undefined && (this.latest === undefined || t > this.latest)) this.latest = t;
  }

  /** What the cliff just made leaves: head, summary and tail, in tokens. */
  private floorParts(plan: CliffPlan): FloorParts {
    const r = plan.result!;
    const tokens = this.pricer.tokens(this.working);
    const head = this.pricer.tokens(this.working, r.headLen);
    const summary = Math.min(tokens - head, tokensOfChars(this.pricer.cost(r.summary)));
    return { tokens, head, summary, tail: tokens - head - summary };
  }

  /** Over the threshold (the gain allowing), or after an idle gap from the idle floor: a cliff. */
  private due(before: number, idle: boolean): "threshold" | "idle" | null {
    if (before > this.threshold) return this.gain.allows(before) ? "threshold" : null;
    const i = this.opts.idle;
    return idle && i !== undefined && before >= i.floor * this.threshold && this.gain.grown(before) ? "idle" : null;
  }

  /** A cliff when one is due; the LLM baseline pays one more full-context call for it. */
  private maybeCliff(idle: boolean, expired: boolean): boolean {
    const before = this.pricer.tokens(this.working);
    const reason = this.due(before, idle);
    if (reason === null) return false;
    const plan = planCliff(this.working, this.d, this.cfg, this.threshold, { archive: this.opts.archive, sha256: this.opts.sha256, priorCalls: this.prior });
    if (plan.result === null) return false;
    const shared = commonPrefix(this.working, this.previous);
    bill(this.llm, before, shared === 0 || expired ? 0 : Math.min(this.pricer.tokens(this.working, shared), this.previousLlm), this.model);
    this.llm.extraCalls++;
    billOutput(this.llm, this.pricer.tokens([plan.result.summary]), before, this.model);
    const input = this.working;
    // What this cliff replaces, the next one counts as the calls before its span (the asked-twice rule).
    countCallKeys(input, this.d, plan.result.headLen, plan.result.cut, this.cfg, this.prior);
    this.working = plan.result.messages;
    this.records.push({ step: this.steps.length, input, plan, before, after: this.pricer.tokens(this.working), reason });
    if (reason === "idle") this.idleCliffs++;
    this.gain.cliffed(this.floorParts(plan));
    return true;
  }

  /** The request made before message `i`. */
  request(i: number): void {
    const gap = this.latest !== undefined && this.lastRequest !== undefined ? this.latest - this.lastRequest : 0;
    if (this.latest !== undefined) this.lastRequest = this.latest;
    const expired = this.opts.cacheTtlMs !== undefined && gap > this.opts.cacheTtlMs;
    const idle = this.opts.idle !== undefined && gap > this.opts.idle.afterMs;
    const didCliff = this.maybeCliff(idle, expired);
    const total = this.pricer.tokens(this.working);
    const shared = commonPrefix(this.working, this.previous);
    const cached = didCliff || shared === 0 || expired ? 0 : this.pricer.tokens(this.working, shared);
    for (const b of [this.cliff, this.llm]) {
      bill(b, total, cached, this.model);
      if (expired) b.expired++;
    }
    this.previousLlm = total;
    const all = this.pricer.tokens(this.messages, i);
    bill(this.none, all, expired ? 0 : this.previousNone, this.model);
    if (expired) this.none.expired++;
    this.previousNone = all;
    this.peak = Math.max(this.peak, total);
    if (didCliff) this.floor = Math.min(this.floor, total);
    this.steps.push({ step: this.steps.length, index: i, context: total, cliff: didCliff, cached, uncached: total - cached, baselineContext: all });
    this.previous = this.working.slice();
  }
}

export function simulate(messages: readonly unknown[], dialectName: DialectName, cfg: Config, opts: SimulateOptions): Simulation {
  const d = getDialect(dialectName);
  const run = new Run(messages, d, cfg, opts.threshold, new Pricer(opts.fixedChars ?? 2), opts);
  for (let i = 0; i < messages.length; i++) {
    if (i > 0 && d.startsTurn(messages[i], messages[i - 1])) {
      run.request(i);
      opts.onProgress?.(i, messages.length);
    }
    run.add(messages[i]);
  }
  return {
    steps: run.steps, cliffs: run.records.length, peak: run.peak, floor: run.floor === Infinity ? 0 : run.floor,
    cliff: run.cliff, none: run.none, llm: run.llm, cacheDiscount: run.model.discount, records: run.records,
    minGain: run.gain.gain, held: run.gain.held, tightFloor: run.gain.tight,
    idleCliffs: run.idleCliffs, timed: run.latest !== undefined, priced: run.model.price !== null,
  };
}

export function toCsv(sim: Simulation): string {
  const rows = ["step,message_index,context_tokens,cliff,cached_tokens,uncached_tokens,no_compaction_context_tokens"];
  for (const s of sim.steps) rows.push([s.step, s.index, s.context, s.cliff ? 1 : 0, s.cached, s.uncached, s.baselineContext].join(","));
  return rows.join("\n") + "\n";
}

/**
 * Replays a session as an agent host would: one model request before every turn, the history
 * resent each time, a cliff whenever the context crosses the threshold. Billing follows a simple
 * prefix-cache model: the part of a request that repeats the previous request's messages (the
 * same objects, in order) is a cache hit; everything after the first difference is prefilled again.
 */
import { billableChars, bodyChars, planCliff, getDialect, tokensOfChars, type ArchiveFn, type CliffPlan, type Config, type Dialect, type DialectName } from "../../core/index.js";
import { MinGain, type FloorParts } from "./min-gain.js";

export interface Billing {
  /** All input tokens sent. */
  input: number;
  /** Input tokens served from the prefix cache. */
  cached: number;
  /** uncached + cacheDiscount × cached. */
  billed: number;
  /** Extra model calls (the LLM-summary baseline's summarisation calls). */
  extraCalls: number;
  /** Output tokens of those extra calls. */
  extraOutput: number;
}

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

function emptyBilling(): Billing {
  return { input: 0, cached: 0, billed: 0, extraCalls: 0, extraOutput: 0 };
}

function bill(b: Billing, total: number, cached: number, discount: number): void {
  b.input += total;
  b.cached += cached;
  b.billed += total - cached + discount * cached;
}

export interface SimulateOptions {
  threshold: number;
  cacheDiscount?: number;
  /** Billable characters of the request body with an empty message list (default: a bare list, 2). */
  fixedChars?: number;
  onProgress?: (done: number, total: number) => void;
  /** The archive each cliff hands what it drops to (see core/archive.ts). */
  archive?: ArchiveFn;
}

/** One cliff of a simulation: the list that crossed the threshold and the plan that cut it. */
export interface CliffRecord {
  step: number;
  /** The message list before the cliff, and the plan the ladder made for it. */
  input: unknown[];
  plan: CliffPlan;
  before: number;
  after: number;
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
  readonly gain: MinGain;

  constructor(readonly messages: readonly unknown[], readonly d: Dialect, readonly cfg: Config, readonly threshold: number, readonly discount: number, readonly pricer: Pricer, readonly archive?: ArchiveFn) {
    this.gain = new MinGain(cfg.minGainTokens, threshold);
  }

  /** What the cliff just made leaves: head, summary and tail, in tokens. */
  private floorParts(plan: CliffPlan): FloorParts {
    const r = plan.result!;
    const tokens = this.pricer.tokens(this.working);
    const head = this.pricer.tokens(this.working, r.headLen);
    const summary = Math.min(tokens - head, tokensOfChars(this.pricer.cost(r.summary)));
    return { tokens, head, summary, tail: tokens - head - summary };
  }

  /** A cliff when the context crosses the threshold; the LLM baseline pays one more full-context call for it. */
  private maybeCliff(): boolean {
    const before = this.pricer.tokens(this.working);
    if (before <= this.threshold || !this.gain.allows(before)) return false;
    const plan = planCliff(this.working, this.d, this.cfg, this.threshold, { archive: this.archive });
    if (plan.result === null) return false;
    const shared = commonPrefix(this.working, this.previous);
    bill(this.llm, before, shared === 0 ? 0 : Math.min(this.pricer.tokens(this.working, shared), this.previousLlm), this.discount);
    this.llm.extraCalls++;
    this.llm.extraOutput += this.pricer.tokens([plan.result.summary]);
    const input = this.working;
    this.working = plan.result.messages;
    this.records.push({ step: this.steps.length, input, plan, before, after: this.pricer.tokens(this.working) });
    this.gain.cliffed(this.floorParts(plan));
    return true;
  }

  /** The request made before message `i`. */
  request(i: number): void {
    const didCliff = this.maybeCliff();
    const total = this.pricer.tokens(this.working);
    const shared = commonPrefix(this.working, this.previous);
    const cached = didCliff || shared === 0 ? 0 : this.pricer.tokens(this.working, shared);
    bill(this.cliff, total, cached, this.discount);
    bill(this.llm, total, cached, this.discount);
    this.previousLlm = total;
    const all = this.pricer.tokens(this.messages, i);
    bill(this.none, all, this.previousNone, this.discount);
    this.previousNone = all;
    this.peak = Math.max(this.peak, total);
    if (didCliff) this.floor = Math.min(this.floor, total);
    this.steps.push({ step: this.steps.length, index: i, context: total, cliff: didCliff, cached, uncached: total - cached, baselineContext: all });
    this.previous = this.working.slice();
  }
}

export function simulate(messages: readonly unknown[], dialectName: DialectName, cfg: Config, opts: SimulateOptions): Simulation {
  const d = getDialect(dialectName);
  const discount = opts.cacheDiscount ?? 0.1;
  const run = new Run(messages, d, cfg, opts.threshold, discount, new Pricer(opts.fixedChars ?? 2), opts.archive);
  for (let i = 0; i < messages.length; i++) {
    if (i > 0 && d.startsTurn(messages[i], messages[i - 1])) {
      run.request(i);
      opts.onProgress?.(i, messages.length);
    }
    run.working.push(messages[i]);
  }
  return {
    steps: run.steps, cliffs: run.records.length, peak: run.peak, floor: run.floor === Infinity ? 0 : run.floor,
    cliff: run.cliff, none: run.none, llm: run.llm, cacheDiscount: discount, records: run.records,
    minGain: run.gain.gain, held: run.gain.held, tightFloor: run.gain.tight,
  };
}

export function toCsv(sim: Simulation): string {
  const rows = ["step,message_index,context_tokens,cliff,cached_tokens,uncached_tokens,no_compaction_context_tokens"];
  for (const s of sim.steps) rows.push([s.step, s.index, s.context, s.cliff ? 1 : 0, s.cached, s.uncached, s.baselineContext].join(","));
  return rows.join("\n") + "\n";
}

/**
 * Replays a session as an agent host would: one model request before every turn, the history
 * resent each time, a cliff whenever the context crosses the threshold. Billing follows a simple
 * prefix-cache model: the part of a request that repeats the previous request's messages (the
 * same objects, in order) is a cache hit; everything after the first difference is prefilled again.
 */
import { billableChars, bodyChars, planCliff, getDialect, tokensOfChars, type Config, type DialectName } from "../core/index";

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
}

export function simulate(messages: readonly unknown[], dialectName: DialectName, cfg: Config, opts: SimulateOptions): Simulation {
  const d = getDialect(dialectName);
  const discount = opts.cacheDiscount ?? 0.1;
  const pricer = new Pricer(opts.fixedChars ?? 2);
  const cliff = emptyBilling();
  const none = emptyBilling();
  const llm = emptyBilling();
  const steps: SimulationStep[] = [];
  let working: unknown[] = [];
  let previous: unknown[] = [];
  let previousNone = 0;
  let previousLlm = 0;
  let cliffs = 0;
  let peak = 0;
  let floor = Infinity;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (i > 0 && d.startsTurn(m, messages[i - 1])) {
      let didCliff = false;
      const before = pricer.tokens(working);
      if (before > opts.threshold) {
        const ladder = planCliff(working, d, cfg, opts.threshold);
        if (ladder.result !== null) {
          // The LLM baseline pays one more full-context call here, and gets a summary of the same size back.
          const shared = commonPrefix(working, previous);
          bill(llm, before, shared === 0 ? 0 : Math.min(pricer.tokens(working, shared), previousLlm), discount);
          llm.extraCalls++;
          llm.extraOutput += pricer.tokens([ladder.result.summary]);
          working = ladder.result.messages;
          didCliff = true;
          cliffs++;
        }
      }
      const total = pricer.tokens(working);
      const shared = commonPrefix(working, previous);
      const cached = didCliff || shared === 0 ? 0 : pricer.tokens(working, shared);
      bill(cliff, total, cached, discount);
      bill(llm, total, cached, discount);
      previousLlm = total;
      const all = pricer.tokens(messages, i);
      bill(none, all, previousNone, discount);
      previousNone = all;
      peak = Math.max(peak, total);
      if (didCliff) floor = Math.min(floor, total);
      steps.push({ step: steps.length, index: i, context: total, cliff: didCliff, cached, uncached: total - cached, baselineContext: all });
      previous = working.slice();
      opts.onProgress?.(i, messages.length);
    }
    working.push(m);
  }
  return { steps, cliffs, peak, floor: floor === Infinity ? 0 : floor, cliff, none, llm, cacheDiscount: discount };
}

export function toCsv(sim: Simulation): string {
  const rows = ["step,message_index,context_tokens,cliff,cached_tokens,uncached_tokens,no_compaction_context_tokens"];
  for (const s of sim.steps) rows.push([s.step, s.index, s.context, s.cliff ? 1 : 0, s.cached, s.uncached, s.baselineContext].join(","));
  return rows.join("\n") + "\n";
}

/**
 * What each cliff of a simulation cost the turns after it (core/retention/cliff-cost.ts), with message
 * indices of the session rather than of the list the cliff compacted.
 */
import { TokenReader } from "../../core/retention/retention.js";
import { cliffCost, type CostKind, type HeldItem } from "../../core/retention/cliff-cost.js";
import { getDialect, refetchesIn, refetchTotals, type DialectName } from "../../core/index.js";
import type { Simulation } from "./simulate.js";

export interface NeededDropped {
  /** Index in the session (null for a previous cliff's summary, which the session does not hold). */
  message: number | null;
  kind: CostKind;
  action: "dropped" | "cut";
  tokens: string[];
}

export interface CliffCostRow {
  step: number;
  /** Index in the session of the message the cliff's request was made before. */
  index: number;
  needed: number;
  held: number;
  neededDropped: NeededDropped[];
  /** Which rule kept each needed token the cliff held, with its config key. */
  heldBy: HeldItem[];
}

export function cliffCosts(messages: readonly unknown[], dialect: DialectName, sim: Simulation): CliffCostRow[] {
  const reader = new TokenReader(dialect);
  const where = new Map<unknown, number>();
  messages.forEach((m, i) => where.set(m, i));
  return sim.records.map((rec) => {
    const index = sim.steps[rec.step].index;
    const cost = cliffCost(rec.input, messages.slice(index), rec.plan.result!, rec.plan.config, reader);
    const neededDropped = cost.items.map((it) => ({ message: where.get(rec.input[it.index]) ?? null, kind: it.kind, action: it.action, tokens: it.tokens }));
    return { step: rec.step, index, needed: cost.needed, held: cost.held, neededDropped, heldBy: cost.heldBy };
  });
}

/** One cliff's re-fetches: the calls of the turns it stood for that repeat a call whose result it dropped (core/refetch.ts). */
export interface CliffRefetches {
  count: number;
  tokens: number;
  /** Each re-fetch: its tool, the file it reads (if any), the tokens of its result, its message in the session. */
  calls: { tool: string; path: string | null; tokens: number; message: number }[];
}

/**
 * Per cliff of a simulation, the calls made while it stood (up to the next cliff's request) that
 * repeat a call whose result it dropped: a lower bound on what it cost, since the agent that read
 * the full history never needed to ask.
 */
export function cliffRefetches(messages: readonly unknown[], dialect: DialectName, sim: Simulation): CliffRefetches[] {
  const d = getDialect(dialect);
  return sim.records.map((rec, k) => {
    const index = sim.steps[rec.step].index;
    const next = k + 1 < sim.records.length ? sim.steps[sim.records[k + 1].step].index : messages.length;
    const r = rec.plan.result!;
    const list = [...rec.input, ...messages.slice(index, next)];
    const found = refetchesIn(list, d, { headLen: r.headLen, cut: r.cut, summaryText: r.summaryText }, rec.input.length);
    const calls = found.map((f) => ({ tool: f.tool, path: f.path, tokens: f.tokens, message: f.at - rec.input.length + index }));
    return { ...refetchTotals(found), calls };
  });
}

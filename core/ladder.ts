/**
 * The budget ladder, the one every host and the engine walk when one cliff is not enough
 * (spec §11): rung 0 the configured compaction; rung 1 keepRecent → min(k, 1); rung 2 also caps
 * assistant text at 300 and drops thinking; rung 3 keeps only the newest contiguous summary parts
 * that fit. The head and the kept tail are never cut.
 *
 * `planCliff` is the one entry a host crosses into: it takes the host's messages, head policy and
 * budget (with a measure of the host's own rendering) and returns the plan the host renders from.
 */
import { toConfig, type Config } from "./config/index.js";
import { compactWith, headOf, PartsCache, resultOf, type CompactOptions, type CompactResult } from "./compact.js";
import { getDialect } from "./dialects/registry.js";
import type { Dialect, DialectName } from "./dialects/types.js";
import { estimateTokens } from "./estimate/estimate.js";
import { fitSummary, SUMMARY_HEADER } from "./summary.js";

export type Rung = 0 | 1 | 2 | 3;

/** Assistant-text cap applied at rung 2. */
export const RUNG2_THOUGHT_CAP = 300;

/** The highest rung a config allows: rung 3 cuts the summary itself, so only strict mode takes it. */
export function maxRung(config: Config): Rung {
  return config.strict ? 3 : 2;
}

/** The config of each rung, derived from the base config. */
export function rungConfig(base: Config, rung: Rung): Config {
  if (rung === 0) return base;
  const cfg = { ...base, keepRecent: Math.min(base.keepRecent, 1) };
  if (rung === 1) return cfg;
  cfg.thoughtMaxChars = base.thoughtMaxChars > 0 ? Math.min(base.thoughtMaxChars, RUNG2_THOUGHT_CAP) : RUNG2_THOUGHT_CAP;
  cfg.keepThinking = false;
  return cfg;
}

/**
 * The one rung loop: tries `step(rung)` for each rung from `from` to `top` until `done()`, and
 * returns the highest rung whose step succeeded (0 when none did).
 */
export function climb(from: Rung, top: Rung, step: (rung: Rung) => boolean, done: () => boolean): Rung | 0 {
  let reached: Rung | 0 = 0;
  for (let rung = from; rung <= top && !done(); rung = (rung + 1) as Rung) {
    if (step(rung)) reached = rung;
  }
  return reached;
}

export interface PlanOptions extends CompactOptions {
  /** Tokens of a candidate as the host will send it; default: estimateTokens(result.messages). Must not grow when parts are removed. */
  measure?: (result: CompactResult) => number;
  /** keepRecent for rung 3 (default: rung 2's). AgentParley carries its tail inside the summary, so it uses 0. */
  finalKeepRecent?: number;
  /** Highest rung to try (default 3). */
  maxRung?: Rung;
  /**
   * The host has already decided to compact (Pi's threshold or overflow, AgentParley's call):
   * when a rung finds nothing to do, try the next one even if the input fits the budget.
   */
  mustCompact?: boolean;
  /**
   * Host sections that may go under pressure, after rung 2 and before rung 3: called with how many
   * tokens the best result is over budget, while it is; each call drops something from what
   * `measure` counts (as much as it takes, if it can) and returns false once nothing is left to drop.
   */
  shed?: (excessTokens: number) => boolean;
  /**
   * The host's smallest possible output for a head of `headLen` messages (no summary parts, no
   * tail, every sheddable section gone). When it is over the budget no rung can fit, and none runs:
   * the plan comes back with `headOverBudget` (for hosts that refuse anything over budget).
   */
  floor?: (headLen: number) => number;
}

/** What the ladder decided: the host renders its string from this. */
export interface CliffPlan {
  /** The best result found (head, parts, kept tail), or null when no rung could compact. */
  result: CompactResult | null;
  /** The rung that produced `result` (0 when none did). */
  rung: Rung;
  /** Estimated tokens of `result` by the host's measure (of the input when result is null). */
  estTokens: number;
  /** Still over the budget after every rung allowed. */
  overBudget: boolean;
  /** The config that produced `result`. */
  config: Config;
  /** The `floor` of the head alone was over the budget, so no rung ran. */
  headOverBudget?: boolean;
}

/** @deprecated the earlier name of CliffPlan. */
export type LadderResult = CliffPlan;
/** @deprecated the earlier name of PlanOptions. */
export type LadderOptions = PlanOptions;

interface Candidate {
  result: CompactResult;
  rung: Rung;
  config: Config;
}

/** Rung 3: the rung-2 compaction (with the final keepRecent), keeping only the newest parts that fit. */
function truncatedRung(list: readonly unknown[], d: Dialect, base: Config, budget: number, options: PlanOptions, measure: (r: CompactResult) => number): Candidate | null {
  const cfg = { ...rungConfig(base, 2), keepRecent: options.finalKeepRecent ?? rungConfig(base, 2).keepRecent };
  const full = compactWith(list, d, cfg, options);
  if (full === null) return null;
  const newest = (kept: number): CompactResult => resultOf(list, d, full.headLen, full.cut, full.parts.slice(full.parts.length - kept), full.filesText ?? "");
  const fitted = fitSummary(SUMMARY_HEADER, full.parts, (kept) => measure(newest(kept)) <= budget);
  return { result: newest(fitted.kept), rung: 3, config: cfg };
}

/**
 * Compacts `messages` to fit `budgetTokens`, walking the rungs while the result is missing or over
 * budget, and returns the plan. Never throws for bad messages (non-arrays give a null result).
 * The plan's result reads `messages` when it renders: keep the list unchanged until then.
 */
export function planCliff(messages: unknown, dialect: DialectName | Dialect | string, config: Partial<Config> | undefined, budgetTokens: number, options: PlanOptions = {}): CliffPlan {
  const d = getDialect(dialect);
  const base = toConfig(config);
  // Rungs 0 and 1 make the same parts, and so do 2 and 3: each message is summarised once per kind.
  options = options.partsCache === undefined ? { ...options, partsCache: new PartsCache() } : options;
  const measure = options.measure ?? ((r: CompactResult) => estimateTokens(r.messages));
  const list = Array.isArray(messages) ? messages : [];
  const top = options.maxRung ?? 3;
  const plan = (c: Candidate): CliffPlan => {
    const est = measure(c.result);
    return { result: c.result, rung: c.rung, estTokens: est, overBudget: est > budgetTokens, config: c.config };
  };
  // The input's own estimate is needed only when no rung compacts, so it is computed then.
  const unchanged = (): CliffPlan => {
    const est = estimateTokens(list);
    return { result: null, rung: 0, estTokens: est, overBudget: est > budgetTokens, config: base };
  };
  if (!Array.isArray(messages)) return unchanged();
  if (options.floor !== undefined) {
    const headLen = headOf(list, d, options);
    const est = headLen === null ? 0 : options.floor(headLen);
    if (est > budgetTokens) return { result: null, rung: 0, estTokens: est, overBudget: true, config: base, headOverBudget: true };
  }
  const candidates: Candidate[] = [];
  // The smallest so far wins (a later rung on a tie); the first that fits ends the walk.
  const bestOf = (): CliffPlan | null => {
    let best: CliffPlan | null = null;
    for (const c of candidates) {
      const p = plan(c);
      if (best === null || p.estTokens <= best.estTokens) best = p;
      if (!best.overBudget) return best;
    }
    return best;
  };
  const walk = { best: null as CliffPlan | null, fitsUnchanged: false };
  const fits = (): boolean => walk.best !== null && !walk.best.overBudget;
  climb(0, top < 2 ? top : 2, (rung) => {
    const cfg = rungConfig(base, rung);
    const result = compactWith(list, d, cfg, options);
    if (result !== null) {
      candidates.push({ result, rung, config: cfg });
      const p = plan(candidates[candidates.length - 1]);
      if (walk.best === null || p.estTokens <= walk.best.estTokens) walk.best = p;
    } else if (walk.best === null && rung === 0 && options.mustCompact !== true) {
      walk.fitsUnchanged = !unchanged().overBudget;
    }
    return result !== null;
  }, () => walk.fitsUnchanged || fits());
  if (walk.fitsUnchanged) return unchanged(); // it already fits and nothing compacts
  while (walk.best !== null && walk.best.overBudget && options.shed !== undefined && options.shed(walk.best.estTokens - budgetTokens)) walk.best = bestOf();
  const last = fits() || top < 3 ? null : truncatedRung(list, d, base, budgetTokens, options, measure);
  const p = last === null ? null : plan(last);
  if (p !== null && (walk.best === null || p.estTokens <= walk.best.estTokens)) return p;
  return walk.best ?? unchanged();
}

/** The library's earlier name for planCliff. */
export const compactToBudget = planCliff;

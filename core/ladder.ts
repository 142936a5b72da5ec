/**
 * The budget ladder every host walks when one cliff is not enough (spec §11):
 * rung 0 the configured compaction; rung 1 keepRecent → min(k, 1); rung 2 also caps assistant
 * text at 300 and drops thinking; rung 3 keeps only the newest contiguous summary parts that fit.
 * The head and the kept tail are never cut.
 */
import type { Config } from "./config";
import { compactWith, toConfig, type CompactOptions, type CompactResult } from "./compact";
import { getDialect, type Dialect, type DialectName } from "./dialects/index";
import { estimateTokens } from "./estimate";
import { fitSummary, renderSummary, SUMMARY_HEADER } from "./summary";

export type Rung = 0 | 1 | 2 | 3;

/** Assistant-text cap applied at rung 2. */
export const RUNG2_THOUGHT_CAP = 300;

export interface LadderOptions extends CompactOptions {
  /** Tokens of a candidate result; default: estimateTokens(result.messages). Must not grow when parts are removed. */
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
}

export interface LadderResult {
  /** The best result found, or null when no rung could compact. */
  result: CompactResult | null;
  /** The rung that produced `result` (0 when none did). */
  rung: Rung;
  /** Estimated tokens of `result` (of the input when result is null). */
  estTokens: number;
  /** Still over the budget after every rung allowed. */
  overBudget: boolean;
  /** The config that produced `result`. */
  config: Config;
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

/** The same result with its summary cut down to the newest `kept` parts. */
function withParts(result: CompactResult, d: Dialect, parts: string[]): CompactResult {
  const summaryText = renderSummary(parts);
  const summary = d.summaryMessage(summaryText);
  const messages = result.messages.slice();
  messages[result.headLen] = summary;
  return { ...result, messages, summary, summaryText, parts };
}

/**
 * Compacts `messages` to fit `budgetTokens`, walking the rungs while the result is missing or over
 * budget. Never throws for bad messages (non-arrays give a null result).
 */
export function compactToBudget(
  messages: unknown,
  dialect: DialectName | Dialect | string,
  config: Partial<Config> | undefined,
  budgetTokens: number,
  options: LadderOptions = {},
): LadderResult {
  const d = getDialect(dialect);
  const base = toConfig(config);
  const measure = options.measure ?? ((r: CompactResult) => estimateTokens(r.messages));
  const list = Array.isArray(messages) ? messages : [];
  const maxRung = options.maxRung ?? 3;
  // The input's own estimate is needed only when no rung compacts, so it is computed then.
  const unchanged = (): LadderResult => {
    const est = estimateTokens(list);
    return { result: null, rung: 0, estTokens: est, overBudget: est > budgetTokens, config: base };
  };
  if (!Array.isArray(messages)) return unchanged();
  let best: LadderResult | null = null;
  for (let rung: Rung = 0; rung <= Math.min(maxRung, 2); rung = (rung + 1) as Rung) {
    const cfg = rungConfig(base, rung);
    const result = compactWith(list, d, cfg, options);
    if (result !== null) {
      const est = measure(result);
      if (best === null || est <= best.estTokens) best = { result, rung, estTokens: est, overBudget: est > budgetTokens, config: cfg };
    }
    if (best !== null && !best.overBudget) return best;
    if (best === null && rung === 0 && options.mustCompact !== true) {
      const input = unchanged();
      if (!input.overBudget) return input; // it already fits and nothing compacts
    }
  }
  if (maxRung < 3) return best ?? unchanged();
  const cfg = { ...rungConfig(base, 2), keepRecent: options.finalKeepRecent ?? rungConfig(base, 2).keepRecent };
  const full = compactWith(list, d, cfg, options);
  if (full === null) return best ?? unchanged();
  const fitted = fitSummary(SUMMARY_HEADER, full.parts, (_text, kept) =>
    measure(withParts(full, d, full.parts.slice(full.parts.length - kept))) <= budgetTokens,
  );
  const result = withParts(full, d, full.parts.slice(full.parts.length - fitted.kept));
  const est = measure(result);
  if (best === null || est <= best.estTokens) best = { result, rung: 3, estTokens: est, overBudget: est > budgetTokens, config: cfg };
  return best;
}

/**
 * The window and threshold of the model a request names. The facts (windows, long-context tiers)
 * come from the one table in core/models; this file decides which threshold a request gets: the
 * first `modelThresholds` glob that matches its model, else the setting a layer gave (tokens or a
 * share of the window), else the default rule (below the model's tier, half its window capped at
 * 200,000), and says why.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  DEFAULT_WINDOW, ONE_MILLION, defaultThreshold, hasOneMillionTag, matchModelThreshold, passesTier, viewOf,
  type ModelThreshold, type ThresholdReason, type Tier,
} from "../../core/models/index.js";

export { DEFAULT_WINDOW, ONE_MILLION };

export type WindowSource = "table" | "anthropic-beta" | "context-window" | "default";

export interface WindowChoice {
  model: string;
  window: number;
  source: WindowSource;
  /** The long-context price tier that applies to the model (null: none known). */
  tier: Tier | null;
}

function oneMillionBeta(headers: IncomingHttpHeaders): boolean {
  const beta = headers["anthropic-beta"];
  const list = Array.isArray(beta) ? beta.join(",") : beta ?? "";
  return /(^|,)\s*context-1m-/i.test(list);
}

/** The window for the model a request names (a `--context-window` override wins; an unknown model gets 128k). */
export function windowOf(model: unknown, headers: IncomingHttpHeaders, override: number | undefined): WindowChoice {
  const name = typeof model === "string" ? model : "";
  const v = viewOf(name, oneMillionBeta(headers) || hasOneMillionTag(name));
  if (override !== undefined && override > 0) return { model: name, window: override, source: "context-window", tier: v.tier };
  return { model: name, window: v.window, source: v.windowSource, tier: v.tier };
}

/** How the proxy sizes each request's threshold. */
export interface ThresholdPolicy {
  /** Where a request's threshold comes from when no `modelThresholds` glob matches its model. */
  rule: "default" | "share" | "tokens";
  /** With rule "share": the share of the window, in (0, 1]. */
  share?: number;
  /** With rule "tokens": the threshold for every request (the config's thresholdTokens). */
  tokens: number;
  contextWindow?: number;
  /** The minimum gain as a share of the request's threshold (absent: the config's gain, `gainTokens`). */
  gainShare?: number;
  gainTokens?: number;
  /** Globs over the model id with their thresholds; the first that matches wins. */
  modelThresholds?: readonly ModelThreshold[];
}

export interface ThresholdChoice extends WindowChoice {
  threshold: number;
  reason: ThresholdReason;
  /** The `modelThresholds` glob that set it. */
  glob?: string;
  /** An explicit threshold that lets requests past the model's long-context tier (warned once). */
  overTier: boolean;
}

const gainOf = (p: ThresholdPolicy) => (p.gainShare !== undefined ? { share: p.gainShare } : { tokens: p.gainTokens ?? 0 });

/** The threshold a request is decided against, and why. */
export function thresholdFor(policy: ThresholdPolicy, model: unknown, headers: IncomingHttpHeaders): ThresholdChoice {
  const w = windowOf(model, headers, policy.contextWindow);
  const gain = gainOf(policy);
  const glob = matchModelThreshold(policy.modelThresholds ?? [], w.model);
  let threshold: number;
  if (glob !== null) threshold = glob.tokens ?? Math.max(1, Math.floor(w.window * (glob.share ?? 1)));
  else if (policy.rule === "share") threshold = Math.max(1, Math.floor(w.window * (policy.share ?? 1)));
  else if (policy.rule === "tokens") threshold = policy.tokens;
  else {
    const d = defaultThreshold(w.window, w.tier, gain);
    return { ...w, threshold: d.tokens, reason: d.reason, overTier: false };
  }
  return { ...w, threshold, reason: "explicit", ...(glob !== null ? { glob: glob.glob } : {}), overTier: passesTier(threshold, w.tier, gain) };
}

const n = (v: number): string => v.toLocaleString("en-US");

/** Why a model has its threshold, in a few words (status, watch, the log). */
export function reasonText(c: Pick<ThresholdChoice, "reason" | "window" | "tier" | "glob">): string {
  if (c.reason === "tier") return `below its long-context price tier at ${n(c.tier?.above ?? 0)} tokens`;
  if (c.reason === "cap") return `half its ${n(c.window)}-token window, capped at 200,000`;
  if (c.reason === "share") return `half its ${n(c.window)}-token window`;
  return c.glob !== undefined ? `modelThresholds ${c.glob}` : "set explicitly";
}

/** The warning for an explicit threshold past a model's tier (once per model). */
export function overTierText(c: Pick<ThresholdChoice, "model" | "threshold" | "tier">): string {
  return `the threshold ${n(c.threshold)} for ${c.model || "(no model)"} lets requests past its long-context price tier at ${n(c.tier?.above ?? 0)} input tokens (the estimate runs about 15% under the provider's count and a cliff held back by the minimum gain goes out above the threshold), where the whole request is billed at the higher rate; the default keeps below it`;
}

/** The rule in one line, for serve's and run's header and status. */
export function ruleText(p: ThresholdPolicy): string {
  const globs = p.modelThresholds !== undefined && p.modelThresholds.length > 0 ? `; modelThresholds ${p.modelThresholds.map((e) => `${e.glob}=${e.share !== undefined ? `${Math.round(e.share * 1000) / 10}%` : e.tokens}`).join(",")} first` : "";
  const window = p.contextWindow !== undefined ? ` (every window taken as ${n(p.contextWindow)})` : "";
  if (p.rule === "share") return `threshold ${Math.round((p.share ?? 1) * 1000) / 10}% of each model's window${window}${globs}`;
  if (p.rule === "tokens") return `threshold ${n(p.tokens)} tokens${globs}`;
  return `threshold by model${window}: below its long-context price tier (threshold × 1.15 + minimum gain ≤ tier), else half its window capped at 200,000${globs}`;
}

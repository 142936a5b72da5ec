/**
 * The one table of model facts: context windows, list prices, long-context price tiers and the
 * models that run Anthropic's thinking prefix check, for the proxy and the CLI alike. A model id is
 * matched by its longest known prefix (`claude-sonnet-4-5-20250929` finds `claude-sonnet-4-5`), and
 * every fact comes from that one row, so a model never borrows a less specific row's price. A
 * variant the table does not list (`gpt-4.1-nano` under `gpt-4.1`) takes the row's window but no
 * price: only the row's own model, or a dated snapshot of it, is priced. Each row names the
 * provider page it was read from and the date.
 */
import { ANTHROPIC } from "./anthropic.js";
import { OPENAI } from "./openai.js";
import { GOOGLE, OTHERS } from "./others.js";
import { idMatches, isListed, modelKey } from "./key.js";
import type { ModelFacts, Price, Provider, Tier } from "./types.js";

export type { ModelFacts, Price, Provider, Tier } from "./types.js";
export { modelKey, hasOneMillionTag, idMatches, isListed } from "./key.js";
export {
  DEFAULT_SHARE, DEFAULT_CAP, ESTIMATE_SLACK, tierCeiling, passesTier, defaultThreshold, parseModelThresholds, matchModelThreshold, formatModelThresholds,
  type ThresholdReason, type Gain, type DefaultThreshold, type ModelThreshold,
} from "./threshold.js";

export const MODEL_FACTS: readonly ModelFacts[] = [...ANTHROPIC, ...OPENAI, ...GOOGLE, ...OTHERS];
const LONGEST_FIRST = MODEL_FACTS.slice().sort((x, y) => y.id.length - x.id.length);

/** The window assumed for a model the table does not know. */
export const DEFAULT_WINDOW = 128_000;
/** Anthropic's long-context window (beta header, or a `[1m]` tag on the model name). */
export const ONE_MILLION = 1_000_000;

/**
 * How long a provider keeps a prompt cache without a hit, in seconds: Anthropic's default cache
 * lives 5 minutes (an hour when `cache_control` asks for `ttl: "1h"`); OpenAI's and Gemini's
 * implicit caches are documented as minutes, and the shortest published figure is used.
 */
export const CACHE_TTL_SECONDS: Readonly<Record<Provider, number>> = Object.freeze({
  anthropic: 300, openai: 300, google: 300, moonshot: 300, zhipu: 300, deepseek: 300,
});
export const ANTHROPIC_LONG_TTL_SECONDS = 3600;

/** The table's row for a model (its longest matching prefix), or null. */
export function modelFacts(model: string): ModelFacts | null {
  const key = modelKey(model);
  if (key === "") return null;
  return LONGEST_FIRST.find((f) => idMatches(key, f.id)) ?? null;
}

export type WindowSource = "table" | "anthropic-beta" | "default";

/** What the table says of one model as a request uses it. */
export interface ModelView {
  key: string;
  facts: ModelFacts | null;
  window: number;
  windowSource: WindowSource;
  price: Price | null;
  /** The long-context tier that applies (with the 1M beta, the beta's tier). */
  tier: Tier | null;
  prefixCheck: boolean;
}

/** A model's facts; `oneMillion` when the request asks for Anthropic's 1M window (beta header or `[1m]`). */
export function viewOf(model: string, oneMillion = false): ModelView {
  const facts = modelFacts(model);
  const key = modelKey(model);
  if (facts === null) return { key, facts, window: DEFAULT_WINDOW, windowSource: "default", price: null, tier: null, prefixCheck: false };
  const beta = oneMillion && facts.oneMillionBeta !== undefined;
  return {
    key, facts,
    window: beta ? ONE_MILLION : facts.window,
    windowSource: beta ? "anthropic-beta" : "table",
    price: isListed(key, facts.id) ? facts.price ?? null : null,
    tier: (beta ? facts.oneMillionBeta?.tier : facts.tier) ?? null,
    prefixCheck: facts.prefixCheck === true,
  };
}

/** Whether the model runs Anthropic's prefix check on thinking blocks sent back (preserved thinking). */
export function runsPrefixCheck(model: string): boolean {
  return modelFacts(model)?.prefixCheck === true;
}

/** The cache lifetime to assume for a model, in seconds (the provider's; 5 minutes for a model the table does not know). */
export function cacheTtlOf(model: string): number {
  const f = modelFacts(model);
  return f === null ? 300 : CACHE_TTL_SECONDS[f.provider];
}

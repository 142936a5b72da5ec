/**
 * What `simulate` and `report` replay a session with when the proxy would choose it: the threshold
 * for the transcript's model (a `--threshold` or config file's as given, else the first
 * `modelThresholds` glob that matches, else the proxy's default: below the model's long-context
 * tier, else half its window capped at 200,000), the model's prices and tier for the bill, how
 * long its provider's cache lives, and the idle cliff when asked for.
 */
import { resolveConfig, setBy, type Config, type ConfigLayer } from "../../core/index.js";
import { cacheTtlOf, defaultThreshold, hasOneMillionTag, matchModelThreshold, viewOf, type Price, type Tier } from "../../core/models/index.js";
import { Prices } from "../../proxy/observe/index.js";
import { durationMs, idleSettings, modelThresholdSettings, priceSettings } from "../proxy/index.js";
import { gainSet, GAIN_SHARE } from "../host-defaults.js";
import type { Parsed } from "../args.js";
import type { Session } from "../readers/index.js";
import { hostSetting } from "../settings.js";
import type { SimulateOptions } from "./simulate.js";

export interface SimChoice {
  cfg: Config;
  /** Where the threshold came from, in words ("the proxy's default for claude-sonnet-4-5: half its 200,000-token window"). */
  why: string;
  /** The threshold came from no setting (report then says so). */
  chosen: boolean;
  model: string | null;
  price: Price | null;
  tier: Tier | null;
  cacheTtlMs: number;
  idle?: SimulateOptions["idle"];
}

const n = (v: number): string => v.toLocaleString("en-US");

function windowOf(layers: readonly ConfigLayer[], model: string): { window: number; from: string } {
  const set = hostSetting(layers, "contextWindow");
  const w = set === undefined ? NaN : Number(set.value);
  if (Number.isSafeInteger(w) && w > 0) return { window: w, from: set!.source };
  const v = viewOf(model, hasOneMillionTag(model));
  return { window: v.window, from: v.windowSource === "default" ? "no table entry: 128,000 assumed" : v.windowSource === "anthropic-beta" ? "its [1m] tag" : "the model table" };
}

/** The threshold and why. */
function thresholdOf(layers: readonly ConfigLayer[], cfg: Config, model: string): { tokens: number; why: string; chosen: boolean } {
  const { window, from } = windowOf(layers, model);
  const name = model === "" ? "the session (no model recorded)" : model;
  const glob = model === "" ? null : matchModelThreshold(modelThresholdSettings(layers) ?? [], model);
  if (glob !== null) return { tokens: glob.tokens ?? Math.max(1, Math.floor(window * (glob.share ?? 1))), why: `modelThresholds ${glob.glob} for ${name}`, chosen: false };
  const set = setBy(layers, "thresholdTokens");
  if (set !== undefined) return { tokens: cfg.thresholdTokens, why: `set by ${set === "flags" ? "--threshold" : set === "environment" ? "CLIFF_THRESHOLD_TOKENS" : set}`, chosen: false };
  const gain = gainSet(layers, cfg) ? { tokens: cfg.minGainTokens } : { share: 1 / GAIN_SHARE };
  const tier = viewOf(model, hasOneMillionTag(model)).tier;
  const d = defaultThreshold(window, tier, gain);
  const reason = d.reason === "tier" ? `below its long-context price tier at ${n(tier?.above ?? 0)} tokens` : d.reason === "cap" ? `half its ${n(window)}-token window, capped at 200,000` : `half its ${n(window)}-token window`;
  return { tokens: d.tokens, why: `the proxy's default for ${name}: ${reason}; window from ${from}`, chosen: true };
}

/** The replay's threshold, bill and clock for a session; `hostDefaults` applies what follows the threshold (the minimum gain). */
export function simulationChoice(session: Session, layers: readonly ConfigLayer[], values: Parsed["values"], given: Config, hostDefaults: (cfg: Config) => Config): SimChoice {
  const model = session.model ?? "";
  const t = thresholdOf(layers, given, model);
  const cfg = hostDefaults(t.tokens === given.thresholdTokens ? given : resolveConfig({ thresholdTokens: t.tokens }, given));
  const idle = idleSettings(layers);
  const ttl = typeof values["cache-ttl"] === "string" ? durationMs(values["cache-ttl"], "--cache-ttl") : cacheTtlOf(model) * 1000;
  return {
    cfg, why: t.why, chosen: t.chosen, model: model === "" ? null : model,
    price: model === "" ? null : new Prices(priceSettings(layers)).of(model),
    tier: model === "" ? null : viewOf(model, hasOneMillionTag(model)).tier,
    cacheTtlMs: ttl,
    ...(idle.idleCliffMs !== undefined ? { idle: { afterMs: idle.idleCliffMs, floor: idle.idleCliffFloor ?? 0.5 } } : {}),
  };
}

/**
 * The default threshold a model gets when no setting names one, and the per-model thresholds a
 * user names by glob. The default stays below a model's long-context price tier: the estimate
 * runs about 15% under the provider's count on code, and a cliff the minimum gain holds back goes
 * out above the threshold, so a threshold t keeps `t × 1.15 + gain ≤ tier`. Every model also keeps
 * to half its window, capped at 200,000 estimated tokens (the reference's default for 1M models).
 */
import { globMatches } from "../parts/glob.js";
import { modelKey } from "./key.js";
import type { Tier } from "./types.js";

/** The share of the window a model without a tier gets, and the cap on it. */
export const DEFAULT_SHARE = 0.5;
export const DEFAULT_CAP = 200_000;
/** How far the provider's count runs over the chars/4 estimate on code (measured: about 15%). */
export const ESTIMATE_SLACK = 1.15;

export type ThresholdReason = "share" | "cap" | "tier" | "explicit";

/** The minimum gain a threshold comes with: a share of it, or a fixed number of tokens. */
export interface Gain {
  share?: number;
  tokens?: number;
}

const gainAt = (t: number, g: Gain): number => (g.share !== undefined ? Math.floor(t * g.share) : g.tokens ?? 0);

/** The largest threshold whose requests stay under the tier: t × 1.15 + gain(t) ≤ tier. */
export function tierCeiling(tier: number, gain: Gain): number {
  const t = gain.share !== undefined ? tier / (ESTIMATE_SLACK + gain.share) : (tier - (gain.tokens ?? 0)) / ESTIMATE_SLACK;
  return Math.max(1, Math.floor(t));
}

/** Whether a threshold lets requests past the tier (what an explicit threshold is warned for). */
export function passesTier(threshold: number, tier: Tier | null, gain: Gain): boolean {
  return tier !== null && threshold * ESTIMATE_SLACK + gainAt(threshold, gain) > tier.above;
}

export interface DefaultThreshold {
  tokens: number;
  reason: Exclude<ThresholdReason, "explicit">;
}

/** The default for a model: below its tier if it has one, within half its window, at most 200,000. */
export function defaultThreshold(window: number, tier: Tier | null, gain: Gain): DefaultThreshold {
  const half = Math.floor(window * DEFAULT_SHARE);
  const capped = Math.min(half, DEFAULT_CAP);
  const base: DefaultThreshold = { tokens: capped, reason: half > DEFAULT_CAP ? "cap" : "share" };
  if (tier === null) return base;
  const ceiling = tierCeiling(tier.above, gain);
  return ceiling < capped ? { tokens: ceiling, reason: "tier" } : base;
}

/** One `modelThresholds` entry: a glob over the model id (as the table spells it) and its threshold. */
export interface ModelThreshold {
  glob: string;
  tokens?: number;
  share?: number;
}

function thresholdValue(glob: string, v: unknown): ModelThreshold {
  const text = typeof v === "number" ? String(v) : typeof v === "string" ? v.trim() : "";
  if (/^\d+(\.\d+)?%$/.test(text)) {
    const share = Number(text.slice(0, -1)) / 100;
    if (share > 0 && share <= 1) return { glob, share };
  } else if (/^\d+$/.test(text) && Number(text) > 0 && Number.isSafeInteger(Number(text))) return { glob, tokens: Number(text) };
  else if (/^0?\.\d+$|^1(\.0*)?$/.test(text) && Number(text) > 0) return { glob, share: Number(text) };
  throw new Error(`modelThresholds: ${JSON.stringify(glob)} needs a threshold in tokens (150000) or a share of the window (40% or 0.4), got ${JSON.stringify(v)}`);
}

/**
 * `modelThresholds` as a flag or variable gives it (`claude-*=40%,gpt-4.1*=150000`) or a config
 * file holds it (an object of glob → tokens or share). Order is kept: the first glob that matches wins.
 */
export function parseModelThresholds(v: unknown): ModelThreshold[] {
  if (typeof v === "string") {
    const out: ModelThreshold[] = [];
    for (const part of v.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
      const eq = part.lastIndexOf("=");
      if (eq <= 0) throw new Error(`modelThresholds: ${JSON.stringify(part)} is not glob=threshold (claude-*=40%,gpt-4.1*=150000)`);
      out.push(thresholdValue(part.slice(0, eq).trim(), part.slice(eq + 1)));
    }
    return out;
  }
  if (v !== null && typeof v === "object" && !Array.isArray(v)) return Object.entries(v as Record<string, unknown>).map(([glob, t]) => thresholdValue(glob, t));
  throw new Error("modelThresholds must be glob=threshold pairs separated by commas, or an object of glob → threshold");
}

/** The first entry whose glob matches the model (its id as the table spells it), or null. */
export function matchModelThreshold(list: readonly ModelThreshold[], model: string): ModelThreshold | null {
  const key = modelKey(model);
  return list.find((e) => globMatches(key, [e.glob.toLowerCase()], false)) ?? null;
}

/** A `modelThresholds` list in the form a flag takes. */
export function formatModelThresholds(list: readonly ModelThreshold[]): string {
  return list.map((e) => `${e.glob}=${e.share !== undefined ? `${Math.round(e.share * 1000) / 10}%` : e.tokens}`).join(",");
}

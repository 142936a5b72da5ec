/**
 * The proxy's own settings (upstreams, allowed Host names) from the same layers as every config
 * key: flags over CLIFF_* over the config file. A value that cannot be used is refused in one
 * line naming where it came from (the flag, the variable or the file), before anything listens.
 */
import { setBy, type ConfigLayer } from "../../core/index.js";
import { parseModelThresholds, type ModelThreshold } from "../../core/models/index.js";
import { upstreamUrl, type ProxyOptions } from "../../proxy/index.js";
import { checkPrices, type PriceTable } from "../../proxy/observe/index.js";
import type { Parsed } from "../args.js";
import { InputError } from "../readers/index.js";
import { hostSetting } from "../settings.js";

const UPSTREAM_KEYS = [["anthropic", "anthropicUpstream"], ["openai", "openaiUpstream"], ["chatgpt", "chatgptUpstream"], ["gemini", "geminiUpstream"], ["vertex", "vertexUpstream"], ["codeassist", "codeassistUpstream"]] as const;

/** Upstreams in the one order: flag, CLIFF_* variable, config file, default; each checked as a base URL, with where it came from. */
export function upstreamSettings(layers: readonly ConfigLayer[]): { upstreams: ProxyOptions["upstreams"]; sources: Record<string, string> } {
  const out: ProxyOptions["upstreams"] = {};
  const sources: Record<string, string> = {};
  for (const [name, key] of UPSTREAM_KEYS) {
    const set = hostSetting(layers, key);
    if (set === undefined) continue;
    const source = set.source === "--" + name + "-upstream" || /^CLIFF_/.test(set.source) ? set.source : `${set.source} ${key}`;
    if (typeof set.value !== "string") throw new InputError(`${source} must be a URL string`);
    try {
      upstreamUrl(name, set.value, source);
    } catch (e) {
      throw new InputError((e as Error).message);
    }
    out[name] = set.value;
    sources[name] = source;
  }
  return { upstreams: out, sources };
}

/** Host names to answer to: the allowedHosts setting (a list, or names separated by commas) and every --allow-host. */
export function allowedHosts(layers: readonly ConfigLayer[], p: Parsed): string[] {
  const set = hostSetting(layers, "allowedHosts");
  const names: string[] = [];
  if (set !== undefined) {
    const v = set.value;
    const list = typeof v === "string" ? v.split(",") : Array.isArray(v) && v.every((x) => typeof x === "string") ? (v as string[]) : null;
    if (list === null) throw new InputError(`${set.source}: allowedHosts must be a list of host names`);
    names.push(...list);
  }
  for (const a of p.repeated["allow-host"] ?? []) names.push(a);
  const out = names.map((n) => n.trim()).filter((n) => n !== "");
  for (const n of out) if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d+)?$/.test(n)) throw new InputError(`${set?.source ?? "--allow-host"}: ${JSON.stringify(n)} is not a host name`);
  return out;
}

/** `prices` (dollars per million tokens by model, over the built-in table): an object in the config file, JSON in CLIFF_PRICES. */
export function priceSettings(layers: readonly ConfigLayer[]): PriceTable | undefined {
  const set = hostSetting(layers, "prices");
  if (set === undefined) return undefined;
  try {
    return checkPrices(typeof set.value === "string" ? JSON.parse(set.value) : set.value);
  } catch (e) {
    throw new InputError(`${set.source}: ${(e as Error).message.split("\n")[0]}`);
  }
}

/** A percentage given where a threshold goes is answered about that setting, not the share it stands for. */
function checkPercent(text: string, name: string): void {
  const p = Number(text.trim().slice(0, -1));
  if (!(p > 0 && p <= 100)) throw new InputError(`${name} ${text.trim()}: a percentage is a share of each model's window, so it must be above 0% and at most 100% (${name === "--threshold" ? "--threshold 60%" : "CLIFF_THRESHOLD_TOKENS=60%"}); for a number of tokens give the number (${name === "--threshold" ? "--threshold 150000" : "CLIFF_THRESHOLD_TOKENS=150000"})`);
}

/** `--threshold 60%` (and CLIFF_THRESHOLD_TOKENS=60%) name a share of the window: read as --threshold-share 0.6. */
export function percentThreshold(values: Parsed["values"], env: NodeJS.ProcessEnv): { values: Parsed["values"]; env: NodeJS.ProcessEnv } {
  const out = { values: { ...values }, env: { ...env } };
  const flag = values.threshold;
  if (typeof flag === "string" && flag.trim().endsWith("%")) {
    checkPercent(flag, "--threshold");
    delete out.values.threshold;
    out.values["threshold-share"] = flag;
  }
  const variable = env.CLIFF_THRESHOLD_TOKENS;
  if (typeof variable === "string" && variable.trim().endsWith("%")) {
    checkPercent(variable, "CLIFF_THRESHOLD_TOKENS");
    delete out.env.CLIFF_THRESHOLD_TOKENS;
    out.env.CLIFF_THRESHOLD_SHARE ??= variable;
  }
  return out;
}

function share(v: unknown, source: string): number {
  const text = typeof v === "string" ? v.trim() : null;
  const n = text === null ? (typeof v === "number" ? v : NaN) : text.endsWith("%") ? Number(text.slice(0, -1)) / 100 : text === "" ? NaN : Number(text);
  if (!(n > 0 && n <= 1)) throw new InputError(`${source} must be a share of the window in (0, 1] or a percentage (60%), got ${JSON.stringify(v)}`);
  return n;
}

function positiveInt(v: unknown, source: string): number {
  const n = typeof v === "string" && /^\s*\+?\d+\s*$/.test(v) ? Number(v) : typeof v === "number" ? v : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new InputError(`${source} must be a whole number of tokens > 0, got ${JSON.stringify(v)}`);
  return n;
}

/** `modelThresholds` from the highest layer that sets it (a flag's or variable's `glob=threshold,…`, a config file's object): it replaces any lower layer's. */
export function modelThresholdSettings(layers: readonly ConfigLayer[]): ModelThreshold[] | undefined {
  const set = hostSetting(layers, "modelThresholds");
  if (set === undefined) return undefined;
  try {
    return parseModelThresholds(set.value);
  } catch (e) {
    throw new InputError(`${set.source}: ${(e as Error).message}`);
  }
}

type WindowSettings = Pick<ProxyOptions, "thresholdShare" | "defaultThreshold" | "modelThresholds" | "contextWindow" | "debugDir">;

/**
 * The threshold, window and debug settings. The layer highest in the order that sets a threshold
 * decides whether it is absolute (thresholdTokens) or a share of the window (thresholdShare); with
 * neither, each model gets the default rule (below its long-context tier, else half its window
 * capped at 200,000). `modelThresholds` globs come before either.
 */
export function windowSettings(layers: readonly ConfigLayer[]): WindowSettings {
  const rank = (key: string): number => {
    const source = setBy(layers, key);
    return source === undefined ? -1 : layers.findIndex((l) => l.source === source);
  };
  const tokens = rank("thresholdTokens");
  const shareAt = rank("thresholdShare");
  if (tokens >= 0 && tokens === shareAt) throw new InputError(`${layers[tokens].source === "environment" ? "CLIFF_THRESHOLD_TOKENS and CLIFF_THRESHOLD_SHARE" : layers[tokens].source === "flags" ? "--threshold and --threshold-share" : `${layers[tokens].source}: thresholdTokens and thresholdShare`}: set one threshold, not both`);
  const out: WindowSettings = {};
  if (shareAt > tokens) {
    const set = hostSetting(layers, "thresholdShare")!;
    out.thresholdShare = share(set.value, set.source);
  } else if (tokens < 0) out.defaultThreshold = true;
  const globs = modelThresholdSettings(layers);
  if (globs !== undefined && globs.length > 0) out.modelThresholds = globs;
  const w = hostSetting(layers, "contextWindow");
  if (w !== undefined) out.contextWindow = positiveInt(w.value, w.source);
  const dir = hostSetting(layers, "debugDir");
  if (dir !== undefined) {
    if (typeof dir.value !== "string" || dir.value.trim() === "") throw new InputError(`${dir.source} must name a folder`);
    out.debugDir = dir.value;
  }
  return out;
}

/**
 * The proxy switches from the layers (true, false, "true", "1", "on", "false", "0", "off"):
 * preservedThinking, fallback and remoteCompaction are on unless a layer turns them off; answerCompaction is on by
 * default in `run` (one user's own agent) and off in `serve` (where it changes what a team's upstream sees);
 * passThreads is off unless a layer turns it on (decision/threads.ts).
 */
export function proxySwitches(layers: readonly ConfigLayer[], command: "serve" | "run" = "serve"): Pick<ProxyOptions, "preservedThinking" | "fallback" | "remoteCompaction" | "answerCompaction" | "passThreads"> {
  const on = (key: "preservedThinking" | "fallback" | "remoteCompaction" | "answerCompaction" | "passThreads", byDefault = true): boolean => {
    const set = hostSetting(layers, key);
    if (set === undefined) return byDefault;
    if (set.value === true || set.value === false) return set.value;
    const v = String(set.value).trim().toLowerCase();
    if (["true", "1", "on"].includes(v)) return true;
    if (["false", "0", "off"].includes(v)) return false;
    throw new InputError(`${set.source} must be true or false, got ${JSON.stringify(set.value)}`);
  };
  return { preservedThinking: on("preservedThinking"), fallback: on("fallback"), remoteCompaction: on("remoteCompaction"), answerCompaction: on("answerCompaction", command === "run"), passThreads: on("passThreads", false) };
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration as the flags take it: 300 (seconds), 250ms, 90s, 5m, 1h. */
export function durationMs(v: unknown, source: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(typeof v === "number" ? String(v) : typeof v === "string" ? v : "");
  const ms = m === null ? NaN : Number(m[1]) * UNIT_MS[m[2] ?? "s"];
  if (!(ms > 0) || !Number.isFinite(ms)) throw new InputError(`${source} must be a duration such as 5m, 90s or 1h, got ${JSON.stringify(v)}`);
  return Math.round(ms);
}

/** The idle cliff: off unless a layer sets `idleCliff`; its floor a share of the threshold (default 0.5). */
export function idleSettings(layers: readonly ConfigLayer[]): Pick<ProxyOptions, "idleCliffMs" | "idleCliffFloor"> {
  const set = hostSetting(layers, "idleCliff");
  const floor = hostSetting(layers, "idleCliffFloor");
  const off = set === undefined || set.value === false || (typeof set.value === "string" && /^\s*(off|0)\s*$/i.test(set.value));
  if (off) return {};
  return { idleCliffMs: durationMs(set.value, set.source), ...(floor === undefined ? {} : { idleCliffFloor: share(floor.value, floor.source) }) };
}

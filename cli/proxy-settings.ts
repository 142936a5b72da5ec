/**
 * The proxy's own settings (upstreams, allowed Host names) from the same layers as every config
 * key: flags over CLIFF_* over the config file. A value that cannot be used is refused in one
 * line naming where it came from (the flag, the variable or the file), before anything listens.
 */
import type { ConfigLayer } from "../core/index.js";
import { upstreamUrl, type ProxyOptions } from "../proxy/index.js";
import { checkPrices, type PriceTable } from "../proxy/prices.js";
import type { Parsed } from "./args.js";
import { InputError } from "./readers/index.js";
import { hostSetting } from "./settings.js";

const UPSTREAM_KEYS = [["anthropic", "anthropicUpstream"], ["openai", "openaiUpstream"], ["chatgpt", "chatgptUpstream"]] as const;

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

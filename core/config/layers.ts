/**
 * One order for every host: flags over CLIFF_* variables over the config file over the profile
 * over the defaults. Hosts read their sources (files, the environment, a command line) into
 * layers of values; this module only merges them, so the order is written once.
 */
import { DEFAULT_CONFIG } from "./defaults.js";
import type { Config } from "./keys.js";
import { CONFIG_KEYS, ConfigError, parseSetting } from "./kinds.js";
import { camel, resolveConfig } from "./resolve.js";

/** One source of settings: `source` names it in errors ("--config file x.json", "CLIFF_* environment"). */
export interface ConfigLayer {
  source: string;
  values: Readonly<Record<string, unknown>>;
}

function valueIn(layer: ConfigLayer, key: string): unknown {
  for (const raw of Object.keys(layer.values)) if (camel(raw) === key && layer.values[raw] !== undefined) return layer.values[raw];
  return undefined;
}

/** The source of the highest layer that sets `key` (camelCase), or undefined when none does. */
export function setBy(layers: readonly ConfigLayer[], key: string): string | undefined {
  for (let i = layers.length - 1; i >= 0; i--) if (valueIn(layers[i], key) !== undefined) return layers[i].source;
  return undefined;
}

/**
 * The config from `layers`, lowest priority first. The profile is read first, from the highest
 * layer that sets it, and lays its defaults over `hostDefaults` (a host's own defaults, over
 * DEFAULT_CONFIG); then every layer's explicit keys apply in order, so any of them beats the
 * profile. Keys in `hostKeys` (a host's own settings, such as upstream URLs) are skipped; any other
 * unknown or bad key throws a ConfigError whose message starts with the layer's source.
 */
export function resolveLayers(layers: readonly ConfigLayer[], hostDefaults: Readonly<Partial<Config>> = {}, hostKeys: readonly string[] = []): Config {
  let cfg = resolveConfig(hostDefaults, DEFAULT_CONFIG);
  const attempt = (source: string, values: Record<string, unknown>): void => {
    try {
      cfg = resolveConfig(values, cfg);
    } catch (e) {
      if (e instanceof ConfigError) throw new ConfigError(e.key, `${source}: ${e.message}`);
      throw e;
    }
  };
  for (let i = layers.length - 1; i >= 0; i--) {
    const profile = valueIn(layers[i], "profile");
    if (profile !== undefined) {
      attempt(layers[i].source, { profile });
      break;
    }
  }
  for (const layer of layers) {
    const values: Record<string, unknown> = {};
    for (const raw of Object.keys(layer.values)) {
      const key = camel(raw);
      if (key !== "profile" && hostKeys.indexOf(key) < 0) values[raw] = layer.values[raw];
    }
    attempt(layer.source, values);
  }
  return cfg;
}

/** CLIFF_KEEP_RECENT for keepRecent, and so on. */
export function envName(key: string): string {
  return "CLIFF_" + key.replace(/[A-Z]/g, (c) => "_" + c).toUpperCase();
}

/**
 * Every config key's CLIFF_* variable that is set and not empty, parsed by the key's kind. A value
 * that does not parse is left out and described in `problems` ("CLIFF_X="v" must be …"): the
 * host decides whether that is fatal (the CLI) or a warning (Pi).
 */
export function envValues(env: Readonly<Record<string, string | undefined>>): { values: Record<string, unknown>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const key of CONFIG_KEYS) {
    const name = envName(key);
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    try {
      values[key] = parseSetting(key, raw);
    } catch (e) {
      problems.push(`${name}=${JSON.stringify(raw)} ${(e as Error).message}`);
    }
  }
  return { values, problems };
}

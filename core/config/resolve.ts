/**
 * Validating and merging: `resolveConfig` only checks and merges an object of settings over the
 * defaults; several sources (file, environment, flags) are merged by `resolveLayers` (layers.ts).
 */
import { DEFAULT_CONFIG, PROFILES } from "./defaults.js";
import type { Config, Profile } from "./keys.js";
import { CONFIG_ENUMS, CONFIG_KEYS, CONFIG_KINDS, ConfigError, what } from "./kinds.js";

export function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return "the string " + JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
  return typeof v === "object" ? "an object" : String(v);
}

/**
 * Merges `partial` over `base` (DEFAULT_CONFIG by default). Keys may be camelCase or snake_case
 * (`keep_recent`). Integers must be whole, non-negative and safe; booleans must be booleans;
 * ratios in (0, 1]; enums one of their names; lists arrays of strings. Anything else, unknown keys
 * included, throws a ConfigError naming the key. `undefined` values are ignored. A `profile` in
 * `partial` lays that profile's defaults over `base` before the other keys of `partial` apply.
 * Several sources (file, environment, flags) are merged by `resolveLayers` (layers.ts).
 */
export function resolveConfig(partial?: unknown, base: Readonly<Config> = DEFAULT_CONFIG): Config {
  if (partial === undefined || partial === null) return resolved({ ...base });
  if (typeof partial !== "object" || Array.isArray(partial)) {
    throw new ConfigError("(config)", `config must be an object of settings, got ${describe(partial)}`);
  }
  const values = partial as Record<string, unknown>;
  const keys = Object.keys(values);
  const out: Config = { ...base };
  // The profile first, whatever the order of keys: it supplies defaults, explicit keys win over it.
  for (const raw of keys) {
    if (camel(raw) === "profile" && values[raw] !== undefined) {
      const profile = checked(raw, values[raw]) as Profile;
      Object.assign(out, PROFILES[profile], { profile });
    }
  }
  for (const raw of keys) {
    const key = camel(raw);
    if (key === "profile" || values[raw] === undefined) continue;
    (out as unknown as Record<string, unknown>)[key] = checked(raw, values[raw]);
  }
  return resolved(out);
}

/** One key's value as given in an object of settings, or a ConfigError naming the key. */
function checked(raw: string, value: unknown): unknown {
  const key = camel(raw) as keyof Config;
  if (!Object.prototype.hasOwnProperty.call(CONFIG_KINDS, key)) {
    throw new ConfigError(raw, `unknown config key "${raw}"; known keys: ${CONFIG_KEYS.join(", ")}`);
  }
  const kind = CONFIG_KINDS[key];
  const ok =
    kind === "bool" ? typeof value === "boolean"
    : kind === "int" ? typeof value === "number" && Number.isSafeInteger(value) && value >= 0
    : kind === "ratio" ? typeof value === "number" && value > 0 && value <= 1
    : kind === "enum" ? typeof value === "string" && CONFIG_ENUMS[key].indexOf(value) >= 0
    : kind === "list" ? Array.isArray(value) && value.every((v) => typeof v === "string")
    : typeof value === "string";
  if (!ok) throw new ConfigError(raw, `config key "${raw}" must be ${what(key)}, got ${describe(value)}`);
  return kind === "list" ? Object.freeze((value as string[]).slice()) : value;
}

// Configs that came out of resolveConfig, frozen: the core takes them as they are instead of
// validating them again on every call.
const RESOLVED = new WeakSet<object>();

function resolved(cfg: Config): Config {
  RESOLVED.add(Object.freeze(cfg));
  return cfg;
}

/** A full config from whatever the caller passed: one from resolveConfig as it is, anything else validated. */
export function toConfig(config?: unknown): Config {
  return typeof config === "object" && config !== null && RESOLVED.has(config) ? (config as Config) : resolveConfig(config);
}

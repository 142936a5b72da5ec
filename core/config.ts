/**
 * Configuration: one record, camelCase, with the reference proxy's defaults. `resolveConfig`
 * only validates and merges; reading files or the environment is each host's job.
 */

export interface Config {
  /** false: hosts step aside and let their own compaction run. */
  enabled: boolean;
  /** Context size (estimated tokens) at which the engine compacts; hosts use it for strict mode and overBudget. */
  thresholdTokens: number;
  /** Newest assistant-step turns kept verbatim. */
  keepRecent: number;
  /** Cap on assistant text in a summary; 0 = unlimited (the paper used 300). */
  thoughtMaxChars: number;
  /** Cap on a tool-call signature's arguments. */
  cmdMaxChars: number;
  /** Tool results up to this length (after stripping) are kept; longer ones are dropped. */
  resultMaxChars: number;
  /** Sanity cap on human text in a summary. */
  humanMaxChars: number;
  /** Fold thinking into the summary as text. */
  keepThinking: boolean;
  /** Cap on thinking text; 0 = unlimited. */
  thinkingMaxChars: number;
  /** Report what would happen, change nothing. */
  shadow: boolean;
  /** Walk rung 3 (truncate the summary itself) when still over the threshold. */
  strict: boolean;
  /** Prefix store bounds (engine). */
  storeMaxEntries: number;
  storeMaxBytes: number;
  /** AgentParley: the summary must stay within this fraction of the compaction threshold. */
  maxSummaryRatio: number;
  /** Focus excerpts: at most this many characters from one dropped result, and in all. */
  focusResultMaxChars: number;
  focusTotalMaxChars: number;
  /** File lists a summary carries forward (AgentParley envelope, engine when appendFileLists): at most this many paths, newest kept. */
  filesMaxPaths: number;
  /** …and at most this many characters of paths. */
  filesMaxChars: number;
  /** Engine: append the files read and modified to the summary (off: the reference's byte-exact summary). */
  appendFileLists: boolean;
}

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  enabled: true,
  thresholdTokens: 200000,
  keepRecent: 3,
  thoughtMaxChars: 0,
  cmdMaxChars: 150,
  resultMaxChars: 500,
  humanMaxChars: 20000,
  keepThinking: true,
  thinkingMaxChars: 0,
  shadow: false,
  strict: false,
  storeMaxEntries: 4096,
  storeMaxBytes: 67108864,
  maxSummaryRatio: 0.45,
  focusResultMaxChars: 800,
  focusTotalMaxChars: 6000,
  filesMaxPaths: 200,
  filesMaxChars: 16000,
  appendFileLists: false,
});

/** How a setting is written: a whole number ≥ 0, a boolean, or a fraction in (0, 1]. */
export type ConfigKind = "int" | "bool" | "ratio";

export const CONFIG_KINDS: { readonly [K in keyof Config]: ConfigKind } = {
  enabled: "bool",
  thresholdTokens: "int",
  keepRecent: "int",
  thoughtMaxChars: "int",
  cmdMaxChars: "int",
  resultMaxChars: "int",
  humanMaxChars: "int",
  keepThinking: "bool",
  thinkingMaxChars: "int",
  shadow: "bool",
  strict: "bool",
  storeMaxEntries: "int",
  storeMaxBytes: "int",
  maxSummaryRatio: "ratio",
  focusResultMaxChars: "int",
  focusTotalMaxChars: "int",
  filesMaxPaths: "int",
  filesMaxChars: "int",
  appendFileLists: "bool",
};

/** The config keys, in their camelCase spelling. */
export const CONFIG_KEYS = Object.keys(CONFIG_KINDS) as (keyof Config)[];

const WHAT: Record<ConfigKind, string> = { int: "a whole number ≥ 0", bool: "true or false", ratio: "a number in (0, 1]" };
const TRUE = /^(true|1|yes|on)$/i;
const FALSE = /^(false|0|no|off)$/i;

/**
 * A setting's value from text (an environment variable, a command-line flag), by its kind.
 * Throws a ConfigError whose message says what the kind accepts ("must be …"); the caller names
 * where the text came from.
 */
export function parseSetting(key: keyof Config, text: string): number | boolean {
  const kind = CONFIG_KINDS[key];
  const t = text.trim();
  const bad = (): never => {
    throw new ConfigError(key, `must be ${WHAT[kind]}`);
  };
  if (kind === "bool") return TRUE.test(t) ? true : FALSE.test(t) ? false : bad();
  const v = kind === "int" && /^\+?\d+$/.test(t) ? Number(t) : kind === "ratio" && t !== "" ? Number(t) : NaN;
  if (kind === "int" ? !Number.isSafeInteger(v) : !(v > 0 && v <= 1)) bad();
  return v;
}

/** Raised by resolveConfig; `key` names the offending setting. */
export class ConfigError extends Error {
  constructor(readonly key: string, message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function camel(key: string): string {
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
 * maxSummaryRatio must be in (0, 1]. Anything else, unknown keys included, throws a ConfigError
 * naming the key. `undefined` values are ignored.
 */
export function resolveConfig(partial?: unknown, base: Readonly<Config> = DEFAULT_CONFIG): Config {
  const out: Config = { ...base };
  if (partial === undefined || partial === null) return resolved(out);
  if (typeof partial !== "object" || Array.isArray(partial)) {
    throw new ConfigError("(config)", `config must be an object of settings, got ${describe(partial)}`);
  }
  for (const raw of Object.keys(partial)) {
    const value = (partial as Record<string, unknown>)[raw];
    if (value === undefined) continue;
    const key = camel(raw) as keyof Config;
    if (!Object.prototype.hasOwnProperty.call(CONFIG_KINDS, key)) {
      throw new ConfigError(raw, `unknown config key "${raw}"; known keys: ${CONFIG_KEYS.join(", ")}`);
    }
    const kind = CONFIG_KINDS[key];
    if (kind === "bool") {
      if (typeof value !== "boolean") throw new ConfigError(raw, `config key "${raw}" must be true or false, got ${describe(value)}`);
    } else if (kind === "int") {
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
        throw new ConfigError(raw, `config key "${raw}" must be a whole number ≥ 0, got ${describe(value)}`);
      }
    } else if (typeof value !== "number" || !(value > 0 && value <= 1)) {
      throw new ConfigError(raw, `config key "${raw}" must be a number in (0, 1], got ${describe(value)}`);
    }
    (out as unknown as Record<string, unknown>)[key] = value;
  }
  return resolved(out);
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

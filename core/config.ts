/**
 * Configuration: one record, camelCase, with the reference proxy's defaults. `resolveConfig`
 * only validates and merges; reading files or the environment is each host's job.
 */

/** Named groups of defaults: "reference" is the reference's behaviour byte for byte. */
export type Profile = "reference" | "recall";

export interface Config {
  /** Which group of defaults the other keys start from; an explicit key always wins over it. */
  profile: Profile;
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
  /** Focus excerpts: lines of context kept either side of a matching line. */
  focusContextLines: number;
  /** File lists a summary carries forward (AgentParley envelope, engine when appendFileLists): at most this many paths, newest kept. */
  filesMaxPaths: number;
  /** …and at most this many characters of paths. */
  filesMaxChars: number;
  /** Engine: append the files read and modified to the summary (off: the reference's byte-exact summary). */
  appendFileLists: boolean;
  /**
   * Hosts that share a filesystem with the agent (Pi/OMP, `run`, the CLI): keep every dropped tool
   * result and cut call in an archive folder, and point at it from the summary.
   */
  archive: boolean;
  /** The archive folder ("" = the host's default). */
  archiveDir: string;
  /** Bound on the archive folder's bytes; the least recently archived files go first. */
  archiveMaxBytes: number;
  /**
   * After a cliff, the next one waits until the context has grown this many tokens beyond what
   * the cliff left (0: every crossing cliffs, the reference's rule). Hosts that serve sessions
   * default it to a tenth of the threshold.
   */
  minGainTokens: number;
  /** Proxy: scale the estimate per session by the provider's reported input tokens (bounded; changes only at a cliff). */
  calibrate: boolean;
  /** Recall rule: an edit or write call shows its new text (the input's own lines) up to this many characters; 0 = off. */
  editMaxChars: number;
  /** Recall rule: a failed result too long to keep shows its last lines (and a stated exit code) up to this many characters; 0 = off. */
  errorTailMaxChars: number;
  /** Recall rule: the newest plan (todo list, plan update) in the span kept whole up to this many characters, older ones dropped; 0 = off. */
  planMaxChars: number;
  /** Recall rule: the distinctive terms of the kept tail act as a focus on results the length rule drops. */
  tailFocus: boolean;
  /** Pins: results of tools whose name matches one of these globs are kept whole, up to pinMaxChars. */
  keepResultsOf: readonly string[];
  /** Pins: results of reads of files whose path matches one of these globs are kept whole, up to pinMaxChars. */
  keepFiles: readonly string[];
  /** Cap on a pinned result (longer ones keep their start); 0 = pins off. */
  pinMaxChars: number;
}

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  profile: "reference" as Profile,
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
  focusContextLines: 1,
  filesMaxPaths: 200,
  filesMaxChars: 16000,
  appendFileLists: false,
  archive: false,
  archiveDir: "",
  archiveMaxBytes: 268435456,
  minGainTokens: 0,
  calibrate: false,
  // The recall rules: off (the reference's output), on in the recall profile.
  editMaxChars: 0, errorTailMaxChars: 0, planMaxChars: 0, tailFocus: false,
  keepResultsOf: Object.freeze([]) as readonly string[], keepFiles: Object.freeze([]) as readonly string[], pinMaxChars: 4000,
});

/**
 * What each profile supplies over DEFAULT_CONFIG. The one place a profile is defined: rules read
 * their own keys, never the profile's name.
 */
export const PROFILES: { readonly [P in Profile]: Readonly<Partial<Config>> } = {
  reference: {},
  // The rules' values are measured by the retention bench (README, "What a cliff keeps"): each is
  // where its gain in needed tokens held stopped paying for the tokens it keeps (errorTailMaxChars
  // gained nothing there and stays off). The pins cost nothing where no such file is read. The
  // archive keeps what is dropped outside the context, where a host can write files.
  recall: {
    editMaxChars: 1000, planMaxChars: 3000, tailFocus: true, keepThinking: false, resultMaxChars: 200,
    focusContextLines: 2, focusResultMaxChars: 1200, focusTotalMaxChars: 4000, keepFiles: Object.freeze(["AGENTS.md", "CLAUDE.md"]), archive: true,
  },
};

/**
 * How a setting is written: a whole number ≥ 0, a boolean, a fraction in (0, 1], one of a few
 * names (CONFIG_ENUMS), a list of strings (comma-separated in text), or any string.
 */
export type ConfigKind = "int" | "bool" | "ratio" | "enum" | "list" | "string";

/** A setting's value, of any kind. */
export type SettingValue = number | boolean | string | readonly string[];

/** The names an enum setting accepts. */
export const CONFIG_ENUMS: { readonly [key: string]: readonly string[] } = {
  profile: Object.keys(PROFILES),
};

export const CONFIG_KINDS: { readonly [K in keyof Config]: ConfigKind } = {
  profile: "enum",
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
  focusContextLines: "int",
  filesMaxPaths: "int",
  filesMaxChars: "int",
  appendFileLists: "bool",
  archive: "bool",
  archiveDir: "string",
  archiveMaxBytes: "int",
  minGainTokens: "int",
  calibrate: "bool",
  editMaxChars: "int", errorTailMaxChars: "int", planMaxChars: "int", tailFocus: "bool",
  keepResultsOf: "list", keepFiles: "list", pinMaxChars: "int",
};

/** The config keys, in their camelCase spelling. */
export const CONFIG_KEYS = Object.keys(CONFIG_KINDS) as (keyof Config)[];

const WHAT: Record<ConfigKind, string> = {
  int: "a whole number ≥ 0",
  bool: "true or false",
  ratio: "a number in (0, 1]",
  enum: "one of the names listed",
  list: "a list of strings",
  string: "a string",
};

function what(key: string): string {
  const kind = (CONFIG_KINDS as Record<string, ConfigKind>)[key];
  return kind === "enum" ? `one of ${CONFIG_ENUMS[key].join(", ")}` : WHAT[kind];
}
const TRUE = /^(true|1|yes|on)$/i;
const FALSE = /^(false|0|no|off)$/i;

/**
 * A setting's value from text (an environment variable, a command-line flag), by its kind.
 * Throws a ConfigError whose message says what the kind accepts ("must be …"); the caller names
 * where the text came from.
 */
export function parseSetting(key: keyof Config, text: string): SettingValue {
  const kind = CONFIG_KINDS[key];
  const t = text.trim();
  const bad = (): never => {
    throw new ConfigError(key, `must be ${what(key)}`);
  };
  if (kind === "bool") return TRUE.test(t) ? true : FALSE.test(t) ? false : bad();
  if (kind === "string") return text;
  if (kind === "list") return t.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (kind === "enum") return CONFIG_ENUMS[key].indexOf(t) >= 0 ? (t as Profile) : bad();
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
 * Several sources (file, environment, flags) are merged by `resolveLayers` (config-layers.ts).
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

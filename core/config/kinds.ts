/** How each setting is written, and a setting's value read from text by its kind. */
import { PROFILES, REFERENCE_CONFIG } from "./defaults.js";
import type { Config, Profile } from "./keys.js";

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

/**
 * Each key's kind, read off the reference's defaults (in their order, which the error messages list):
 * a setting's default already says whether it is a number, a boolean, a list or a string; only
 * the profile (a name) and maxSummaryRatio (a fraction) are told apart by name. One list of keys
 * kept in one place, and the sandbox's bundle carries it once.
 */
export const CONFIG_KINDS = kindsOf(REFERENCE_CONFIG);

function kindsOf(defaults: Readonly<Config>): { readonly [K in keyof Config]: ConfigKind } {
  const kinds: Record<string, ConfigKind> = {};
  for (const [key, v] of Object.entries(defaults)) {
    kinds[key] = key === "profile" ? "enum" : key === "maxSummaryRatio" ? "ratio" : typeof v === "boolean" ? "bool" : typeof v === "number" ? "int" : typeof v === "string" ? "string" : "list";
  }
  return kinds as { readonly [K in keyof Config]: ConfigKind };
}

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

/** What a key accepts, in words (for error messages). */
export function what(key: string): string {
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

/** The config a command runs with: defaults, then a --config file, then the flags. And loading the session. */
import { CONFIG_KEYS, CONFIG_KINDS, ConfigError, parseSetting, resolveConfig, type Config } from "../core/index.js";
import { kebab, UsageError, type Parsed } from "./args.js";
import { MAX_CONFIG_BYTES, MAX_SESSION_BYTES, readLimited } from "./input.js";
import { InputError, readSession, type Session } from "./readers/index.js";

function flagSetting(key: keyof Config, flag: string, v: string): number | boolean {
  try {
    return parseSetting(key, v);
  } catch (e) {
    throw new UsageError(`--${flag} ${(e as Error).message}, got ${JSON.stringify(v)}`);
  }
}

/** Keys a --config file may hold for the proxy only (not core settings). */
export const PROXY_KEYS = ["anthropicUpstream", "openaiUpstream"] as const;

/** The --config file's JSON, or an InputError naming it. */
export function configFile(path: string): Record<string, unknown> {
  let partial: unknown;
  try {
    partial = JSON.parse(readLimited(path, MAX_CONFIG_BYTES, "config"));
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${path}: cannot read config (${(e as Error).message.split("\n")[0]})`);
  }
  if (partial === null || typeof partial !== "object" || Array.isArray(partial)) throw new InputError(`${path}: must hold a JSON object of settings`);
  return partial as Record<string, unknown>;
}

function fileSettings(path: string): Config {
  const partial = { ...configFile(path) };
  for (const k of PROXY_KEYS) delete partial[k];
  try {
    return resolveConfig(partial);
  } catch (e) {
    throw new InputError(`${path}: ${(e as Error).message}`);
  }
}

/** Defaults, the --config file over them, the flags over that. */
export function configFrom(values: Parsed["values"]): Config {
  const base = typeof values.config === "string" ? fileSettings(values.config) : resolveConfig();
  const flags: Record<string, unknown> = {};
  for (const k of CONFIG_KEYS) {
    const flag = k === "thresholdTokens" ? "threshold" : kebab(k);
    if (CONFIG_KINDS[k] !== "bool" && typeof values[flag] === "string") flags[k] = flagSetting(k, flag, values[flag] as string);
  }
  if (values["drop-thinking"] === true) flags.keepThinking = false;
  if (values.strict === true) flags.strict = true;
  if (values["append-file-lists"] === true) flags.appendFileLists = true;
  try {
    return resolveConfig(flags, base);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
}

/** The session in FILE ("-" for standard input), read with the size limit. */
export function loadSession(file: string, format: string | undefined): Session {
  return readSession(readLimited(file, MAX_SESSION_BYTES, "session"), file === "-" ? "standard input" : file, format);
}

/**
 * The config a command runs with, in the one order every host uses: flags over CLIFF_* variables
 * over the config file (--config FILE or CLIFF_CONFIG) over the profile over the defaults. The
 * same layers carry a host's own settings (the proxy's upstreams), read with `hostSetting`.
 */
import { CONFIG_KEYS, CONFIG_KINDS, ConfigError, envName, envValues, parseSetting, resolveLayers, type Config, type ConfigLayer, type SettingValue } from "../core/index.js";
import { configFlagName, kebab, UsageError, type Parsed } from "./args.js";
import { MAX_CONFIG_BYTES, MAX_SESSION_BYTES, readLimited } from "./input.js";
import { InputError, readSession, type Session } from "./readers/index.js";

type Env = Readonly<Record<string, string | undefined>>;

function flagSetting(key: keyof Config, flag: string, v: string): SettingValue {
  try {
    return parseSetting(key, v);
  } catch (e) {
    throw new UsageError(`--${flag} ${(e as Error).message}, got ${JSON.stringify(v)}`);
  }
}

/** Keys a config file, a CLIFF_* variable or a flag may hold for the proxy only (not core settings). */
export const PROXY_KEYS = ["anthropicUpstream", "openaiUpstream", "chatgptUpstream", "geminiUpstream", "vertexUpstream", "codeassistUpstream", "allowedHosts", "prices", "thresholdShare", "contextWindow", "debugDir", "preservedThinking", "fallback", "remoteCompaction", "answerCompaction", "passThreads", "modelThresholds", "idleCliff", "idleCliffFloor"] as const;
/** Proxy keys that are switches: on by default, `--no-NAME` turns them off. */
export const PROXY_SWITCHES = ["preservedThinking", "fallback", "remoteCompaction"] as const;

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

/** The config file named by --config, else by CLIFF_CONFIG, or undefined. */
export function configPath(values: Parsed["values"], env: Env = process.env): string | undefined {
  if (typeof values.config === "string") return values.config;
  return env.CLIFF_CONFIG !== undefined && env.CLIFF_CONFIG !== "" ? env.CLIFF_CONFIG : undefined;
}

function flagLayer(values: Parsed["values"]): ConfigLayer {
  const flags: Record<string, unknown> = {};
  for (const k of CONFIG_KEYS) {
    const flag = configFlagName(k);
    if (k === "archive" && typeof values.archive === "string") {
      if (values.archive.trim() === "") throw new UsageError("--archive needs a folder (DIR)");
      flags.archive = true;
      flags.archiveDir = values.archive;
    } else if (CONFIG_KINDS[k] !== "bool") {
      if (typeof values[flag] === "string") flags[k] = flagSetting(k, flag, values[flag] as string);
    } else if (values[flag] === true) flags[k] = true;
    else if (values["no-" + flag] === true) flags[k] = false;
  }
  if (values["drop-thinking"] === true) flags.keepThinking = false;
  for (const k of PROXY_SWITCHES) if (values["no-" + kebab(k)] === true) flags[k] = false;
  if (values["answer-compaction"] === true) flags.answerCompaction = true;
  if (values["no-answer-compaction"] === true) flags.answerCompaction = false;
  if (values["pass-threads"] === true) flags.passThreads = true;
  if (values["no-pass-threads"] === true) flags.passThreads = false;
  for (const k of PROXY_KEYS) if (typeof values[kebab(k)] === "string") flags[k] = values[kebab(k)];
  return { source: "flags", values: flags };
}

function envLayer(env: Env): ConfigLayer {
  const { values, problems } = envValues(env);
  if (problems.length > 0) throw new UsageError(problems[0]);
  for (const k of PROXY_KEYS) {
    const v = env[envName(k)];
    if (v !== undefined && v !== "") values[k] = v;
  }
  return { source: "environment", values };
}

/** The layers a command's settings come from, lowest priority first: the config file, CLIFF_*, the flags. */
export function settingLayers(values: Parsed["values"], env: Env = process.env): ConfigLayer[] {
  const path = configPath(values, env);
  const layers: ConfigLayer[] = [];
  if (path !== undefined) layers.push({ source: path, values: configFile(path) });
  layers.push(envLayer(env), flagLayer(values));
  return layers;
}

/**
 * The config from the layers, over a host's own defaults. A bad value in the file is an
 * InputError naming the file; in a variable or a flag, a UsageError naming it.
 */
export function configOf(layers: readonly ConfigLayer[], hostDefaults: Partial<Config> = {}, hostKeys: readonly string[] = PROXY_KEYS): Config {
  try {
    return resolveLayers(layers, hostDefaults, hostKeys);
  } catch (e) {
    if (e instanceof ConfigError) throw /^(environment|flags): /.test(e.message) ? new UsageError(e.message) : new InputError(e.message);
    throw e;
  }
}

/** Defaults, the profile, the config file, CLIFF_*, then the flags. */
export function configFrom(values: Parsed["values"], env: Env = process.env, hostDefaults: Partial<Config> = {}): Config {
  return configOf(settingLayers(values, env), hostDefaults);
}

/** A host setting (camelCase key) from the highest layer that sets it, with the layer's source. */
export function hostSetting(layers: readonly ConfigLayer[], key: string): { value: unknown; source: string } | undefined {
  for (let i = layers.length - 1; i >= 0; i--) {
    const v = layers[i].values[key];
    if (v !== undefined) return { value: v, source: layers[i].source === "environment" ? envName(key) : layers[i].source === "flags" ? "--" + kebab(key) : layers[i].source };
  }
  return undefined;
}

/** The session in FILE ("-" for standard input), read with the size limit. */
export function loadSession(file: string, format: string | undefined): Session {
  return readSession(readLimited(file, MAX_SESSION_BYTES, "session"), file === "-" ? "standard input" : file, format);
}

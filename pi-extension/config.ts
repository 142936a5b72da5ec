/**
 * Where the Pi/OMP extension reads its settings: a JSON file (Pi or OMP location, or an explicit
 * path), then CLIFF_* environment variables on top. A broken file never breaks Pi: the problems
 * are reported and the valid settings (or the defaults) are used.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { envValues, resolveConfig, resolveLayers, type Config, type ConfigLayer } from "../core/index.js";

export { envName } from "../core/index.js";

export const CONFIG_FILE_NAME = "cliffcompaction.json";

export interface LoadedConfig {
  config: Config;
  /** The file that was read, or would be read when it exists. */
  path: string;
  fileFound: boolean;
  /** One line per problem (bad JSON, a bad key, a bad env value); empty when all is well. */
  problems: string[];
}

type Env = Record<string, string | undefined>;

/** Which host loaded the extension: OMP runs under Bun, from its @oh-my-pi package or an `omp` command. */
export type Host = "pi" | "omp";

export function detectHost(argv: readonly string[] = process.argv, versions: NodeJS.ProcessVersions = process.versions): Host {
  const script = argv[1] ?? "";
  return "bun" in versions || /@oh-my-pi|[\\/]omp(\.[cm]?js)?$/.test(script) ? "omp" : "pi";
}

/**
 * The config file path by precedence: an explicit file (PI_CLIFF_CONFIG / OMP_CLIFF_CONFIG), the
 * agent folder (PI_CODING_AGENT_DIR), then the host's own config folder. Pi takes PI_CONFIG_DIR (or
 * OMP_CONFIG_DIR) as a folder path; OMP takes PI_CONFIG_DIR as the *name* of its config folder under
 * the home folder (default .omp), whose agent/ folder holds the file.
 */
export function configPath(env: Env = process.env, home: string = homedir(), host: Host = detectHost()): string {
  const explicit = env.PI_CLIFF_CONFIG || env.OMP_CLIFF_CONFIG;
  if (explicit) return explicit;
  if (env.PI_CODING_AGENT_DIR) return join(env.PI_CODING_AGENT_DIR, CONFIG_FILE_NAME);
  if (host === "omp") return join(home, env.PI_CONFIG_DIR || ".omp", "agent", CONFIG_FILE_NAME);
  const dir = env.PI_CONFIG_DIR || env.OMP_CONFIG_DIR;
  if (dir) return join(dir, CONFIG_FILE_NAME);
  const pi = join(home, ".pi", "agent", CONFIG_FILE_NAME);
  const omp = join(home, ".omp", "agent", CONFIG_FILE_NAME);
  return !existsSync(pi) && existsSync(omp) ? omp : pi;
}

/** A layer of the values that are valid on their own; each bad one is a problem and is ignored. */
function validLayer(source: string, values: Record<string, unknown>, problems: string[]): ConfigLayer {
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(values)) {
    try {
      resolveConfig({ [key]: values[key] });
      kept[key] = values[key];
    } catch (e) {
      problems.push(`${source}: ${(e as Error).message}; ignored`);
    }
  }
  return { source, values: kept };
}

/** The file's settings, then CLIFF_* variables over them, in the order every host uses (core/config/layers.ts). */
export function loadConfig(env: Env = process.env, home: string = homedir(), host: Host = detectHost()): LoadedConfig {
  const path = configPath(env, home, host);
  const problems: string[] = [];
  const layers: ConfigLayer[] = [];
  const fileFound = existsSync(path);
  if (fileFound) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      problems.push(`${path}: not valid JSON (${(e as Error).message.split("\n")[0]}); using the defaults`);
    }
    if (parsed !== undefined) {
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) problems.push(`${path}: must hold a JSON object of settings; using the defaults`);
      else layers.push(validLayer(path, parsed as Record<string, unknown>, problems));
    }
  }
  const fromEnv = envValues(env);
  for (const p of fromEnv.problems) problems.push(`${p}; the setting is left as it was`);
  layers.push(validLayer("environment", fromEnv.values, problems));
  return { config: resolveLayers(layers), path, fileFound, problems };
}

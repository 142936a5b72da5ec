/**
 * What Codex's home folder (`$CODEX_HOME`, else `~/.codex`) says: how the user signed in
 * (`auth.json`), and the few `config.toml` settings that decide where requests go. Only those lines
 * are read; anything else in the file is Codex's business.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { tomlString, type CodexRoute } from "./codex.js";

export type CodexSignIn = "chatgpt" | "api-key" | "none";

export const codexHome = (env: NodeJS.ProcessEnv): string => env.CODEX_HOME || join(env.HOME || homedir(), ".codex");

function readText(file: string): string | null {
  try {
    return existsSync(file) ? readFileSync(file, "utf8") : null;
  } catch {
    return null;
  }
}

/** ChatGPT when auth.json holds ChatGPT tokens (and no API key overrides them for `codex exec`). */
export function codexSignIn(env: NodeJS.ProcessEnv): CodexSignIn {
  if (env.CODEX_API_KEY) return "api-key";
  const text = readText(join(codexHome(env), "auth.json"));
  if (text === null) return env.OPENAI_API_KEY ? "api-key" : "none";
  try {
    const auth = JSON.parse(text) as { OPENAI_API_KEY?: unknown; tokens?: unknown; auth_mode?: unknown };
    if (auth.auth_mode === "chatgpt" || auth.auth_mode === "chatgptAuthTokens") return "chatgpt";
    if (auth.auth_mode === undefined && typeof auth.OPENAI_API_KEY !== "string" && auth.tokens != null) return "chatgpt";
    return typeof auth.OPENAI_API_KEY === "string" || env.OPENAI_API_KEY ? "api-key" : "none";
  } catch {
    return "none";
  }
}

const TOP_KEY = /^\s*(openai_base_url|chatgpt_base_url|model_provider)\s*=\s*(.+?)\s*(#.*)?$/;
const TABLE = /^\s*\[\s*model_providers\.("[^"]+"|[\w-]+)\s*\]\s*(#.*)?$/;
const BLOCK_START = /^# >>> cliffcompaction\b/;
const BLOCK_END = /^# <<< cliffcompaction\b/;
const BASE_URL = /^\s*base_url\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/;

/** The routing settings of `config.toml` (top-level keys before any table, and each provider table's base_url). */
export function codexConfigRoute(text: string): CodexRoute {
  const route: CodexRoute = { providerBaseUrls: {} };
  let table: string | null = null;
  let provider: string | null = null;
  let ours = false;
  for (const line of text.split(/\r?\n/)) {
    // What `enable --codex` wrote points at the standing proxy: not an upstream.
    if (BLOCK_START.test(line)) ours = true;
    if (ours) {
      if (BLOCK_END.test(line)) ours = false;
      continue;
    }
    const header = /^\s*\[/.test(line);
    if (header) {
      table = line.trim();
      const m = TABLE.exec(line);
      provider = m === null ? null : tomlString(m[1]);
      continue;
    }
    if (table === null) {
      const m = TOP_KEY.exec(line);
      if (m?.[1] === "openai_base_url") route.openaiBaseUrl = tomlString(m[2]);
      else if (m?.[1] === "chatgpt_base_url") route.chatgptBaseUrl = tomlString(m[2]);
      else if (m?.[1] === "model_provider") route.provider = tomlString(m[2]);
    } else if (provider !== null) {
      const m = BASE_URL.exec(line);
      if (m !== null) route.providerBaseUrls[provider] = tomlString(m[1]);
    }
  }
  return route;
}

export function readCodexConfig(env: NodeJS.ProcessEnv): CodexRoute {
  const text = readText(join(codexHome(env), "config.toml"));
  return text === null ? { providerBaseUrls: {} } : codexConfigRoute(text);
}

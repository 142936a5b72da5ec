/**
 * Pointing OpenCode at the proxy. OpenCode reads no base URL variable; it merges a config given
 * inline in `OPENCODE_CONFIG_CONTENT` over its config files, so `run` hands it one there: the
 * user's own inline config with the Anthropic and OpenAI providers' `options.baseURL` at the
 * proxy. No file of the user's is written. A base URL the user set (inline, in the global config
 * or in the project's) becomes the upstream. Signed in with ChatGPT (`opencode auth login`),
 * OpenCode sends its OpenAI requests to ChatGPT's Codex backend, unless the path it is given is
 * already that backend's: the proxy's `/backend-api/codex` path keeps them on the proxy, which
 * forwards them to ChatGPT with the user's own token.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";

/** An upstream a client's own settings name, and where it came from (for an error message). */
export interface ClientUpstream {
  name: "anthropic" | "openai" | "chatgpt";
  url: string;
  source: string;
}

/** How `run` starts a client: the upstreams its settings name, its variables at the proxy, a line for the user. */
export interface ClientPlan {
  upstreams: ClientUpstream[];
  env(proxyUrl: string): Record<string, string>;
  note?: string;
}

const OPENCODE_BINARY = /^opencode(\.exe|\.cmd|\.ps1)?$/i;
const PACKAGE_RUNNER = /^(npx|pnpx|bunx)(\.cmd|\.exe)?$/i;
const OPENCODE_PACKAGE = /^opencode-ai(@.+)?$/;

/** OpenCode run directly, by a path, or through a package runner (`npx opencode-ai`). */
export function isOpenCode(command: string, args: readonly string[]): boolean {
  const name = basename(command.replace(/\\/g, "/"));
  return OPENCODE_BINARY.test(name) || (PACKAGE_RUNNER.test(name) && args.some((a) => OPENCODE_PACKAGE.test(a)));
}

/**
 * JSON with comments and trailing commas (OpenCode's config files are JSONC) as JSON text; strings
 * are copied as they are, so a `//` inside a URL stays.
 */
export function jsoncText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function readConfig(file: string): Json | null {
  try {
    if (!existsSync(file)) return null;
    const v: unknown = JSON.parse(jsoncText(readFileSync(file, "utf8")));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The config files OpenCode reads before the inline one: global, then the project's (from the working folder up), each with its name. */
function configFiles(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const home = env.HOME || homedir();
  const global = join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode");
  const files = ["config.json", "opencode.json", "opencode.jsonc"].map((n) => join(global, n));
  if (env.OPENCODE_CONFIG) files.push(env.OPENCODE_CONFIG);
  const project: string[] = [];
  for (let dir = cwd; ; dir = dirname(dir)) {
    project.unshift(join(dir, "opencode.jsonc"), join(dir, "opencode.json"));
    if (dirname(dir) === dir || dir === home) break;
  }
  return [...files, ...project];
}

const baseUrlOf = (config: Json | null, provider: string): string | undefined => {
  const v = isObject(config?.provider) && isObject((config!.provider as Json)[provider]) ? ((config!.provider as Json)[provider] as Json).options : undefined;
  return isObject(v) && typeof v.baseURL === "string" ? v.baseURL : undefined;
};

/** A base URL's path without its trailing slash; undefined when there is none or it does not parse (the upstream check names it). */
export function pathOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).pathname.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

/** True when OpenCode's stored sign-in for OpenAI is ChatGPT's (OAuth), not an API key. */
export function openCodeChatgpt(env: NodeJS.ProcessEnv): boolean {
  const file = join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "opencode", "auth.json");
  let auth: unknown;
  try {
    auth = env.OPENCODE_AUTH_CONTENT ? JSON.parse(env.OPENCODE_AUTH_CONTENT) : existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
  } catch {
    return false;
  }
  return isObject(auth) && isObject(auth.openai) && auth.openai.type === "oauth";
}

/** What OpenCode is told, or a one-line error when the user's inline config is not JSON. */
export function planOpenCode(env: NodeJS.ProcessEnv, cwd = process.cwd()): ClientPlan | string {
  let inline: Json = {};
  if (env.OPENCODE_CONFIG_CONTENT) {
    try {
      const v: unknown = JSON.parse(jsoncText(env.OPENCODE_CONFIG_CONTENT));
      if (!isObject(v)) throw new Error("not an object");
      inline = v;
    } catch {
      return "OPENCODE_CONFIG_CONTENT is not a JSON object; run passes it on with the proxy's provider settings added";
    }
  }
  const chatgpt = openCodeChatgpt(env);
  const upstreams: ClientUpstream[] = [];
  // The last source that sets a base URL is the one OpenCode would have used.
  for (const provider of ["anthropic", "openai"] as const) {
    let found: ClientUpstream | undefined;
    for (const file of configFiles(env, cwd)) {
      const url = baseUrlOf(readConfig(file), provider);
      if (url !== undefined) found = { name: provider, url, source: `${file} provider.${provider}.options.baseURL` };
    }
    const own = baseUrlOf(inline, provider);
    if (own !== undefined) found = { name: provider, url: own, source: `OPENCODE_CONFIG_CONTENT provider.${provider}.options.baseURL` };
    if (found !== undefined && !(provider === "openai" && chatgpt)) upstreams.push(found);
  }
  const env_ = (proxyUrl: string): Record<string, string> => {
    const provider = isObject(inline.provider) ? { ...(inline.provider as Json) } : {};
    const at = (name: string, baseURL: string): Json => {
      const own = isObject(provider[name]) ? (provider[name] as Json) : {};
      return { ...own, options: { ...(isObject(own.options) ? own.options : {}), baseURL } };
    };
    // The user's base path is kept, so the upstream gets the paths it would have got.
    const path = (name: string): string => pathOf(upstreams.find((u) => u.name === name)?.url) ?? "/v1";
    provider.anthropic = at("anthropic", proxyUrl + path("anthropic"));
    provider.openai = at("openai", chatgpt ? `${proxyUrl}/backend-api/codex` : proxyUrl + path("openai"));
    return { OPENCODE_CONFIG_CONTENT: JSON.stringify({ ...inline, provider }) };
  };
  const note = chatgpt ? "OpenCode is signed in with ChatGPT: its OpenAI requests go through the proxy to ChatGPT's Codex backend, with its own token" : undefined;
  return { upstreams, env: env_, ...(note !== undefined ? { note } : {}) };
}

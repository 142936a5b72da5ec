/**
 * Pointing Codex at the proxy. Codex ignores `OPENAI_BASE_URL`; it takes its settings as `-c key=value`
 * (TOML values) or from `config.toml`. A user's own settings are passed on whole, except the ones
 * that would send requests around the proxy: those name the upstream instead. Ours come after the
 * user's, so they win.
 */
import { basename } from "node:path";

/** The provider entry the proxy adds for a ChatGPT sign-in (and `enable --codex` writes). */
export const CODEX_PROVIDER_ID = "cliffcompaction";

/** How Codex is started: the words before its own arguments (`npx codex`, `npx -y @openai/codex@1`), then its arguments. */
export interface CodexCommand {
  lead: string[];
  args: string[];
}

const CODEX_BINARY = /^codex(\.exe|\.cmd|\.ps1)?$/i;
const PACKAGE_RUNNER = /^(npx|pnpx|bunx)(\.cmd|\.exe)?$/i;
const CODEX_PACKAGE = /^(codex|@openai\/codex(@.+)?)$/;

/** Codex run directly, by a full path, as `codex.cmd`, or through a package runner; null for anything else. */
export function codexCommand(command: string, args: readonly string[]): CodexCommand | null {
  const name = basename(command.replace(/\\/g, "/"));
  if (CODEX_BINARY.test(name)) return { lead: [], args: [...args] };
  if (!PACKAGE_RUNNER.test(name)) return null;
  // The runner's own options come first; what follows the package word is Codex's (`npx -c` would run them).
  const at = args.findIndex((a) => CODEX_PACKAGE.test(a));
  if (at < 0) return null;
  return { lead: args.slice(0, at + 1), args: args.slice(at + 1) };
}

/** The settings of the user's own `-c` arguments that decide where Codex sends its requests. */
export interface CodexRoute {
  openaiBaseUrl?: string;
  chatgptBaseUrl?: string;
  provider?: string;
  providerBaseUrls: Record<string, string>;
}

export interface UserConfigArgs extends CodexRoute {
  /** The user's arguments without the settings that would bypass the proxy. */
  kept: string[];
  /** Where in `kept` our own settings go: after the user's last `-c` (so ours win), else first. */
  insertAt: number;
}

/** A TOML string value (or a bare word, which Codex also takes as a string), unquoted. */
export function tomlString(raw: string): string {
  const v = raw.trim();
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(v) ?? /^'([^']*)'$/.exec(v);
  return m === null ? v : m[1].replace(/\\(["\\])/g, "$1");
}

const PROVIDER_BASE = /^model_providers\.("[^"]+"|[\w-]+)\.base_url$/;
const PROVIDER_TABLE = /^model_providers\.("[^"]+"|[\w-]+)$/;
const INLINE_BASE = /(?:^|[{,\s])base_url\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')/;

/** Reads one `key=value` setting into the route; true when it bypasses the proxy and is left out. */
function readSetting(setting: string, route: CodexRoute): boolean {
  const eq = setting.indexOf("=");
  if (eq < 0) return false;
  const key = setting.slice(0, eq).trim();
  const value = setting.slice(eq + 1);
  if (key === "openai_base_url") route.openaiBaseUrl = tomlString(value);
  else if (key === "chatgpt_base_url") route.chatgptBaseUrl = tomlString(value);
  else if (key === "model_provider") route.provider = tomlString(value);
  else {
    const base = PROVIDER_BASE.exec(key);
    if (base !== null) route.providerBaseUrls[tomlString(base[1])] = tomlString(value);
    const table = PROVIDER_TABLE.exec(key);
    const inline = table === null ? null : INLINE_BASE.exec(value);
    // A provider table carries more than its URL (its key variable, headers): it stays, and our base_url overrides its own.
    if (table !== null && inline !== null) route.providerBaseUrls[tomlString(table[1])] = tomlString(inline[1]);
    return base !== null;
  }
  return true;
}

/** The user's `-c key=value` / `--config key=value` / `--config=key=value` arguments, up to a `--`. */
export function userConfigArgs(args: readonly string[]): UserConfigArgs {
  const out: UserConfigArgs = { kept: [], insertAt: 0, providerBaseUrls: {} };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.kept.push(...args.slice(i));
      break;
    }
    let words: string[] | null = null;
    let setting: string | undefined;
    if ((a === "-c" || a === "--config") && i + 1 < args.length) {
      words = [a, args[i + 1]];
      setting = args[++i];
    } else if (a.startsWith("--config=")) {
      words = [a];
      setting = a.slice("--config=".length);
    } else if (/^-c./.test(a)) {
      words = [a];
      setting = a.slice(2).replace(/^=/, "");
    }
    if (words === null || setting === undefined) {
      out.kept.push(a);
      continue;
    }
    if (!readSetting(setting, out)) out.kept.push(...words);
    out.insertAt = out.kept.length;
  }
  return out;
}

/** A TOML basic string. */
export const tomlQuote = (s: string): string => JSON.stringify(s);

/** Codex settings (key, TOML value) that send a ChatGPT sign-in's requests through the proxy at `proxyUrl`. */
export function chatgptSettings(proxyUrl: string): [string, string][] {
  const provider = `{ name = ${tomlQuote(CODEX_PROVIDER_ID)}, base_url = ${tomlQuote(`${proxyUrl}/backend-api/codex`)}, wire_api = "responses", requires_openai_auth = true }`;
  return [
    ["model_provider", tomlQuote(CODEX_PROVIDER_ID)],
    [`model_providers.${CODEX_PROVIDER_ID}`, provider],
    // Account checks, plugins and analytics go to the ChatGPT backend too: through the proxy, untouched.
    ["chatgpt_base_url", tomlQuote(`${proxyUrl}/backend-api`)],
  ];
}

/** Codex settings for an API-key sign-in: the built-in OpenAI provider, at the proxy. */
export function apiKeySettings(proxyUrl: string): [string, string][] {
  return [["openai_base_url", tomlQuote(`${proxyUrl}/v1`)]];
}

/** An upstream a user's Codex setting names: its origin (the path stays in what Codex is told, so the proxy sees it). */
export interface NamedUpstream {
  name: "openai" | "chatgpt";
  url: string;
  /** Where it came from, for an error message. */
  source: string;
}

export interface CodexPlan {
  /** The user's arguments without the bypassing settings, and where ours go. */
  kept: string[];
  insertAt: number;
  upstream?: NamedUpstream;
  /** Our settings (key, TOML value) once the proxy's URL is known. */
  settings(proxyUrl: string): [string, string][];
  /** Something the user should know, in one line. */
  note?: string;
}

/** The path of a base URL (none for one that does not parse: the upstream check names it). */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, "");
  } catch {
    return "";
  }
}

/** A base URL's origin; anything that is not an http(s) URL is left as written, for the upstream check to name. */
const originOf = (url: string): string => {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : url;
  } catch {
    return url;
  }
};

/**
 * Where Codex's requests go and what to tell it: the user's own provider (its base URL becomes the
 * upstream), a base URL of theirs, a ChatGPT sign-in (our provider entry), or an API key (the
 * built-in OpenAI provider at the proxy).
 */
export function planCodex(args: readonly string[], signIn: "chatgpt" | "api-key" | "none", file: CodexRoute, fileName: string): CodexPlan {
  const user = userConfigArgs(args);
  const from = (key: string, inArgs: boolean): string => (inArgs ? `Codex's -c ${key}` : `${fileName} ${key}`);
  const provider = user.provider ?? file.provider;
  const base = { kept: user.kept, insertAt: user.insertAt };
  const keepChatgpt: [string, string][] = user.chatgptBaseUrl !== undefined ? [["chatgpt_base_url", tomlQuote(user.chatgptBaseUrl)]] : [];
  if (provider !== undefined && provider !== "openai" && provider !== CODEX_PROVIDER_ID) {
    const url = user.providerBaseUrls[provider] ?? file.providerBaseUrls[provider];
    const select: [string, string] = ["model_provider", tomlQuote(provider)];
    if (url === undefined) {
      return { ...base, settings: () => [select], note: `Codex's provider "${provider}" has no base_url here (it may be built in); its requests do not go through the proxy` };
    }
    const path = pathOf(url);
    const name = path === "/backend-api" || path.startsWith("/backend-api/") ? "chatgpt" : "openai";
    const key = `model_providers.${/^[\w-]+$/.test(provider) ? provider : tomlQuote(provider)}.base_url`;
    const source = from(`model_providers.${provider}.base_url`, user.providerBaseUrls[provider] !== undefined);
    return { ...base, upstream: { name, url: originOf(url), source }, settings: (p) => [select, [key, tomlQuote(p + path)], ...keepChatgpt] };
  }
  const explicit: [string, string][] = user.provider !== undefined ? [["model_provider", tomlQuote("openai")]] : [];
  const openaiBase = user.openaiBaseUrl ?? file.openaiBaseUrl;
  if (openaiBase !== undefined) {
    const path = pathOf(openaiBase);
    const upstream: NamedUpstream = { name: "openai", url: originOf(openaiBase), source: from("openai_base_url", user.openaiBaseUrl !== undefined) };
    return { ...base, upstream, settings: (p) => [...explicit, ["openai_base_url", tomlQuote(p + path)], ...keepChatgpt] };
  }
  if (signIn === "chatgpt") {
    const chatgptBase = user.chatgptBaseUrl ?? file.chatgptBaseUrl;
    const upstream: NamedUpstream | undefined = chatgptBase === undefined ? undefined : { name: "chatgpt", url: originOf(chatgptBase), source: from("chatgpt_base_url", user.chatgptBaseUrl !== undefined) };
    return { ...base, upstream, settings: chatgptSettings };
  }
  return { ...base, settings: (p) => [...explicit, ...apiKeySettings(p), ...keepChatgpt] };
}

/** The arguments Codex is started with: the user's (minus the bypassing settings), ours after their last `-c`. */
export function codexArgs(plan: CodexPlan, proxyUrl: string): string[] {
  const ours = plan.settings(proxyUrl).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
  return [...plan.kept.slice(0, plan.insertAt), ...ours, ...plan.kept.slice(plan.insertAt)];
}

/**
 * Pointing GitHub Copilot CLI at the proxy, by its variables alone. With a provider of the user's
 * own (BYOK: `COPILOT_PROVIDER_BASE_URL`, of type openai, azure or anthropic) that base URL becomes
 * the upstream and Copilot is given the proxy's, with the same path, so every request keeps its
 * path and its key. Signed in with GitHub, Copilot talks to the Copilot API (Chat Completions,
 * Responses and, for Claude models, Messages, on one host): `COPILOT_API_URL` moves it to the
 * proxy, and the Copilot API (the user's `COPILOT_API_URL`, else api.githubcopilot.com) becomes the
 * Anthropic and OpenAI upstream, so Copilot's own token goes where it went.
 */
import { basename } from "node:path";
import { pathOf, type ClientPlan, type ClientUpstream } from "./opencode.js";

export const COPILOT_API = "https://api.githubcopilot.com";

const COPILOT_BINARY = /^copilot(\.exe|\.cmd|\.ps1)?$/i;
const PACKAGE_RUNNER = /^(npx|pnpx|bunx)(\.cmd|\.exe)?$/i;
const COPILOT_PACKAGE = /^@github\/copilot(@.+)?$/;

/** Copilot CLI run directly, by a path, or through a package runner (`npx @github/copilot`). */
export function isCopilot(command: string, args: readonly string[]): boolean {
  const name = basename(command.replace(/\\/g, "/"));
  return COPILOT_BINARY.test(name) || (PACKAGE_RUNNER.test(name) && args.some((a) => COPILOT_PACKAGE.test(a)));
}

export function planCopilot(env: NodeJS.ProcessEnv): ClientPlan {
  const byok = env.COPILOT_PROVIDER_BASE_URL;
  if (byok) {
    const type = (env.COPILOT_PROVIDER_TYPE || "openai").toLowerCase();
    const upstream: ClientUpstream = { name: type === "anthropic" ? "anthropic" : "openai", url: byok, source: "COPILOT_PROVIDER_BASE_URL" };
    // The proxy speaks HTTP; a WebSocket transport would not reach it.
    const ws = (env.COPILOT_PROVIDER_TRANSPORT || "").toLowerCase() === "websockets";
    return {
      upstreams: [upstream],
      env: (proxyUrl) => ({ COPILOT_PROVIDER_BASE_URL: proxyUrl + (pathOf(byok) ?? ""), ...(ws ? { COPILOT_PROVIDER_TRANSPORT: "http" } : {}) }),
      ...(ws ? { note: "Copilot's provider transport is HTTP for this run (the proxy does not speak WebSocket)" } : {}),
    };
  }
  const api = env.COPILOT_API_URL || COPILOT_API;
  const source = env.COPILOT_API_URL ? "COPILOT_API_URL" : "the Copilot API";
  return {
    upstreams: [{ name: "anthropic", url: api, source }, { name: "openai", url: api, source }],
    env: (proxyUrl) => ({ COPILOT_API_URL: proxyUrl + (pathOf(api) ?? "") }),
  };
}

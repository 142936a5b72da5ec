/**
 * Which requests the proxy compacts, and which upstream each request goes to. Routes are told by
 * the end of the path, so any prefix a client's base URL adds (none, `/v1`, `/openai/v1`,
 * `/backend-api/codex`) reaches the same route. The upstream is fixed by configuration: a request
 * only chooses between the configured ones, by its path and its headers, never by a host of its own.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { DialectName } from "../core/index.js";

export type UpstreamName = "anthropic" | "openai" | "chatgpt";
export const UPSTREAM_NAMES: readonly UpstreamName[] = ["anthropic", "openai", "chatgpt"];

export interface Route {
  /** The dialect of a request the proxy compacts; null when it is forwarded untouched. */
  api: DialectName | null;
  upstream: UpstreamName;
  /** A request that asks the provider to summarise the history itself (Responses' `/responses/compact`). */
  remoteSummary: boolean;
}

const COMPACTED: [RegExp, DialectName][] = [
  [/\/messages$/, "anthropic"],
  [/\/chat\/completions$/, "openai-chat"],
  [/\/responses$/, "openai-responses"],
];

const ANTHROPIC_PATH = /\/(messages|complete)(\/|$)/;
const OPENAI_PATH = /\/(chat|responses|completions|embeddings|audio|images|files|batches|assistants|threads|realtime|vector_stores|moderations|fine_tuning|uploads|conversations)(\/|$)/;
const CHATGPT_PATH = /^\/backend-api(\/|$)/;

/** Anthropic's headers, or a bearer token of Anthropic's (a Claude subscription's OAuth token), mean Anthropic. */
export function anthropicByHeaders(headers: IncomingHttpHeaders): boolean {
  if (headers["x-api-key"] !== undefined || headers["anthropic-version"] !== undefined || headers["anthropic-beta"] !== undefined) return true;
  return typeof headers.authorization === "string" && /^bearer\s+sk-ant-/i.test(headers.authorization);
}

/** The upstream a request belongs to when its path does not say: Anthropic's headers, else a bearer token means OpenAI. */
function byHeaders(headers: IncomingHttpHeaders): UpstreamName {
  if (anthropicByHeaders(headers)) return "anthropic";
  if (typeof headers.authorization === "string" && /^bearer /i.test(headers.authorization)) return "openai";
  return "anthropic";
}

/** The route of a request, from its method, its checked path (no query) and its headers. */
export function routeOf(method: string, path: string, headers: IncomingHttpHeaders): Route {
  const p = path.length > 1 ? path.replace(/\/+$/, "") : path;
  const chatgpt = CHATGPT_PATH.test(p);
  for (const [pattern, api] of COMPACTED) {
    if (!pattern.test(p)) continue;
    const upstream: UpstreamName = chatgpt ? "chatgpt" : api === "anthropic" ? "anthropic" : "openai";
    return { api: method === "POST" ? api : null, upstream, remoteSummary: false };
  }
  const remoteSummary = method === "POST" && /\/responses\/compact$/.test(p);
  if (chatgpt) return { api: null, upstream: "chatgpt", remoteSummary };
  if (remoteSummary) return { api: null, upstream: "openai", remoteSummary };
  if (ANTHROPIC_PATH.test(p)) return { api: null, upstream: "anthropic", remoteSummary: false };
  if (OPENAI_PATH.test(p)) return { api: null, upstream: "openai", remoteSummary: false };
  return { api: null, upstream: byHeaders(headers), remoteSummary: false };
}

/**
 * Which requests the proxy compacts, and which upstream each request goes to. The upstream is
 * fixed by configuration: a request only chooses between the two configured ones, by its path and
 * its auth header, never by a host of its own.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { DialectName } from "../core/index.js";

export type UpstreamName = "anthropic" | "openai";

export interface Route {
  /** The dialect of a request the proxy compacts; null when it is forwarded untouched. */
  api: DialectName | null;
  upstream: UpstreamName;
}

const COMPACTED: [RegExp, DialectName, UpstreamName][] = [
  [/^\/v1\/messages$/, "anthropic", "anthropic"],
  [/^\/v1\/chat\/completions$/, "openai-chat", "openai"],
  [/^\/v1\/responses$/, "openai-responses", "openai"],
];

/** The upstream a request belongs to when its path does not say: Anthropic's headers, else a bearer token means OpenAI. */
function byHeaders(headers: IncomingHttpHeaders): UpstreamName {
  if (headers["x-api-key"] !== undefined || headers["anthropic-version"] !== undefined) return "anthropic";
  if (typeof headers.authorization === "string" && /^bearer /i.test(headers.authorization)) return "openai";
  return "anthropic";
}

export function routeOf(method: string, url: string, headers: IncomingHttpHeaders): Route {
  const path = url.split("?")[0].replace(/\/+$/, "");
  for (const [pattern, api, upstream] of COMPACTED) {
    if (pattern.test(path)) return { api: method === "POST" ? api : null, upstream };
  }
  if (path.startsWith("/v1/messages") || path.startsWith("/v1/complete")) return { api: null, upstream: "anthropic" };
  if (/^\/v1\/(chat|responses|completions|embeddings|audio|images|files|batches|assistants|threads|realtime)/.test(path)) return { api: null, upstream: "openai" };
  return { api: null, upstream: byHeaders(headers) };
}

/** The URL a request goes to: the upstream's base joined with the request path (a base ending in /v1 is not doubled). */
export function targetUrl(base: URL, url: string): URL {
  const prefix = base.pathname.replace(/\/+$/, "");
  const path = prefix.endsWith("/v1") && (url === "/v1" || url.startsWith("/v1/") || url.startsWith("/v1?")) ? prefix.slice(0, -3) + url : prefix + url;
  return new URL(path, base.origin);
}

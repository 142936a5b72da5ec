/**
 * What a request must pass before the proxy does anything with it, in order: a plain path, a Host
 * that names the proxy, no browser Origin where bodies are read or on the proxy's own endpoints,
 * and an upstream URL on the configured origin. The answer is the route and the URL, or the
 * refusal to send; nothing has been sent anywhere by then.
 */
import type { IncomingMessage } from "node:http";
import { fromBrowser, type HostGuard } from "./guard.js";
import { anthropicByHeaders, routeOf, type Route, type UpstreamName } from "../routes.js";
import { plainTarget, targetUrl } from "./target.js";

export interface Refusal {
  status: number;
  upstream: UpstreamName;
  type: string;
  message: string;
}

export type Admission =
  | { kind: "forward"; route: Route; url: URL }
  | { kind: "own"; path: string }
  | { kind: "refuse"; refusal: Refusal };

/** The proxy's own endpoints live under this path. */
export const OWN_PREFIX = "/_cliff/";

export function admit(req: IncomingMessage, upstreams: Record<UpstreamName, URL>, guard: HostGuard): Admission {
  const shape: UpstreamName = anthropicByHeaders(req.headers) ? "anthropic" : req.headers["x-goog-api-key"] !== undefined ? "gemini" : "openai";
  const no = (status: number, type: string, message: string, upstream: UpstreamName = shape): Admission => ({ kind: "refuse", refusal: { status, upstream, type, message } });
  const target = plainTarget(req.url ?? "");
  if (target === null) return no(400, "invalid_request_target", "the request target must be a plain path (no host, backslash, dot or encoded-slash segments)");
  if (!guard.allows(req.headers.host)) return no(403, "forbidden_host", "this proxy does not answer to that Host (allow a name with --allow-host)");
  if (target.path === OWN_PREFIX.slice(0, -1) || target.path.startsWith(OWN_PREFIX)) {
    if (fromBrowser(req.headers)) return no(403, "forbidden_origin", "requests from a web page are refused");
    return { kind: "own", path: target.path };
  }
  const route = routeOf(req.method ?? "GET", target.path, req.headers);
  if (route.api !== null && fromBrowser(req.headers)) return no(403, "forbidden_origin", "requests from a web page are refused", route.upstream);
  const url = targetUrl(upstreams[route.upstream], target);
  if (url === null) return no(400, "invalid_request_target", "the request target does not stay on the configured upstream", route.upstream);
  return { kind: "forward", route, url };
}

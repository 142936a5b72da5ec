/**
 * Which requests the proxy compacts, and which upstream each request goes to. Routes are told by
 * the end of the path, so any prefix a client's base URL adds (none, `/v1`, `/openai/v1`,
 * `/backend-api/codex`, `/v1beta`) reaches the same route. Gemini names the model and the method in
 * the path (`…/models/{model}:generateContent`); Vertex AI's paths (`…/projects/P/locations/L/…`)
 * go to the Vertex upstream. Gemini CLI signed in with Google talks to Code Assist
 * (`/v1internal:generateContent`), whose body names the model and holds the Gemini request under
 * `request`. The upstream is fixed by configuration: a request
 * only chooses between the configured ones, by its path and its headers, never by a host of its own.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { DialectName } from "../core/index.js";

export type UpstreamName = "anthropic" | "openai" | "chatgpt" | "gemini" | "vertex" | "codeassist";
export const UPSTREAM_NAMES: readonly UpstreamName[] = ["anthropic", "openai", "chatgpt", "gemini", "vertex", "codeassist"];

export interface Route {
  /** The dialect of a request the proxy compacts; null when it is forwarded untouched. */
  api: DialectName | null;
  upstream: UpstreamName;
  /** A request that asks the provider to summarise the history itself (Responses' `/responses/compact`). */
  remoteSummary: boolean;
  /** The model a Gemini path names (its body names none). */
  model?: string;
  /** The body's member that holds the request in `api`'s dialect (Code Assist's `request`); absent: the body itself. */
  envelope?: "request";
}

/** Gemini's generate methods; the model is the segment before the colon. */
const GEMINI_GENERATE = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
/** Any other Gemini or Vertex method or resource (countTokens, embeddings, files, caches, models). */
const GEMINI_PATH = /^\/(upload\/)?v1(alpha|beta)\d*(\/|$)|\/models\/[^/:]+:[A-Za-z]+$|\/(cachedContents|fileSearchStores)(\/|$)/;
const VERTEX_PATH = /\/projects\/[^/]+\/locations\/[^/]+(\/|$)/;
/** Code Assist's methods: `/{version}:{method}` (version v1internal unless CODE_ASSIST_API_VERSION says otherwise) and its operations. */
const CODE_ASSIST_GENERATE = /\/v\d+[a-z]*internal:(generateContent|streamGenerateContent)$/;
const CODE_ASSIST_PATH = /\/v\d+[a-z]*internal(:[A-Za-z]+$|\/|$)/;

function googleRoute(method: string, p: string, headers: IncomingHttpHeaders): Route | null {
  if (CODE_ASSIST_GENERATE.test(p)) return { api: method === "POST" ? "gemini" : null, upstream: "codeassist", remoteSummary: false, envelope: "request" };
  if (CODE_ASSIST_PATH.test(p)) return { api: null, upstream: "codeassist", remoteSummary: false };
  const vertex = VERTEX_PATH.test(p);
  const m = GEMINI_GENERATE.exec(p);
  if (m !== null) {
    const model = safeModel(m[1]);
    return { api: method === "POST" ? "gemini" : null, upstream: vertex ? "vertex" : "gemini", remoteSummary: false, ...(model === undefined ? {} : { model }) };
  }
  if (vertex) return { api: null, upstream: "vertex", remoteSummary: false };
  if (GEMINI_PATH.test(p) || headers["x-goog-api-key"] !== undefined) return { api: null, upstream: "gemini", remoteSummary: false };
  return null;
}

/** A path's model segment, decoded, when it is a plain model id. */
function safeModel(segment: string): string | undefined {
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return /^[A-Za-z0-9._@-]{1,128}$/.test(name) ? name : undefined;
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
  const google = googleRoute(method, p, headers);
  if (google !== null) return google;
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

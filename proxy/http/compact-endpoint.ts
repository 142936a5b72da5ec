/**
 * `POST /_cliff/v1/compact`: the proxy's decision for one request, for a gateway's hook. The call
 * is `{api, body, headers}` (the body as the client sent it, a string); the answer is the body the
 * proxy itself would send upstream for it (the same string when nothing changes), the headers it
 * would set over the client's, and the verdict. It goes through the proxy's one decision path
 * (`decide`), with the proxy's engine, so a gateway's hook and the proxy are interchangeable. It
 * never sees the provider's answer: no ladder, no fallback, no bill. Settings that need more than
 * the request (the session's calibration, an idle gap) are not applied, and the answer names the
 * ones that are on. Session text goes both ways: a content endpoint, the owner's token on loopback too.
 * A Gemini call may name the request's `path`: the model it names, or Code Assist's envelope
 * (`/v1internal:generateContent`), read as the proxy reads them (routes.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { isObj, type DialectName } from "../../core/index.js";
import { decide } from "../decision/index.js";
import type { Context } from "./context.js";
import { errorBody, overBudgetMessage } from "./refusal.js";
import { readUpTo } from "./upstream.js";
import { routeOf, type Route, type UpstreamName } from "../routes.js";

export const COMPACT_PATH = "/_cliff/v1/compact";
const APIS: readonly DialectName[] = ["anthropic", "openai-chat", "openai-responses", "gemini"];
/** Room for the body's text inside a JSON string (quotes and backslashes escaped) and the headers. */
const CALL_MARGIN = 1024 * 1024;

export type CompactAction = "cliff" | "reuse" | "pass";

export interface CompactVerdict {
  action: CompactAction;
  tokensBefore: number;
  tokensAfter: number;
  rung: number;
  /** Why a pass is one the proxy also forwards untouched without deciding: `oversize` or `fail-open`. */
  reason?: "oversize" | "fail-open";
}

function answer(res: ServerResponse, status: number, text: string): void {
  const body = text + "\n";
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "cache-control": "no-store" });
  res.end(body);
}

/** The endpoint's own refusal before an API is named: `{error: {type, message}}`. */
const plainError = (res: ServerResponse, status: number, type: string, message: string): void => answer(res, status, JSON.stringify({ error: { type, message: `cliffcompaction: ${message}` } }));

/** A header name (an HTTP token) and a value a request could carry: no CR, LF or NUL, which the answer would echo into a gateway's headers. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const HEADER_VALUE_BAD = /[\r\n\0]/;

/** The headers a gateway passed, as Node presents a request's: names in lower case, text values only; any Node's parser would refuse left out. */
function headersOf(v: unknown): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  if (!isObj(v)) return out;
  for (const [k, x] of Object.entries(v)) {
    const value = typeof x === "string" ? x : Array.isArray(x) && x.every((s) => typeof s === "string") ? x.join(", ") : null;
    if (value !== null && HEADER_NAME.test(k) && !HEADER_VALUE_BAD.test(value)) out[k.toLowerCase()] = value;
  }
  return out;
}

/** The settings on in this proxy that the endpoint does not apply (they need the session, not the request). */
export function notApplied(ctx: Pick<Context, "engine" | "options">): string[] {
  const out: string[] = [];
  if (ctx.engine.config.calibrate) out.push("calibrate");
  if (ctx.options.idleCliffMs !== undefined) out.push("idleCliff");
  return out;
}

function result(res: ServerResponse, ctx: Context, api: DialectName, body: string, headers: Record<string, string>, verdict: CompactVerdict): void {
  ctx.stats.compactCall(api, verdict.action);
  answer(res, 200, JSON.stringify({ body, headers, verdict, notApplied: notApplied(ctx) }));
}

/** The call's JSON, read whole up to twice the compaction limit and a margin; else why not. */
async function readCall(req: IncomingMessage, limit: number): Promise<{ call: Record<string, unknown> } | { status: number; type: string; message: string }> {
  const read = await readUpTo(req, limit * 2 + CALL_MARGIN);
  if (!read.complete) {
    req.resume();
    return { status: 413, type: "request_too_large", message: `the call is over twice the compaction limit (${limit} bytes): send the request on unchanged` };
  }
  let call: unknown;
  try {
    call = JSON.parse(Buffer.concat(read.chunks, read.total).toString("utf8"));
  } catch {
    return { status: 400, type: "invalid_request_error", message: "the call is not JSON: send {api, body, headers}" };
  }
  if (!isObj(call)) return { status: 400, type: "invalid_request_error", message: "the call is not a JSON object: send {api, body, headers}" };
  return { call };
}

/** Where a Gemini request's model and request are, from the call's `path` (none: the body is the request); a string saying why not. */
function whereOf(api: DialectName, path: unknown): Pick<Route, "model" | "envelope"> | string {
  if (path === undefined) return {};
  if (api !== "gemini") return "path is read for the gemini api only";
  if (typeof path !== "string" || !path.startsWith("/")) return "path must be the request's path, a string that opens with /";
  const route = routeOf("POST", path.split("?")[0], {});
  if (route.api !== "gemini") return `path ${JSON.stringify(path.slice(0, 200))} is not a Gemini or Code Assist generate method`;
  return { model: route.model, envelope: route.envelope };
}

/** The shape of the named API's errors. */
const shapeOf = (api: DialectName): UpstreamName => (api === "anthropic" ? "anthropic" : api === "gemini" ? "gemini" : "openai");

/** Answers one call of the endpoint (the caller matched the method and the path). */
export async function compactEndpoint(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  if (!ctx.access.allow(req, res, "content")) return void req.resume();
  const limit = ctx.options.compactLimitBytes;
  const read = await readCall(req, limit);
  if (!("call" in read)) {
    ctx.stats.compactCall("none", "invalid");
    return plainError(res, read.status, read.type, read.message);
  }
  const { call } = read;
  const api = call.api;
  if (typeof api !== "string" || !APIS.includes(api as DialectName)) {
    ctx.stats.compactCall("none", "invalid");
    return plainError(res, 400, "invalid_request_error", `unknown api ${JSON.stringify(api ?? null).slice(0, 64)}: one of ${APIS.join(", ")}`);
  }
  const name = api as DialectName;
  const shape = shapeOf(name);
  const bad = (message: string): void => {
    ctx.stats.compactCall(name, "invalid");
    answer(res, 400, errorBody(shape, "invalid_request_error", message));
  };
  if (typeof call.body !== "string") return bad("body must be the request body as the client sent it, a string");
  const where = whereOf(name, call.path);
  if (typeof where === "string") return bad(where);
  const original = call.body;
  const raw = Buffer.from(original, "utf8");
  if (raw.length > limit) return result(res, ctx, name, original, {}, { action: "pass", tokensBefore: 0, tokensAfter: 0, rung: 0, reason: "oversize" });
  const d = decide(ctx.engine, ctx.options.threshold, name, raw, headersOf(call.headers), undefined, ctx.options.preservedThinking, where);
  if (d.text !== null && d.parsed === null) return bad("body is not a JSON object");
  if (d.text === null) return bad("body is not JSON");
  const p = d.prepared;
  if (p === null) return result(res, ctx, name, original, {}, { action: "pass", tokensBefore: 0, tokensAfter: 0, rung: 0, reason: "fail-open" });
  if (ctx.engine.config.strict && !ctx.engine.config.shadow && p.overBudget) {
    ctx.stats.compactCall(name, "refuse");
    return answer(res, 400, errorBody(shape, "cliff_over_budget", overBudgetMessage(p.estTokensOut, d.thresholdTokens)));
  }
  const body = d.body === raw ? original : d.body.toString("utf8");
  const action: CompactAction = d.action === "cliff" || d.action === "reuse" ? d.action : "pass";
  result(res, ctx, name, body, d.headers ?? {}, { action, tokensBefore: d.record.tokensIn, tokensAfter: d.record.tokensOut, rung: p.rung });
}

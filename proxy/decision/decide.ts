/**
 * What the proxy sends for a compactable request: `Engine.prepare` once, against the threshold
 * the request's model gives (a share of its window) or the configured one, and the outgoing bytes
 * written from the request's own text (numbers keep the digits the client wrote). Any fault of ours
 * decides for the original bytes.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isObj, sendableList, type DialectName, type Engine, type PrepareContext, type PrepareOptions, type RefetchesSeen } from "../../core/index.js";
import { bodyText } from "./body.js";
import { compactionRequest } from "./compaction-request.js";
import { editedMember, replacedValue, splicedBody } from "./numbers.js";
import type { Route } from "../routes.js";
import { mergedBeta, thinkingPlan, withoutKeptThinking, type ThinkingPlan } from "./preserved-thinking.js";
import { withKeptInPlace } from "./kept-in-place.js";
import type { Action, RequestRecord } from "./record.js";
import { thresholdFor, type ThresholdChoice, type ThresholdPolicy } from "./window.js";

export interface Decision {
  body: Buffer;
  /** The request's text, as parsed (null when it did not parse). */
  text: string | null;
  /** The parsed request (null when it did not parse as an object); with the path's model when the body names none (Gemini). */
  parsed: Record<string, unknown> | null;
  prepared: PrepareContext | null;
  /** `cliff`, `reuse` or `pass` from the request alone (core/engine/verdict.ts), computed when first read. */
  readonly action: Action;
  /** The re-fetches of its newest turn, from the request alone (core/engine/refetches.ts), computed when first read; null: none, or no cliff stood before it. */
  readonly refetches: RefetchesSeen | null;
  /** The window and threshold used and why (null when the body did not parse). */
  threshold: ThresholdChoice | null;
  /** The threshold the request was decided against. */
  thresholdTokens: number;
  /** The minimum gain it was decided with: a share of its threshold when that is sized per request, else the config's. */
  minGainTokens: number;
  record: Omit<RequestRecord, "status" | "escalations" | "action">;
  /** What preserved thinking asks of the outgoing body when it changed (see preserved-thinking.ts). */
  thinking: ThinkingPlan;
  /** Headers to set on the outgoing request over the client's (the merged `anthropic-beta`), when the body changed and needs them. */
  headers: Record<string, string> | undefined;
}

const NO_PLAN: ThinkingPlan = { kind: "none" };

/** The client's headers with the decision's own over them: what goes upstream. */
export function outgoingHeaders(incoming: IncomingHttpHeaders, d: Pick<Decision, "headers">): IncomingHttpHeaders {
  return d.headers === undefined ? incoming : { ...incoming, ...d.headers };
}

/**
 * The bytes of what `prepared` sends now, from the request's text where the text can be kept;
 * `envelope` is the body's member that holds the request prepared (Code Assist's `request`).
 */
export function outgoingBytes(text: string, prepared: PrepareContext, plan: ThinkingPlan = NO_PLAN, envelope?: string): Buffer {
  const key = prepared.dialect.messagesKey;
  const kept = withKeptInPlace(prepared, plan.kind === "strip" ? withoutKeptThinking(prepared) : prepared.substituted);
  const list = sendableList(prepared.dialect, kept, prepared.baseHead);
  const splice = (t: string): string | null => splicedBody(t, key, prepared.messages, list);
  let spliced = envelope === undefined ? splice(text) : editedMember(text, envelope, splice);
  if (spliced !== null && plan.kind === "bind") spliced = replacedValue(spliced, "thinking", JSON.stringify(plan.thinking));
  if (spliced !== null) return Buffer.from(spliced, "utf8");
  const request = { ...prepared.outgoingBody(), [key]: list, ...(plan.kind === "bind" ? { thinking: plan.thinking } : {}) };
  return Buffer.from(JSON.stringify(envelope === undefined ? request : { ...(JSON.parse(text) as Record<string, unknown>), [envelope]: request }), "utf8");
}

/** The threshold a request is decided against and, when the gain is a share of it, the gain that goes with it. */
function requestBudget(policy: ThresholdPolicy, threshold: ThresholdChoice): PrepareOptions {
  const thresholdTokens = threshold.threshold;
  // A fixed threshold keeps the config's gain; one sized per request (a share, the default, a glob) takes its share.
  const perRequest = policy.rule !== "tokens" || threshold.glob !== undefined;
  return perRequest && policy.gainShare !== undefined ? { thresholdTokens, minGainTokens: Math.floor(thresholdTokens * policy.gainShare) } : { thresholdTokens };
}

/** The request as the proxy reads its model: with the one its path names when the body names none (the body sent is untouched). */
function withPathModel(body: Record<string, unknown>, pathModel: string | undefined): Record<string, unknown> {
  return pathModel !== undefined && body.model === undefined ? { ...body, model: pathModel } : body;
}

/** The decision with its re-fetches (core/engine/refetches.ts), computed when first read (null: none, or no cliff stood before). */
function withRefetches(d: Omit<Decision, "refetches">, engine: Engine, options: PrepareOptions): Decision {
  let refetched: RefetchesSeen | null | undefined;
  const ctx = d.prepared!;
  return Object.defineProperty(d, "refetches", {
    enumerable: true,
    get(): RefetchesSeen | null {
      if (refetched === undefined) {
        try {
          refetched = ctx.compactionRequest === null ? engine.refetches(ctx, options) : null;
        } catch {
          refetched = null;
        }
      }
      return refetched;
    },
  }) as Decision;
}

/** The request in the dialect (the body, or its `envelope` member) and the model it is for: the path's, else the envelope's. */
function requestOf(body: unknown, where: Where): { request: Record<string, unknown>; model: string | undefined } | null {
  if (!isObj(body)) return null;
  if (where.envelope === undefined) return { request: body, model: where.model };
  const request = body[where.envelope];
  return isObj(request) ? { request, model: where.model ?? (typeof body.model === "string" ? body.model : undefined) } : null;
}

/** What the route tells of a body: the model a Gemini path names, the member a Code Assist body holds its request in. */
type Where = Pick<Route, "model" | "envelope">;

/** The body's text and its JSON object, or why it has none. */
function readBody(raw: Buffer): { text: string; parsed: unknown } | { text: null; why: string } {
  let text: string;
  try {
    text = bodyText(raw);
  } catch {
    return { text: null, why: "the body is not UTF-8 text" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { text: null, why: "the body is not valid JSON" };
  }
  return { text, parsed };
}

/** An error as the log may print it: its kind and the first line of its message, cut short. */
function failReason(e: unknown): string {
  const line = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split("\n")[0];
  return `could not be decided (${line.length > 120 ? line.slice(0, 120) + "…" : line})`;
}

/**
 * `more` adds the host's other per-request options (the session's calibration, an idle gap), given the request's threshold; `preserveThinking` false turns that handling off;
 * `where.model` is the model a Gemini path names (or a Code Assist body, beside its request), for the window, the session and the bill (the body sent keeps its own fields);
 * `where.envelope` the member holding the request in `api`'s dialect.
 */
export function decide(
  engine: Engine, policy: ThresholdPolicy, api: DialectName, raw: Buffer, headers: IncomingHttpHeaders, more: (parsed: Record<string, unknown>, thresholdTokens: number) => PrepareOptions = () => ({}), preserveThinking = true,
  where: Where = {},
): Decision {
  const started = performance.now();
  const record = { api, messagesIn: 0, messagesOut: 0, tokensIn: 0, tokensOut: 0, addedMs: 0 };
  let parsed: unknown;
  const failOpen = (text: string | null, why: string): Decision => ({ body: raw, text, parsed: isObj(parsed) ? parsed : null, prepared: null, action: "fail-open", refetches: null, threshold: null, thresholdTokens: policy.tokens, record: { ...record, addedMs: performance.now() - started, failOpen: why }, thinking: NO_PLAN, headers: undefined, minGainTokens: engine.config.minGainTokens });
  const read = readBody(raw);
  if ("why" in read) return failOpen(null, read.why);
  const text = read.text;
  parsed = read.parsed;
  const found = requestOf(parsed, where);
  if (found === null) return failOpen(text, where.envelope === undefined ? "the body is JSON but not an object" : `the body holds no "${where.envelope}" object`);
  const body0 = found.request, view = (parsed = withPathModel(body0, found.model));
  const shadow = engine.config.shadow;
  let prepared: PrepareContext;
  let threshold: ThresholdChoice;
  let options: PrepareOptions;
  let body = raw;
  let plan = NO_PLAN;
  let out: Record<string, string> | undefined;
  try {
    threshold = thresholdFor(policy, view.model, headers);
    const asked = compactionRequest(api, body0, headers);
    options = { ...more(view, threshold.threshold), ...requestBudget(policy, threshold), ...(asked === null ? {} : { compactionRequest: asked }) };
    prepared = engine.prepare(body0, api, options);
    if (prepared.modified && !shadow) {
      if (api === "anthropic") plan = thinkingPlan(body0, preserveThinking);
      body = outgoingBytes(text, prepared, plan, where.envelope);
      if (plan.kind === "bind") out = { "anthropic-beta": mergedBeta(headers) };
    }
  } catch (e) {
    return failOpen(text, failReason(e));
  }
  // In shadow mode the counts are what would have been sent; the original goes. The verdict
  // prepares the request once more without its newest turn: asked for once the body is on its way.
  let verdict: Action | undefined;
  const ctx = prepared;
  return withRefetches({
    get action(): Action {
      // An idle cliff is a cliff of its own: the request without its newest turn was made before the gap.
      if (verdict === undefined && ctx.idle === true && ctx.compacted) verdict = "cliff";
      if (verdict === undefined) {
        try {
          verdict = engine.verdict(ctx, options);
        } catch {
          verdict = ctx.modified ? "cliff" : "pass";
        }
      }
      return verdict;
    },
    body, text, parsed: view, prepared, threshold, thresholdTokens: threshold.threshold, thinking: plan, headers: out,
    minGainTokens: options.minGainTokens ?? engine.config.minGainTokens,
    record: { ...record, messagesIn: prepared.messages.length, messagesOut: prepared.substituted.length, tokensIn: prepared.estTokensIn, tokensOut: prepared.estTokensOut, addedMs: performance.now() - started, ...(shadow ? { shadow: true } : {}), ...(prepared.idle === true && prepared.compacted ? { reason: "idle" as const } : {}), ...(prepared.compactionRequest === null ? {} : { compaction: prepared.compactionRequest.by }) },
  }, engine, options);
}

/**
 * One request through the proxy. A compactable one (POST of a message list to one of the three
 * APIs, within the size limit) goes through `Engine.prepare` once; the body is re-serialised only
 * when it changed, so an unchanged body keeps its bytes. The upstream's answer streams back as it
 * arrives; a context-length refusal that came before any byte reached the client is answered by
 * one more rung and a retry. Any fault of ours sends the original bytes: the proxy is never the
 * reason a request failed.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream";
import { admin } from "./admin.js";
import { COMPACT_PATH, compactEndpoint } from "./compact-endpoint.js";
import { answeredCompaction } from "./compaction-answer.js";
import { bodyText, decide, isOpenAIHost, mergedBeta, openOwnCompactions, outgoingBytes, outgoingHeaders, thinkingPlan, type Decision } from "../decision/index.js";
import { threadDeclinedBody, threadRecord, threadRequest, type ThreadRequest } from "../decision/index.js";
import { logLine, refetchRecord, type RequestRecord } from "../observe/index.js";
import type { Observer } from "../observe/index.js";
import { ERROR_BODY_LIMIT, isContextError, ourRefusal, type RefusedRecord } from "../decision/index.js";
import { admit } from "./admission.js";
import { overBudgetMessage, refuse } from "./refusal.js";
import type { Route } from "../routes.js";
import type { Action } from "../observe/index.js";
import { endToEnd, joined, readUpTo, send, type UpstreamRequest } from "./upstream.js";
import { withReadableOffer } from "../encoding.js";
import type { Context } from "./context.js";
import { plainAnswers, recallPlan, type RecallPlan, type Rounds } from "../recall/index.js";

/**
 * The upstream's answer, as it arrives. Either side going away ends the other: a client that
 * leaves drops the upstream request, an upstream that breaks off mid-answer breaks the client's
 * answer off too (as a direct connection would) instead of leaving it waiting.
 */
function relay(upstream: IncomingMessage, res: ServerResponse, head: Buffer[] = []): void {
  const headers = endToEnd(upstream.headers) as Record<string, string | string[]>;
  // The body goes on byte for byte, so its stated length still holds.
  if (upstream.headers["content-length"] !== undefined) headers["content-length"] = upstream.headers["content-length"];
  res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, headers);
  for (const c of head) res.write(c);
  pipeline(upstream, res, () => undefined);
}

function badGateway(res: ServerResponse, ctx: Context, url: URL, e: unknown): void {
  ctx.stats.upstreamErrors++;
  const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  if (res.headersSent) return void res.destroy();
  res.writeHead(502, { "content-type": "application/json" });
  res.end(JSON.stringify({ type: "error", error: { type: "upstream_error", message: `cliffcompaction: cannot reach the upstream ${url.origin} (${why})` } }) + "\n");
}

/** Anything the proxy does not compact: the body streams through untouched. */
async function passThrough(req: IncomingMessage, res: ServerResponse, ctx: Context, url: URL, head: Buffer[] = []): Promise<void> {
  const length = req.headers["content-length"];
  try {
    const upstream = await send({ agents: ctx.agents, url, method: req.method ?? "GET", headers: req.headers, body: { head, rest: req, length: typeof length === "string" ? length : undefined } });
    relay(upstream, res);
  } catch (e) {
    badGateway(res, ctx, url, e);
  }
}

/** Strict mode's answer when every rung left the request over its threshold: a 400 in the API's shape, the upstream never asked. */
function overBudget(res: ServerResponse, route: Route, d: Decision): void {
  const p = d.prepared!;
  refuse(res, 400, route.upstream, "cliff_over_budget", overBudgetMessage(p.estTokensOut, d.thresholdTokens));
}

function finish(ctx: Context, d: Decision, action: Action, escalations: number, status: number): RequestRecord {
  const seen = action === "cliff" || action === "reuse" || action === "pass" || action === "escalate" || action === "fallback" ? d.refetches : null;
  const record: RequestRecord = { ...d.record, action, escalations, status, ...(seen !== null && seen.list.length > 0 ? { refetches: refetchRecord(seen) } : {}) };
  ctx.stats.count(action, d.record.tokensIn, d.record.shadow === true ? d.record.tokensIn : d.record.tokensOut, escalations);
  ctx.options.log?.(logLine(record, ctx.options.logJson));
  ctx.debug?.write(d, action, status);
  return record;
}

/**
 * A request the proxy answers itself, the upstream never asked: a client's own compaction request
 * with the cliff's summary (--answer-compaction), or strict mode's 400 when every rung left it over its threshold.
 */
function answeredHere(res: ServerResponse, ctx: Context, route: Route, d: Decision, watched: ReturnType<Observer["begin"]>): boolean {
  if (ctx.options.answerCompaction && answeredCompaction(res, route.api!, d, ctx.engine.config, ctx.options.remoteCompaction || isOpenAIHost(ctx.options.upstreams[route.upstream]))) {
    watched.end(finish(ctx, d, "answered", 0, 200), 0);
    return true;
  }
  if (!ctx.engine.config.strict || d.prepared?.overBudget !== true) return false;
  overBudget(res, route, d);
  watched.end(finish(ctx, d, "refuse", 0, 0), d.prepared.rung);
  return true;
}

/** The request that goes upstream: with the recall tool offered when the plan offers it. */
function upstreamRequest(ctx: Context, url: URL, headers: IncomingHttpHeaders, body: Buffer, recall: RecallPlan | null): UpstreamRequest {
  return { agents: ctx.agents, url, method: "POST", headers: recallHeaders(recall, headers), body: offer(recall, body) };
}

/** A recall loop's further rounds go as the first did; a refusal of one is ours by the first body's rule, a refusal of its length included (no rung answers that). */
function rounds(request: UpstreamRequest, read: (u: IncomingMessage) => void, fallback: boolean): Rounds {
  const ours: Rounds["ours"] = (u, body, complete) => (fallback ? ourRefusal(u.statusCode ?? 0, body, u.headers["content-encoding"], complete, true) : null);
  return { body: request.body as Buffer, send: (body) => send({ ...request, body }), headers: (u) => endToEnd(u.headers) as Record<string, string | string[]>, read, ours };
}

/** The answer relayed, its usage read. */
function relayed(upstream: IncomingMessage, res: ServerResponse, watched: ReturnType<Observer["begin"]>): void {
  relay(upstream, res);
  watched.read(upstream);
}

/** After a refusal we caused: the client's own request sent as it came, its answer relayed. Its status. */
async function original(res: ServerResponse, request: UpstreamRequest, headers: IncomingHttpHeaders, raw: Buffer, watched: ReturnType<Observer["begin"]>): Promise<number> {
  const upstream = await send({ ...request, headers, body: raw });
  relayed(upstream, res, watched);
  return upstream.statusCode ?? 0;
}

const offer = (recall: RecallPlan | null, body: Buffer): Buffer => (recall === null ? body : recall.offer(body));
const recallHeaders = (recall: RecallPlan | null, headers: IncomingHttpHeaders): IncomingHttpHeaders => (recall === null ? headers : plainAnswers(headers));

/** Sends the decided body; after a context-length refusal, one more rung and a retry, up to the ladder's end. */
async function compacted(req: IncomingMessage, res: ServerResponse, ctx: Context, route: Route, url: URL, raw: Buffer): Promise<void> {
  const d = decide(ctx.engine, ctx.options.threshold, route.api!, raw, req.headers, (parsed, threshold) => ctx.observer.prepareOptions(ctx.engine, req.headers, route.api!, parsed, threshold), ctx.options.preservedThinking, route);
  const warning = d.threshold === null ? null : ctx.stats.window(d.threshold);
  if (warning !== null) ctx.options.log?.(`${new Date().toISOString()} WARNING ${warning}`);
  const watched = ctx.observer.begin(ctx.engine, req.headers, route.api!, d.parsed, d.prepared, d.thresholdTokens, d.minGainTokens);
  const shadow = ctx.engine.config.shadow;
  if (!shadow && answeredHere(res, ctx, route, d, watched)) return;
  // The answer is read (usage, refusals), so the upstream is offered only encodings this runtime decodes.
  const offered = withReadableOffer(req.headers);
  const recall = shadow ? null : recallPlan(ctx.engine.config, route.api!, d.prepared, d.body, { envelope: route.envelope, url });
  const request = upstreamRequest(ctx, url, outgoingHeaders(offered, d), d.body, recall);
  // The text is written out already; only an escalation needs it again, and it is decoded anew then:
  // two hundred requests awaiting their answers need not hold a copy of their history each.
  d.text = null;
  let escalations = 0;
  let status = 0;
  let refused: RefusedRecord | undefined;
  try {
    for (;;) {
      const upstream = await send(request);
      status = upstream.statusCode ?? 0;
      if (status < 400 || d.prepared === null || shadow) {
        if (recall === null || status >= 300) return relayed(upstream, res, watched);
        refused = (await recall.answer(upstream, res, rounds(request, (u) => watched.read(u), ctx.options.fallback))) ?? undefined;
        // A whole answer's refused round wrote nothing: the client's own request answers it.
        if (refused !== undefined && refused.unanswered !== true) status = await original(res, request, offered, raw, watched);
        return;
      }
      const error = await readUpTo(upstream, ERROR_BODY_LIMIT);
      const encoding = upstream.headers["content-encoding"];
      const body = Buffer.concat(error.chunks);
      const context = error.complete && isContextError(status, body, encoding);
      const ours = ctx.options.fallback && request.body !== raw ? ourRefusal(status, body, encoding, error.complete, false) : null;
      if (ours !== null) {
        refused = ours;
        status = await original(res, request, offered, raw, watched);
        return;
      }
      if (!context || !ctx.engine.reactive(d.prepared)) return relay(upstream, res, error.chunks);
      escalations++;
      request.body = offer(recall, outgoingBytes(d.text ??= bodyText(raw), d.prepared, d.thinking, route.envelope));
      // An escalation changes a request the first rung may have left alone: it needs the same handling.
      if (d.thinking.kind === "none" && d.parsed !== null && route.api === "anthropic") {
        d.thinking = thinkingPlan(d.parsed, ctx.options.preservedThinking);
        request.body = offer(recall, outgoingBytes(d.text ??= bodyText(raw), d.prepared, d.thinking));
        if (d.thinking.kind === "bind") request.headers = recallHeaders(recall, { ...offered, "anthropic-beta": mergedBeta(offered) });
      }
      d.record.messagesOut = d.prepared.substituted.length;
      d.record.tokensOut = d.prepared.estTokensOut;
    }
  } catch (e) {
    badGateway(res, ctx, url, e);
  } finally {
    if (refused !== undefined) d.record.refused = { ...refused };
    // The client's own request was what answered, unless a stream ended with its recall unanswered.
    if (refused !== undefined && refused.unanswered !== true) Object.assign(d.record, { messagesOut: d.record.messagesIn, tokensOut: d.record.tokensIn });
    if (recall !== null && recall.record.calls > 0) d.record.recall = { ...recall.record };
    watched.end(finish(ctx, d, refused !== undefined ? "fallback" : escalations > 0 ? "escalate" : d.action, escalations, status), d.prepared?.rung ?? 0);
  }
}

/** A request in one of Anthropic's message threads (decision/threads.ts): declined as the API declines one, or sent on untouched. */
async function threaded(req: IncomingMessage, res: ServerResponse, ctx: Context, url: URL, raw: Buffer, t: ThreadRequest): Promise<void> {
  const watched = ctx.observer.begin(ctx.engine, req.headers, "anthropic", t.kind === "create" ? t.body : null, null);
  const pass = ctx.options.passThreads;
  let status = 400;
  try {
    if (!pass) {
      const body = threadDeclinedBody() + "\n";
      res.writeHead(400, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
      return void res.end(body);
    }
    const upstream = await send({ agents: ctx.agents, url, method: "POST", headers: withReadableOffer(req.headers), body: raw });
    status = upstream.statusCode ?? 0;
    relay(upstream, res);
    watched.read(upstream);
  } catch (e) {
    status = 0;
    badGateway(res, ctx, url, e);
  } finally {
    const record = threadRecord(t, pass, status);
    ctx.stats.count(record.action, 0, 0, 0);
    ctx.options.log?.(logLine(record, ctx.options.logJson));
    watched.end(record, 0);
  }
}

/**
 * A request the collection when quiet waits out. The proxy's own GETs are not: an event stream
 * (`watch`, the web view) stays open for hours, and the proxy would never count as quiet.
 */
function working(ctx: Context, res: ServerResponse): void {
  ctx.working = (ctx.working ?? 0) + 1;
  ctx.idle?.begin();
  res.on("close", () => ctx.idle?.end((ctx.working = (ctx.working ?? 1) - 1)));
}

export async function handle(req: IncomingMessage, res: ServerResponse, ctx: Context): Promise<void> {
  ctx.stats.requests++;
  ctx.stats.inFlight++;
  res.on("close", () => void ctx.stats.inFlight--);
  if (ctx.draining) res.shouldKeepAlive = false;
  const a = admit(req, ctx.options.upstreams, ctx.guard);
  if (a.kind === "refuse") {
    ctx.stats.refused++;
    return refuse(res, a.refusal.status, a.refusal.upstream, a.refusal.type, a.refusal.message);
  }
  if (a.kind === "own") {
    if (a.path === COMPACT_PATH && req.method === "POST") {
      working(ctx, res);
      return compactEndpoint(req, res, ctx);
    }
    if (admin(req, res, ctx)) return;
    return refuse(res, 404, "openai", "not_found", `no endpoint ${req.method} ${a.path}`);
  }
  working(ctx, res);
  const { route, url } = a;
  if (route.remoteSummary) ctx.stats.remoteSummaries++;
  if (route.api === null) return passThrough(req, res, ctx, url);
  const stated = req.headers["content-length"];
  const body = await readUpTo(req, ctx.options.compactLimitBytes, stated === undefined ? undefined : Number(stated));
  if (!body.complete) {
    const record: RequestRecord = { api: route.api, messagesIn: 0, messagesOut: 0, tokensIn: 0, tokensOut: 0, action: "oversize", escalations: 0, addedMs: 0, status: 0 };
    ctx.stats.count("oversize", 0, 0, 0);
    ctx.options.log?.(logLine(record, ctx.options.logJson));
    ctx.observer.begin(ctx.engine, req.headers, route.api, null, null).end(record, 0);
    return passThrough(req, res, ctx, url, body.chunks);
  }
  const raw = joined(body);
  const thread = route.api === "anthropic" ? threadRequest(raw, req.headers) : null;
  if (thread !== null) return threaded(req, res, ctx, url, raw, thread);
  // Codex sends back the compaction item we answered a trigger with: what the upstream gets is its summary.
  return compacted(req, res, ctx, route, url, (route.api === "openai-responses" ? openOwnCompactions(raw) : null) ?? raw);
}

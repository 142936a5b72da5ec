/**
 * The proxy's own endpoints under `/_cliff/`: `status` (JSON), `events` (server-sent events),
 * `metrics` (Prometheus text) and `sessions/ID/last-cliff` (a session's newest summary beside
 * what it dropped: the only endpoint that serves text from a body, answered only when the proxy
 * is bound to loopback and the request comes from loopback); and the web view (`/_cliff/`, the
 * page, and `sessions/ID/sawtooth.svg`, a session's chart).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Engine } from "../../core/index.js";
import { isLoopback } from "../loopback.js";
import { metricsText, METRICS_CONTENT_TYPE } from "../observe/index.js";
import type { Observer } from "../observe/index.js";
import type { Stats } from "../observe/index.js";
import { ICON_PATH, sendIcon, sendPage, sendSawtooth, WEB_PATH } from "../web/index.js";

export { isLoopback };

export interface AdminContext {
  engine: Engine;
  stats: Stats;
  observer: Observer;
  /** The proxy listens on a loopback address only. */
  loopback: boolean;
  statusExtra: () => Record<string, unknown>;
}

/** Sessions `status` lists unless asked for another number (`?sessions=N`). */
const STATUS_SESSIONS = 100;


function send(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, "application/json", JSON.stringify(value, null, 2) + "\n");

export function statusOf(ctx: AdminContext, sessions = STATUS_SESSIONS): Record<string, unknown> {
  const o = ctx.observer;
  const list = o.sessions.list();
  return {
    ...ctx.stats.status(ctx.engine, ctx.statusExtra()),
    config: ctx.engine.config,
    usage: { ...o.usage },
    probes: o.sessions.probes, oneShots: o.sessions.oneShots,
    netDollars: o.pricedCliffs > 0 ? o.netDollars : null,
    events: { published: o.events.published, dropped: o.events.dropped, subscribers: o.events.subscriberCount },
    sessionCount: list.length,
    sessions: list.slice(0, sessions).map((s) => s.view()),
  };
}

const SAWTOOTH = /^\/_cliff\/sessions\/([0-9a-f]{1,64})\/sawtooth\.svg$/;

/** Answers a GET under /_cliff/ (true), or leaves it to the caller (false). */
export function admin(req: IncomingMessage, res: ServerResponse, ctx: AdminContext): boolean {
  if (req.method !== "GET") return false;
  const url = new URL(req.url ?? "/", "http://proxy");
  const path = url.pathname;
  const chart = SAWTOOTH.exec(path);
  if (path === WEB_PATH) sendPage(res);
  else if (path === ICON_PATH) sendIcon(res);
  else if (path === "/_cliff") {
    res.writeHead(308, { location: WEB_PATH, "content-length": "0" });
    res.end();
  } else if (chart !== null) {
    const s = ctx.observer.sessions.byId(chart[1]);
    if (s === undefined) json(res, 404, { error: "no such session" });
    else sendSawtooth(res, s);
  } else if (path === "/_cliff/status") {
    const n = Number(url.searchParams.get("sessions") ?? STATUS_SESSIONS);
    json(res, 200, statusOf(ctx, Number.isSafeInteger(n) && n >= 0 ? n : STATUS_SESSIONS));
  } else if (path === "/_cliff/events") {
    ctx.observer.events.subscribe(res);
  } else if (path === "/_cliff/metrics") {
    send(res, 200, METRICS_CONTENT_TYPE, metricsText(ctx.stats, ctx.engine, ctx.observer));
  } else {
    const m = /^\/_cliff\/sessions\/([0-9a-f]{1,64})\/last-cliff$/.exec(path);
    if (m === null) return false;
    if (!ctx.loopback || !isLoopback(req.socket.remoteAddress)) {
      json(res, 403, { error: "a session's last cliff is served only by a proxy bound to loopback, to loopback" });
    } else {
      const s = ctx.observer.sessions.byId(m[1]);
      if (s === undefined || s.lastCliff === null) json(res, 404, { error: "no such session, or no cliff in it yet" });
      else json(res, 200, { id: s.id, model: s.model, ...s.lastCliff });
    }
  }
  return true;
}

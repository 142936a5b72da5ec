/**
 * The proxy's own endpoints under `/_cliff/`, each with the kind of what it serves (access.ts):
 * `health` (open: no content, for load balancers), `login` (the cookie for a browser), `status`
 * (JSON) and `metrics` (Prometheus text): counts, open on loopback; `events` (server-sent events)
 * and `sessions/ID/last-cliff` (a session's newest summary beside what it dropped): content, the
 * admin token on loopback too; and the web view: the page at `/_cliff/` and `sessions/ID/sawtooth.svg`
 * (content), its icon (open); `prove` (open): HMAC(token, address, port, nonce), so `watch` and `status`
 * send the token only to a listener that holds it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Engine } from "../../core/index.js";
import { isLoopback } from "../loopback.js";
import { metricsText, METRICS_CONTENT_TYPE } from "../observe/index.js";
import type { Observer } from "../observe/index.js";
import type { Stats } from "../observe/index.js";
import { ICON_PATH, sendIcon, sendPage, sendSawtooth, WEB_PATH } from "../web/index.js";
import type { AdminAccess } from "./access.js";
import { canonicalAddress, NONCE, PROVE_PATH, proofOf } from "../../node/admin-proof.js";

export { isLoopback };

export interface AdminContext {
  engine: Engine;
  stats: Stats;
  observer: Observer;
  /** The proxy listens on a loopback address only. */
  loopback: boolean;
  access: AdminAccess;
  /** The token itself, for the proof a client asks before it sends the token. */
  adminToken: string;
  /** Told to stop (health then fails, for load balancers); absent: serving. */
  draining?: boolean;
  statusExtra: () => Record<string, unknown>;
}

/** Sessions `status` lists unless asked for another number (`?sessions=N`). */
const STATUS_SESSIONS = 100;


function send(res: ServerResponse, status: number, type: string, text: string): void {
  res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, "application/json", JSON.stringify(value, null, 2) + "\n");

/** The status; `names`: with the re-fetched tools' names, for a reader that holds the token (counts are open on loopback, names are not). */
export function statusOf(ctx: AdminContext, sessions = STATUS_SESSIONS, names = false): Record<string, unknown> {
  const o = ctx.observer;
  const list = o.sessions.list();
  return {
    ...ctx.stats.status(ctx.engine, ctx.statusExtra()),
    config: ctx.engine.config,
    usage: { ...o.usage },
    probes: o.sessions.probes, sideCalls: o.sessions.sideCalls,
    netDollars: o.pricedCliffs > 0 ? o.netDollars : null,
    refetches: [...o.byApi.values()].reduce((t, c) => ({ count: t.count + c.refetches, tokens: t.tokens + c.refetchTokens }), { count: 0, tokens: 0 }),
    recalls: [...o.byApi.values()].reduce((t, c) => ({ calls: t.calls + c.recalls, rounds: t.rounds + c.recallRounds, tokens: t.tokens + c.recallTokens }), { calls: 0, rounds: 0, tokens: 0 }),
    events: { published: o.events.published, dropped: o.events.dropped, subscribers: o.events.subscriberCount },
    sessionCount: list.length,
    sessions: list.slice(0, sessions).map((s) => s.view(names)),
  };
}

const SAWTOOTH = /^\/_cliff\/sessions\/([0-9a-f]{1,64})\/sawtooth\.svg$/;

const LAST_CLIFF = /^\/_cliff\/sessions\/([0-9a-f]{1,64})\/last-cliff$/;

function sawtoothOf(res: ServerResponse, ctx: AdminContext, id: string): void {
  const s = ctx.observer.sessions.byId(id);
  if (s === undefined) json(res, 404, { error: "no such session" });
  else sendSawtooth(res, s);
}

function lastCliffOf(res: ServerResponse, ctx: AdminContext, id: string): void {
  const s = ctx.observer.sessions.byId(id);
  if (s === undefined || s.lastCliff === null) json(res, 404, { error: "no such session, or no cliff in it yet" });
  else {
    const c = s.lastCliff;
    // The recalls its summary's refs cost since, counted as the status counts them.
    const recalls = c.cut === undefined || c.summaryFp === undefined ? undefined : s.recalls.of(c.cut, c.summaryFp);
    json(res, 200, { id: s.id, model: s.model, ...c, ...(recalls !== undefined ? { recalls } : {}) });
  }
}

/** Open: the proof that this proxy holds the token, for the address and port the client reached (node/admin-proof.ts). */
function prove(req: IncomingMessage, res: ServerResponse, ctx: AdminContext, nonce: string | null): void {
  const { localAddress, localPort: port } = req.socket;
  if (nonce === null || !NONCE.test(nonce) || port === undefined || localAddress === undefined) return json(res, 400, { error: "prove takes ?nonce= (32 to 128 hex digits)" });
  const address = canonicalAddress(localAddress);
  json(res, 200, { address, port, proof: proofOf(ctx.adminToken, address, port, nonce) });
}

/** Answers a GET under /_cliff/ (true), or leaves it to the caller (false). */
export function admin(req: IncomingMessage, res: ServerResponse, ctx: AdminContext): boolean {
  if (req.method !== "GET") return false;
  const url = new URL(req.url ?? "/", "http://proxy");
  const path = url.pathname;
  const allow = (kind: "counts" | "content"): boolean => ctx.access.allow(req, res, kind);
  const cliff = LAST_CLIFF.exec(path);
  const chart = SAWTOOTH.exec(path);
  if (path === "/_cliff/health") json(res, ctx.draining === true ? 503 : 200, ctx.draining === true ? { ok: false, draining: true } : { ok: true });
  else if (path === "/_cliff/login") ctx.access.login(req, res);
  else if (path === PROVE_PATH) prove(req, res, ctx, url.searchParams.get("nonce"));
  else if (path === WEB_PATH) {
    if (allow("content")) sendPage(res);
  } else if (path === ICON_PATH) sendIcon(res);
  else if (path === "/_cliff") {
    res.writeHead(308, { location: WEB_PATH, "content-length": "0" });
    res.end();
  } else if (chart !== null) {
    if (allow("content")) sawtoothOf(res, ctx, chart[1]);
  } else if (path === "/_cliff/status") {
    if (!allow("counts")) return true;
    const n = Number(url.searchParams.get("sessions") ?? STATUS_SESSIONS);
    json(res, 200, statusOf(ctx, Number.isSafeInteger(n) && n >= 0 ? n : STATUS_SESSIONS, ctx.access.authorize(req, "content") === null));
  } else if (path === "/_cliff/metrics") {
    if (allow("counts")) send(res, 200, METRICS_CONTENT_TYPE, metricsText(ctx.stats, ctx.engine, ctx.observer));
  } else if (path === "/_cliff/events") {
    if (allow("content")) ctx.observer.events.subscribe(res);
  } else if (cliff !== null) {
    if (allow("content")) lastCliffOf(res, ctx, cliff[1]);
  } else return false;
  return true;
}

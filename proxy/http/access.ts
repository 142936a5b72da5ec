/**
 * The one access rule of `/_cliff/`: what a request may read, by the kind of what it asks for.
 *
 * - `open`: no content at all (`/_cliff/health`, `/_cliff/login` itself): anyone.
 * - `counts`: numbers and names without session text (`status`, `metrics`): anyone on loopback
 *   (the proxy bound to loopback and the request from it); beyond loopback, the token.
 * - `content`: anything with session text (last cliffs, summaries, excerpts, the event stream, and
 *   every later endpoint that serves a body's text): the token, on loopback too — loopback TCP is
 *   shared by every account on the machine.
 *
 * The token is sent as `Authorization: Bearer TOKEN`, or as the cookie `GET /_cliff/login?token=`
 * sets once (a browser cannot send a header on an event stream): HttpOnly, SameSite=Strict,
 * Path=/_cliff/. The cookie's value is derived from the token (an HMAC), so replicas that share a
 * token file accept each other's cookies and a new token ends every old cookie.
 */
import { createHmac, hash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isLoopback } from "../loopback.js";

export type AccessKind = "open" | "counts" | "content";

export const COOKIE = "cliff_admin";
export const LOGIN_PATH = "/_cliff/login";

export interface Refusal {
  status: 401;
  message: string;
}

export interface AdminAccess {
  /** null when `req` may read what `kind` names; else why not. */
  authorize(req: IncomingMessage, kind: AccessKind): Refusal | null;
  /** `authorize`, answering the refusal itself (401, JSON, a WWW-Authenticate header): true when allowed. */
  allow(req: IncomingMessage, res: ServerResponse, kind: AccessKind): boolean;
  /** Answers `GET /_cliff/login?token=…[&next=/_cliff/…]`: the cookie for a right token, 401 for a wrong one. */
  login(req: IncomingMessage, res: ServerResponse): void;
}

const digest = (s: string): Buffer => hash("sha256", s, "buffer");

/** Equal strings, compared in constant time whatever their lengths. */
const same = (a: string, b: string): boolean => timingSafeEqual(digest(a), digest(b));

export const cookieValue = (token: string): string => createHmac("sha256", token).update("cliffcompaction /_cliff/ cookie v1").digest("base64url");

function bearer(req: IncomingMessage): string | undefined {
  const h = req.headers.authorization;
  const m = typeof h === "string" ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1];
}

function cookie(req: IncomingMessage): string | undefined {
  const h = req.headers.cookie;
  if (typeof h !== "string") return undefined;
  for (const part of h.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value) + "\n";
  res.writeHead(status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)), "cache-control": "no-store", ...headers });
  res.end(text);
}

/** A path to go to after login: one of ours, never another site. */
const safeNext = (next: string | null): string | null => (next !== null && next.startsWith("/_cliff/") && !/[\\\r\n]|\/\//.test(next) ? next : null);

/** The rule for a proxy holding `token`; `loopback`: it listens on a loopback address only. */
export function adminAccess(token: string, loopback: boolean): AdminAccess {
  const crumb = cookieValue(token);
  const holds = (req: IncomingMessage): boolean => {
    const b = bearer(req);
    if (b !== undefined) return same(b, token);
    const c = cookie(req);
    return c !== undefined && same(c, crumb);
  };
  const authorize = (req: IncomingMessage, kind: AccessKind): Refusal | null => {
    if (kind === "open") return null;
    if (kind === "counts" && loopback && isLoopback(req.socket.remoteAddress)) return null;
    if (holds(req)) return null;
    const what = kind === "counts" ? "beyond loopback, the proxy's numbers need" : "session text needs";
    return { status: 401, message: `${what} the admin token (Authorization: Bearer, from the proxy's admin-token file; a browser: ${LOGIN_PATH}?token=…)` };
  };
  return {
    authorize,
    allow(req, res, kind) {
      const r = authorize(req, kind);
      if (r === null) return true;
      json(res, r.status, { error: r.message }, { "www-authenticate": 'Bearer realm="cliffcompaction"' });
      return false;
    },
    login(req, res) {
      const url = new URL(req.url ?? "/", "http://proxy");
      const given = url.searchParams.get("token");
      if (given === null || !same(given, token)) return json(res, 401, { error: "not the admin token" }, { "referrer-policy": "no-referrer" });
      const set = `${COOKIE}=${crumb}; HttpOnly; SameSite=Strict; Path=/_cliff/`;
      const next = safeNext(url.searchParams.get("next"));
      const headers = { "set-cookie": set, "referrer-policy": "no-referrer", "cache-control": "no-store" };
      if (next !== null) {
        res.writeHead(303, { ...headers, location: next, "content-length": "0" });
        return void res.end();
      }
      json(res, 200, { ok: true, cookie: COOKIE, path: "/_cliff/" }, headers);
    },
  };
}

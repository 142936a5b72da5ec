/** Sending a request to an upstream: headers cleaned of hop-by-hop ones, keep-alive agents, no timeout on the answer. */
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length", "expect"]);
/** Keep-alive connections to the upstreams, one pool per proxy, closed with it. */
export interface Agents {
  "http:": http.Agent;
  "https:": https.Agent;
}

export function newAgents(): Agents {
  return { "http:": new http.Agent({ keepAlive: true }), "https:": new https.Agent({ keepAlive: true }) };
}

/** Headers minus hop-by-hop ones (and those the Connection header names). */
export function endToEnd(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(String(headers.connection ?? "").toLowerCase().split(",").map((s) => s.trim()).filter((s) => s !== ""));
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

export interface UpstreamRequest {
  agents: Agents;
  url: URL;
  method: string;
  headers: IncomingHttpHeaders;
  /** The whole body, or chunks already read followed by the rest of a stream. */
  body: Buffer | { head: Buffer[]; rest: Readable; length?: string };
}

/** Errors of a kept-alive connection the upstream closed while it sat in the pool. */
const STALE = new Set(["ECONNRESET", "EPIPE"]);

/**
 * How soon after the body went out a reset still means "closed while idle" (ms). An upstream that
 * had closed the pooled connection answers our first bytes with a reset within a round trip; one
 * that breaks the connection later has read the body and may be working on it (a long generation,
 * a gateway's idle reset), so sending it again could bill and wait for it twice.
 */
export const STALE_WINDOW_MS = 1_000;

/**
 * Sends the request; resolves with the upstream's response as soon as its head arrives. A whole
 * body whose reused connection is reset before any answer, and before it or within
 * STALE_WINDOW_MS of it reaching the socket, goes once more on a new connection: the upstream
 * closed that connection while it was idle in the pool (its keep-alive timeout ran out while the
 * proxy read and decided a large body, say), which is no answer of the upstream's.
 */
export async function send(r: UpstreamRequest, onRequest?: (req: http.ClientRequest) => void): Promise<IncomingMessage> {
  try {
    return await attempt(r, true, onRequest);
  } catch (e) {
    const f = e as { reused?: boolean; sentMsAgo?: number };
    const stale = f.reused === true && STALE.has((e as NodeJS.ErrnoException).code ?? "") && (f.sentMsAgo === undefined || f.sentMsAgo < STALE_WINDOW_MS);
    if (!stale || !Buffer.isBuffer(r.body)) throw e;
    return attempt(r, false, onRequest);
  }
}

/** One attempt: on the pool's connections (`pooled`), or on a new connection of its own. */
function attempt(r: UpstreamRequest, pooled: boolean, onRequest?: (req: http.ClientRequest) => void): Promise<IncomingMessage> {
  const headers = endToEnd(r.headers);
  headers.host = r.url.host;
  if (Buffer.isBuffer(r.body)) headers["content-length"] = String(r.body.length);
  else if (r.body.length !== undefined) headers["content-length"] = r.body.length;
  const mod = r.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(r.url, { method: r.method, headers, agent: pooled ? r.agents[r.url.protocol as "http:" | "https:"] : false }, resolve);
    let sentAt: number | undefined;
    req.on("finish", () => (sentAt = performance.now()));
    req.on("error", (e) => reject(Object.assign(e, { reused: req.reusedSocket, sentMsAgo: sentAt === undefined ? undefined : performance.now() - sentAt })));
    onRequest?.(req);
    if (Buffer.isBuffer(r.body)) req.end(r.body);
    else {
      for (const chunk of r.body.head) req.write(chunk);
      r.body.rest.pipe(req);
    }
  });
}

/**
 * Reads a body (a request's or a response's) up to `limit` bytes. Past it, reading stops with the
 * rest left in the stream (paused), so the caller can pass the chunks read and the rest on. A body
 * of a stated length within the limit is read into one buffer of that length as it arrives: with
 * many bodies in flight, each is held once, not as its chunks and then their concatenation.
 */
export function readUpTo(stream: Readable, limit: number, stated?: number): Promise<{ chunks: Buffer[]; total: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let into = stated !== undefined && Number.isSafeInteger(stated) && stated > 0 && stated <= limit ? Buffer.allocUnsafeSlow(stated) : null;
    let total = 0;
    const onData = (c: Buffer): void => {
      if (into !== null && total + c.length <= into.length) {
        c.copy(into, total);
        total += c.length;
        return;
      }
      // More than was stated (never from Node's HTTP parser): what was copied goes first, as a chunk.
      if (into !== null) chunks.push(into.subarray(0, total));
      into = null;
      chunks.push(c);
      total += c.length;
      if (total > limit) {
        stream.pause();
        stream.off("data", onData);
        stream.off("end", onEnd);
        resolve({ chunks, total, complete: false });
      }
    };
    const onEnd = (): void => {
      if (into !== null && total > 0) chunks.push(into.subarray(0, total));
      resolve({ chunks, total, complete: true });
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", reject);
  });
}

/** The chunks read as one buffer (the one itself when there is one). */
export function joined(body: { chunks: Buffer[]; total: number }): Buffer {
  return body.chunks.length === 1 ? body.chunks[0] : Buffer.concat(body.chunks, body.total);
}

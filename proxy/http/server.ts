/**
 * The proxy host: an HTTP server on loopback (by default) in front of the Anthropic and OpenAI
 * APIs, with one Engine (one bounded store and memo) for every client and session it serves.
 */
import { nodeSha256 } from "../../node/sha256.js";
import http, { type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { pipeline } from "node:stream";
import { Engine } from "../../core/index.js";
import { handle } from "./handler.js";
import type { Context } from "./context.js";
import { drain, type DrainOptions } from "./drain.js";
import { resolveOptions, type ProxyOptions, type Resolved } from "../options.js";
import { admit } from "./admission.js";
import { DebugDump } from "../observe/index.js";
import { HostGuard } from "./guard.js";
import { errorBody } from "./refusal.js";
import { proxyArchive } from "../decision/index.js";
import type { ArchiveWriter } from "../../node/archive.js";
import { isLoopback } from "../loopback.js";
import { Observer } from "../observe/index.js";
import { Stats } from "../observe/index.js";
import { adminAccess } from "./access.js";
import { adminTokenFile, ensureAdminToken } from "../../node/admin-token.js";
import { idleCollector, v8Collect } from "./idle-collect.js";
import { endToEnd, newAgents, send, type Agents } from "./upstream.js";
import { ruleText, threadsLine } from "../decision/index.js";

export { nodeSha256 };

export interface RunningProxy {
  /** http://host:port */
  url: string;
  port: number;
  engine: Engine;
  stats: Stats;
  observer: Observer;
  options: Resolved;
  /** The export the engine hands dropped texts to, when asked for (--archive DIR). */
  archive?: ArchiveWriter;
  close(): Promise<void>;
  /** Graceful shutdown: health fails at once, then the proxy stops listening and finishes what is in flight (see drain.ts). */
  drain(o?: DrainOptions): Promise<void>;
}

/** A WebSocket upgrade is not something the proxy speaks: the request goes on as plain HTTP and the upstream's own answer comes back. */
async function refuseUpgrade(req: IncomingMessage, socket: Socket, options: Resolved, agents: Agents, guard: HostGuard): Promise<void> {
  // Once a request asks to upgrade, its socket is ours alone: the HTTP server no longer handles
  // its errors, and a client that resets it (an agent giving up on its WebSocket) must not end the process.
  socket.on("error", () => socket.destroy());
  // Nor does it time it out: a client that keeps its half open after our answer would hold the
  // socket (and a drain waiting on it) for ever, so the answer written is the socket's end.
  const end = (text: string): void => void socket.end(text, () => socket.destroy());
  const a = admit(req, options.upstreams, guard);
  if (a.kind !== "forward") {
    const r = a.kind === "refuse" ? a.refusal : { status: 404, upstream: "openai" as const, type: "not_found", message: "no WebSocket here" };
    const body = errorBody(r.upstream, r.type, r.message);
    return end(`HTTP/1.1 ${r.status} ${http.STATUS_CODES[r.status] ?? ""}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  try {
    const upstream = await send({ agents, url: a.url, method: req.method ?? "GET", headers: req.headers, body: Buffer.alloc(0) });
    if (socket.destroyed) return void upstream.destroy();
    const headers = endToEnd(upstream.headers);
    const lines = [`HTTP/1.1 ${upstream.statusCode} ${upstream.statusMessage ?? ""}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${String(v)}`), "connection: close", "", ""];
    socket.write(lines.join("\r\n"));
    pipeline(upstream, socket, () => socket.destroy());
  } catch {
    if (!socket.destroyed) end("HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
  }
}

/** The token of `/_cliff/`: given, or read from its file (made there at the first start). */
function adminToken(o: ProxyOptions): { token: string; file: string | null } {
  if (o.adminToken !== undefined) return { token: o.adminToken, file: null };
  const env = o.env ?? process.env;
  const file = adminTokenFile(env, o.adminTokenFile);
  // Only the default file's folder is held to 0700: a named one may be a team's, shared on purpose.
  const own = file === adminTokenFile({ ...env, CLIFF_ADMIN_TOKEN_FILE: "" });
  return { token: ensureAdminToken(file, own).token, file };
}

export async function startProxy(o: ProxyOptions = {}): Promise<RunningProxy> {
  const options = resolveOptions(o);
  const archive = proxyArchive(options.config, options.log);
  const engine = new Engine(options.config, { memoMaxBytes: options.memoMaxBytes, digestCacheMaxBytes: options.digestCacheMaxBytes, sha256: nodeSha256, archive: archive?.archive });
  const stats = new Stats();
  const agents = newAgents();
  const loopback = isLoopback(options.host);
  const token = adminToken(o);
  const observer = new Observer({ hash: nodeSha256, keepLastCliff: true, prices: options.prices, maxSessions: options.maxSessions, keepAliveMs: options.keepAliveMs, log: options.log, idleCliffMs: options.idleCliffMs, idleCliffFloor: options.idleCliffFloor, now: options.now });
  let port = options.port;
  const guard = new HostGuard(options.host, options.allowedHosts);
  const debug = options.debugDir === undefined ? null : new DebugDump(options.debugDir);
  const ctx: Context = {
    agents, engine, options, stats, guard, observer, loopback, debug, access: adminAccess(token.token, loopback), adminToken: token.token, draining: false,
    statusExtra: () => ({ listen: `http://${options.host}:${port}`, upstreams: Object.fromEntries(Object.entries(options.upstreams).map(([k, u]) => [k, u.href])), allowedHosts: options.allowedHosts, logFile: options.logFile ?? null, shadow: engine.config.shadow, strict: engine.config.strict, thresholdTokens: engine.config.thresholdTokens, thresholdShare: options.threshold.share ?? null, thresholdRule: options.threshold.rule, thresholdText: ruleText(options.threshold), modelThresholds: options.threshold.modelThresholds ?? [], idleCliffMs: options.idleCliffMs ?? null, idleCliffFloor: options.idleCliffMs === undefined ? null : options.idleCliffFloor, contextWindow: options.threshold.contextWindow ?? null, debugDir: options.debugDir ?? null, adminTokenFile: token.file, threads: options.passThreads ? "pass" : "decline", threadsText: threadsLine(options.passThreads),
      archive: archive === undefined ? null : { dir: archive.dir, ...archive.stats() } }),
    idle: o.idleCollect === undefined ? idleCollector(v8Collect()) : idleCollector(o.idleCollect.collect, o.idleCollect.quietMs),
  };
  const server = http.createServer((req, res) => {
    handle(req, res, ctx).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  server.headersTimeout = options.headersTimeoutMs;
  server.requestTimeout = options.requestTimeoutMs;
  // Upgraded sockets are the server's no longer: tracked here so that a drain's end and close() reach them.
  const upgrades = new Set<Socket>();
  server.on("upgrade", (req, socket: Socket) => {
    upgrades.add(socket);
    socket.once("close", () => upgrades.delete(socket));
    void refuseUpgrade(req, socket, options, agents, guard);
  });
  const closeUpgrades = (): void => upgrades.forEach((s) => s.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`, port, engine, stats, observer, options, archive,
    drain: (o) => drain(server, ctx, observer.events, o, closeUpgrades),
    close: () => new Promise<void>((resolve) => {
      observer.events.close();
      ctx.idle?.stop();
      server.close(() => resolve());
      server.closeAllConnections();
      closeUpgrades();
      agents["http:"].destroy();
      agents["https:"].destroy();
    }),
  };
}

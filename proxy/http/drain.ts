/**
 * Graceful shutdown (`serve` on SIGTERM): the health check fails at once, so a load balancer takes
 * the replica out of rotation while it still serves whatever arrives (each answer closing its
 * connection); after `delayMs` it stops listening, ends the event streams and lets the requests in
 * flight finish, for at most `timeoutMs`, then closes what is left.
 */
import type { Server } from "node:http";

export interface DrainOptions {
  /** How long the health check fails before the proxy stops listening (ms; default 2,000: two checks of deploy/haproxy.cfg). */
  delayMs?: number;
  /** How long the requests in flight may take after that (ms; default 60,000). */
  timeoutMs?: number;
}

export const DRAIN_DELAY_MS = 2_000;
export const DRAIN_TIMEOUT_MS = 60_000;

/** What the handler and the health check read: set once the proxy is told to stop. */
export interface Draining {
  draining: boolean;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** `closeUpgrades` ends the sockets a WebSocket upgrade took from the server (closeAllConnections does not reach them). */
export async function drain(server: Server, state: Draining, events: { close(): void }, o: DrainOptions = {}, closeUpgrades: () => void = () => undefined): Promise<void> {
  state.draining = true;
  await sleep(o.delayMs ?? DRAIN_DELAY_MS);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  events.close();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), o.timeoutMs ?? DRAIN_TIMEOUT_MS)));
  if ((await Promise.race([closed, late])) === "late") {
    server.closeAllConnections();
    closeUpgrades();
  }
  clearTimeout(timer);
  await closed;
}

/**
 * What every request is handled with: the server makes one when it starts and hands it to the
 * handler and to the endpoints the handler calls, which import it from here (not from the handler,
 * which imports them).
 */
import type { Engine } from "../../core/index.js";
import type { DebugDump, Observer, Stats } from "../observe/index.js";
import type { Resolved } from "../options.js";
import type { AdminAccess } from "./access.js";
import type { HostGuard } from "./guard.js";
import type { IdleCollector } from "./idle-collect.js";
import type { Agents } from "./upstream.js";

export interface Context {
  agents: Agents;
  engine: Engine;
  options: Resolved;
  stats: Stats;
  guard: HostGuard;
  observer: Observer;
  /** The proxy listens on a loopback address only. */
  loopback: boolean;
  debug: DebugDump | null;
  /** Who may read what under /_cliff/ (access.ts). */
  access: AdminAccess;
  adminToken: string;
  /** Requests in flight that the collection when quiet waits for (working()). */
  working?: number;
  /** Told to stop: health fails, and each answer closes its connection (see drain.ts). */
  draining: boolean;
  statusExtra: () => Record<string, unknown>;
  /** Collects the heap once the proxy is quiet after a burst (idle-collect.ts). */
  idle?: IdleCollector;
}

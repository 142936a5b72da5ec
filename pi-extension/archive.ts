/**
 * The extension's archive: one folder per Pi session under the agent folder (or under
 * `archiveDir`), so a session's dropped texts sit together and a session's files never crowd
 * out another's within its bound.
 */
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Config } from "../core/index.js";
import { archiveWriter, type ArchiveWriter } from "../node/archive.js";
import { detectHost, type Host } from "./config.js";

type Env = Record<string, string | undefined>;

/** Pi's agent folder: PI_CODING_AGENT_DIR, else ~/.pi/agent (OMP: ~/<PI_CONFIG_DIR or .omp>/agent). */
export function agentDir(env: Env = process.env, home: string = homedir(), host: Host = detectHost()): string {
  if (env.PI_CODING_AGENT_DIR) return env.PI_CODING_AGENT_DIR;
  if (host === "omp") return join(home, env.PI_CONFIG_DIR || ".omp", "agent");
  return join(home, ".pi", "agent");
}

/** A folder name for a session: its id when it is a plain name (Pi's are UUIDs), else the id's hash. */
export function sessionFolderName(id: unknown): string {
  if (typeof id === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(id)) return id;
  return "session-" + createHash("sha256").update(String(id ?? "")).digest("hex").slice(0, 16);
}

/** The id of the session a handler runs in, when the host says. */
function sessionId(ctx: unknown): unknown {
  const sm = (ctx as { sessionManager?: { getSessionId?: () => unknown } } | undefined)?.sessionManager;
  try {
    return sm?.getSessionId?.();
  } catch {
    return undefined;
  }
}

/** The writers of this process, one per session folder; `warn` is told of a folder's first failure. */
export class SessionArchives {
  private readonly writers = new Map<string, ArchiveWriter>();
  /** The writer used last (what /cliff status reports). */
  last: ArchiveWriter | undefined;

  constructor(private readonly warn: (line: string) => void, private readonly env: Env = process.env) {}

  /** The folder a session's archive goes to under `cfg`. */
  folderFor(cfg: Config, ctx: unknown): string {
    return join(cfg.archiveDir || join(agentDir(this.env), "cliffcompaction", "archive"), sessionFolderName(sessionId(ctx)));
  }

  /** The session's writer, or undefined when the archive is off. */
  forSession(cfg: Config, ctx: unknown): ArchiveWriter | undefined {
    if (!cfg.archive) return undefined;
    const dir = this.folderFor(cfg, ctx);
    const key = dir + "\u0000" + cfg.archiveMaxBytes;
    let w = this.writers.get(key);
    if (w === undefined) {
      w = archiveWriter({ dir, maxBytes: cfg.archiveMaxBytes, log: this.warn });
      this.writers.set(key, w);
    }
    this.last = w;
    return w;
  }
}

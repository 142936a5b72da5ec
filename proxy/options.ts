/** The proxy's settings: where it listens, where each API goes, what it logs, and its bounds. */
import { resolveConfig, type Config } from "../core/index.js";
import type { PriceTable } from "./observe/index.js";
import { UPSTREAM_NAMES, type UpstreamName } from "./routes.js";
import type { ModelThreshold } from "../core/models/index.js";
import type { ThresholdPolicy } from "./decision/index.js";

export const DEFAULT_PORT = 8257;
export const DEFAULT_UPSTREAMS: Record<UpstreamName, string> = {
  anthropic: "https://api.anthropic.com", openai: "https://api.openai.com/v1", chatgpt: "https://chatgpt.com",
  gemini: "https://generativelanguage.googleapis.com", vertex: "https://aiplatform.googleapis.com", codeassist: "https://cloudcode-pa.googleapis.com",
};
/** Bodies up to this size are compacted; larger ones stream through untouched, never buffered. */
export const DEFAULT_COMPACT_LIMIT = 64 * 1024 * 1024;
/**
 * The proxy's message memo (the engine's default is 64 MiB). 16 MiB keeps about forty sessions of
 * 200 KB warm; past that a memo of any size cycles, and a request measured afresh costs a few
 * milliseconds (bench: proxy, memory), against about 85 MiB of resident memory a 64 MiB memo held
 * once full (docs/team.md).
 */
export const DEFAULT_PROXY_MEMO_BYTES = 16 * 1024 * 1024;

export interface ProxyOptions {
  config?: Config;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  upstreams?: Partial<Record<UpstreamName, string>>;
  /** Host names the proxy answers to besides its own addresses (a team's proxy behind a load balancer). */
  allowedHosts?: readonly string[];
  /** The threshold as a share of the window of the model each request names, in (0, 1]; absent: config.thresholdTokens for every request. */
  thresholdShare?: number;
  /** Each model gets the default threshold (below its long-context tier, else half its window capped at 200,000) instead of config.thresholdTokens; what serve and run do when no setting names a threshold. */
  defaultThreshold?: boolean;
  /** Globs over the model id with their thresholds (tokens or a share of the window); the first that matches wins over every other rule. */
  modelThresholds?: readonly ModelThreshold[];
  /** After a gap longer than this (ms) a session's next request is cliffed even below the threshold, from `idleCliffFloor` of it (default 0.5); absent: never. */
  idleCliffMs?: number;
  idleCliffFloor?: number;
  /** The clock sessions and idle gaps are measured with (ms; tests pass a fake one). */
  now?: () => number;
  /** The collection when quiet (idle-collect.ts) and its quiet time; tests pass their own. Default: V8's, QUIET_MS. */
  idleCollect?: { collect: () => void; quietMs?: number };
  /** With `thresholdShare`: the minimum gain as a share of each request's threshold (serve and run: 0.1 unless a setting gives the gain). */
  minGainShare?: number;
  /** The window assumed for every model, instead of the table's. */
  contextWindow?: number;
  /** One JSON file per compactable request goes here (messages in and out, never a header). */
  debugDir?: string;
  compactLimitBytes?: number;
  /** Where log lines go (a function per line); none when quiet. */
  log?: (line: string) => void;
  logJson?: boolean;
  /** Shown in /_cliff/status. */
  logFile?: string;
  /** How long a client may take to send its headers, and its whole request (ms). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Engine cache bounds (bytes). */
  memoMaxBytes?: number;
  digestCacheMaxBytes?: number;
  /** Prices (dollars per million tokens) by model, over the built-in table. */
  prices?: PriceTable;
  /** Sessions kept (the one idle longest goes first). */
  maxSessions?: number;
  /** Between keep-alive comments on the event stream (ms). */
  keepAliveMs?: number;
  /** Preserved thinking: ask for invalid thinking blocks to be dropped on changed requests (default on; see preserved-thinking.ts). */
  preservedThinking?: boolean;
  /** A refusal we caused: resend the client's own bytes once when a compacted request gets an unforeseen 4xx (default on; see fallback.ts). */
  fallback?: boolean;
  /**
   * The OpenAI upstream runs remote compaction, as OpenAI's API does and so does a gateway in front
   * of it (default on: an upstream is taken as OpenAI's unless the user says otherwise). Off, with
   * `answerCompaction`, a Responses `compaction_trigger` is answered here, since such an upstream
   * cannot (compaction-answer.ts). OpenAI's and ChatGPT's own hosts always run it.
   */
  remoteCompaction?: boolean;
  /** A client's own compaction request (Claude Code's summary request, Codex's compaction turn) answered by the proxy with the cliff's summary, no model asked (default off; `run` turns it on). */
  answerCompaction?: boolean;
  /** Anthropic's message threads sent on untouched, never compacted (default off: declined, see decision/threads.ts). */
  passThreads?: boolean;
  /** The token `/_cliff/` content asks for; absent: read from (or made in) `adminTokenFile`. */
  adminToken?: string;
  /** Where the token is (`--admin-token-file`); absent: CLIFF_ADMIN_TOKEN_FILE, else the user's state folder. */
  adminTokenFile?: string;
  /** The environment the token's folder is found from (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

export interface Resolved {
  config: Config;
  host: string;
  port: number;
  upstreams: Record<UpstreamName, URL>;
  allowedHosts: readonly string[];
  threshold: ThresholdPolicy;
  debugDir: string | undefined;
  compactLimitBytes: number;
  log: ((line: string) => void) | undefined;
  logJson: boolean;
  logFile: string | undefined;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  memoMaxBytes: number;
  digestCacheMaxBytes: number;
  prices: PriceTable;
  idleCliffMs: number | undefined;
  idleCliffFloor: number;
  now: (() => number) | undefined;
  maxSessions: number | undefined;
  keepAliveMs: number | undefined;
  preservedThinking: boolean;
  fallback: boolean;
  remoteCompaction: boolean;
  answerCompaction: boolean;
  passThreads: boolean;
}

/** A configured upstream that is not an http(s) base URL; `setting` names it. */
export class UpstreamError extends Error {
  constructor(readonly setting: string, message: string) {
    super(message);
    this.name = "UpstreamError";
  }
}

/**
 * A base URL for an upstream, or an error that names where it came from (`source`: a flag, a
 * variable, a file's key). Credentials, a query or a fragment have no place in one.
 */
export function upstreamUrl(name: string, value: string, source = `the ${name} upstream`): URL {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // named below
  }
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") {
    throw new UpstreamError(source, `${source} ${JSON.stringify(value)} is not an http:// or https:// URL (e.g. http://localhost:4000)`);
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new UpstreamError(source, `${source} ${JSON.stringify(value)} must be a plain base URL (no credentials, query or fragment)`);
  }
  return url;
}

export function resolveOptions(o: ProxyOptions): Resolved {
  const up = { ...DEFAULT_UPSTREAMS, ...o.upstreams };
  const config = o.config ?? resolveConfig();
  if (o.thresholdShare !== undefined && !(o.thresholdShare > 0 && o.thresholdShare <= 1)) throw new RangeError(`thresholdShare must be in (0, 1], got ${o.thresholdShare}`);
  if (o.contextWindow !== undefined && !(Number.isSafeInteger(o.contextWindow) && o.contextWindow > 0)) throw new RangeError(`contextWindow must be a whole number > 0, got ${o.contextWindow}`);
  if (o.idleCliffMs !== undefined && !(o.idleCliffMs > 0)) throw new RangeError(`idleCliffMs must be > 0, got ${o.idleCliffMs}`);
  if (o.idleCliffFloor !== undefined && !(o.idleCliffFloor > 0 && o.idleCliffFloor <= 1)) throw new RangeError(`idleCliffFloor must be in (0, 1], got ${o.idleCliffFloor}`);
  return {
    config,
    threshold: {
      rule: o.thresholdShare !== undefined ? "share" : o.defaultThreshold === true ? "default" : "tokens",
      share: o.thresholdShare, tokens: config.thresholdTokens, contextWindow: o.contextWindow, gainShare: o.minGainShare, gainTokens: config.minGainTokens,
      ...(o.modelThresholds !== undefined && o.modelThresholds.length > 0 ? { modelThresholds: o.modelThresholds } : {}),
    },
    debugDir: o.debugDir,
    host: o.host ?? "127.0.0.1",
    port: o.port ?? DEFAULT_PORT,
    upstreams: Object.fromEntries(UPSTREAM_NAMES.map((n) => [n, upstreamUrl(n, up[n])])) as Record<UpstreamName, URL>,
    allowedHosts: o.allowedHosts ?? [],
    compactLimitBytes: o.compactLimitBytes ?? DEFAULT_COMPACT_LIMIT,
    log: o.log,
    logJson: o.logJson === true,
    logFile: o.logFile,
    headersTimeoutMs: o.headersTimeoutMs ?? 30_000,
    requestTimeoutMs: o.requestTimeoutMs ?? 300_000,
    memoMaxBytes: o.memoMaxBytes ?? DEFAULT_PROXY_MEMO_BYTES,
    // node:crypto hashes a text as fast as a table finds it: no digest cache unless asked for.
    digestCacheMaxBytes: o.digestCacheMaxBytes ?? 0,
    prices: o.prices ?? {},
    idleCliffMs: o.idleCliffMs,
    idleCliffFloor: o.idleCliffFloor ?? 0.5,
    now: o.now,
    maxSessions: o.maxSessions,
    keepAliveMs: o.keepAliveMs,
    preservedThinking: o.preservedThinking !== false,
    fallback: o.fallback !== false,
    remoteCompaction: o.remoteCompaction !== false,
    answerCompaction: o.answerCompaction === true,
    passThreads: o.passThreads === true,
  };
}

/** The proxy's settings: where it listens, where each API goes, what it logs, and its bounds. */
import { resolveConfig, type Config } from "../core/index.js";
import type { UpstreamName } from "./routes.js";

export const DEFAULT_PORT = 8257;
export const DEFAULT_UPSTREAMS: Record<UpstreamName, string> = { anthropic: "https://api.anthropic.com", openai: "https://api.openai.com/v1" };
/** Bodies up to this size are compacted; larger ones stream through untouched, never buffered. */
export const DEFAULT_COMPACT_LIMIT = 64 * 1024 * 1024;

export interface ProxyOptions {
  config?: Config;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  upstreams?: Partial<Record<UpstreamName, string>>;
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
}

export interface Resolved {
  config: Config;
  host: string;
  port: number;
  upstreams: Record<UpstreamName, URL>;
  compactLimitBytes: number;
  log: ((line: string) => void) | undefined;
  logJson: boolean;
  logFile: string | undefined;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  memoMaxBytes: number;
  digestCacheMaxBytes: number;
}

/** A base URL for an upstream, or an error that names the setting. */
export function upstreamUrl(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} upstream ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} upstream ${value} must be http or https`);
  return url;
}

export function resolveOptions(o: ProxyOptions): Resolved {
  const up = { ...DEFAULT_UPSTREAMS, ...o.upstreams };
  return {
    config: o.config ?? resolveConfig(),
    host: o.host ?? "127.0.0.1",
    port: o.port ?? DEFAULT_PORT,
    upstreams: { anthropic: upstreamUrl("anthropic", up.anthropic), openai: upstreamUrl("openai", up.openai) },
    compactLimitBytes: o.compactLimitBytes ?? DEFAULT_COMPACT_LIMIT,
    log: o.log,
    logJson: o.logJson === true,
    logFile: o.logFile,
    headersTimeoutMs: o.headersTimeoutMs ?? 30_000,
    requestTimeoutMs: o.requestTimeoutMs ?? 300_000,
    memoMaxBytes: o.memoMaxBytes ?? 64 * 1024 * 1024,
    // node:crypto hashes a text as fast as a table finds it: no digest cache unless asked for.
    digestCacheMaxBytes: o.digestCacheMaxBytes ?? 0,
  };
}

/** What a host may set for an engine and for each request, and what an engine reports of its caches. */
import { ConfigError, type Config } from "../config/index.js";
import type { ArchiveFn } from "../archive.js";
import type { CompactionRequest } from "../dialects/compaction-request.js";
import type { CacheStats } from "./memo.js";
import type { PrefixStore } from "./store.js";

export interface EngineOptions {
  /** A store to share between engines (an empty one is kept, not replaced). */
  store?: PrefixStore;
  /**
   * What the message memo may keep, in estimated bytes (default 64 MiB). 0 keeps nothing by
   * content: every message object not seen before is measured anew.
   */
  memoMaxBytes?: number;
  /**
   * What the cache of digests by canonical text may keep, in estimated bytes. Default: 32 MiB (or
   * memoMaxBytes when smaller) with the core's own SHA-256; 0 with a `sha256` of the host's, since
   * a native hash costs no more than finding the text in a table.
   */
  digestCacheMaxBytes?: number;
  /** @deprecated the earlier name of memoMaxBytes. */
  memoMaxSize?: number;
  /**
   * SHA-256 as lowercase hex. Default: the core's own, in plain JavaScript (it runs in a sandbox);
   * Node hosts pass node:crypto's. Digests, chains and bodies are the same either way.
   */
  sha256?: (text: string) => string;
  /**
   * The host's export, when asked for (core/archive.ts): what a cliff drops is written there too.
   * The summary names each text by its ref whether or not, so warm growth still equals a cold replay.
   */
  archive?: ArchiveFn;
}

/** What the engine keeps, by cache. */
export interface EngineStats {
  memo: CacheStats;
  digests: CacheStats;
  store: CacheStats;
  /** Walks the memo compared since the engine was made. */
  memoComparisons: number;
}

export function byteOption(name: string, v: unknown, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0) return v;
  throw new ConfigError(name, `${name} must be a whole number ≥ 0, got ${String(v)}`);
}

/** What a host may tell the engine about one request beyond its body. */
export interface PrepareOptions {
  /**
   * The session's calibration: the chars/4 estimate is multiplied by it before it is compared with
   * the threshold and the minimum gain (bounded by `boundCalibration`; default 1). It is part of
   * what a stored cliff is keyed by, so a host keeps it fixed between cliffs (see `recalibrate`).
   */
  calibration?: number;
  /**
   * A newer ratio measured from the provider's answers. It is taken only at a cliff: when this
   * request cliffs under `calibration`, it is decided again under `recalibrate` and, if it cliffs
   * under that too, that decision is returned (its `calibration` says so; the host keeps it).
   */
  recalibrate?: number;
  /**
   * The threshold this request is decided against instead of the config's (a host that sizes it
   * from the model's window). It is part of the policy a stored cliff is keyed by, so cliffs made
   * under different thresholds never stand in for each other.
   */
  thresholdTokens?: number;
  /** The minimum gain between cliffs for this request instead of the config's (a host that sizes it from the request's threshold); keyed like the threshold. */
  minGainTokens?: number;
  /**
   * The session was idle longer than the provider's cache lives, so this request re-sends its
   * prefix at full price whatever is sent: cliff it even below the threshold once its estimate
   * (after any stored cliff) reaches this many tokens and the last cliff's floor plus the minimum
   * gain. Such a cliff depends on arrival times, not on the history alone.
   */
  idleFloorTokens?: number;
  /** Apply a stored cliff even when the request fits under the threshold (a session that cliffed after an idle gap goes on from that cliff). */
  keepCliffs?: boolean;
  /**
   * The host recognised a compaction request the body alone does not show (Codex's turn metadata,
   * the `/responses/compact` path): it is never cliffed, as one its body shows is not.
   */
  compactionRequest?: CompactionRequest;
}

function tokensOption(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new ConfigError(name, `${name} must be a whole number ≥ 0, got ${String(v)}`);
  return v;
}

/** The config one request is decided with: the engine's, or a copy with the request's own threshold and minimum gain. */
export function requestConfig(config: Config, thresholdTokens: number | undefined, minGainTokens?: number): Config {
  const t = thresholdTokens === undefined ? config.thresholdTokens : tokensOption("thresholdTokens", thresholdTokens);
  const g = minGainTokens === undefined ? config.minGainTokens : tokensOption("minGainTokens", minGainTokens);
  return t === config.thresholdTokens && g === config.minGainTokens ? config : { ...config, thresholdTokens: t, minGainTokens: g };
}

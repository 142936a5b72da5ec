/** The proxy's counters, as `GET /_cliff/status` shows them. No body or header content is kept. */
import type { Engine } from "../../core/index.js";

import { modelFacts } from "../../core/models/index.js";
import { VERSION } from "../version.js";
import { overTierText, reasonText, type Action, type ThresholdChoice } from "../decision/index.js";

/** How many models' windows the status remembers (the newest ones). */
export const WINDOWS_SHOWN = 32;
/** The longest key the windows table holds. */
export const WINDOW_KEY_MAX = 64;

/**
 * The key a request's model is shown under: the model-facts table's id for it, or `other`. A
 * `model` is client text and may hold anything (megabytes of it): none of it is kept or echoed.
 */
export function windowKey(model: string): string {
  return modelFacts(model)?.id.slice(0, WINDOW_KEY_MAX) ?? "other";
}

/** What the status shows of one model's threshold. */
export interface ModelThresholdView {
  window: number;
  source: string;
  thresholdTokens: number;
  reason: ThresholdChoice["reason"];
  why: string;
  tier: number | null;
  glob?: string;
  warning?: string;
}

export class Stats {
  readonly started = Date.now();
  requests = 0;
  compactable = 0;
  passes = 0;
  cliffs = 0;
  reuses = 0;
  escalations = 0;
  failOpens = 0;
  /** Compacted requests (or their recall rounds) the upstream refused for a reason the proxy caused: resent as the client sent them, or a stream ended without the recall. */
  fallbacks = 0;
  oversize = 0;
  upstreamErrors = 0;
  /** Requests refused before anything was sent (target, Host, Origin). */
  refused = 0;
  /** Requests asking the provider to summarise the history itself (`/responses/compact`), passed through. */
  remoteSummaries = 0;
  tokensSaved = 0;
  /** Compaction requests of the clients answered by the proxy (--answer-compaction), and the tokens those summary calls would have sent. */
  answered = 0;
  answeredTokens = 0;
  inFlight = 0;
  /** Requests in one of Anthropic's message threads: declined (the client resends them whole) or, with --pass-threads, sent on untouched. */
  threadsDeclined = 0;
  threadsPassed = 0;
  /** Strict mode: requests still over the threshold after every rung, answered 400 without asking the upstream. */
  overBudgetRefusals = 0;
  /** Calls of the transform endpoint (`POST /_cliff/v1/compact`), by "api action" (the proxy's own names). */
  readonly compactCalls = new Map<string, number>();
  /** The window and threshold last used for each model and why (a model missing from the table shows source "default"). */
  readonly windows = new Map<string, ModelThresholdView>();
  /** Models already warned of a threshold past their tier (the log says it once). */
  private readonly warned = new Set<string>();

  /**
   * Notes a request's threshold under its model's name (a name the session keys accept, else
   * "other": no body text reaches the status); the first time a model's explicit threshold passes
   * its tier, the warning for the log (else null).
   */
  window(t: ThresholdChoice): string | null {
    const model = windowKey(t.model);
    const warning = t.overTier ? overTierText({ ...t, model }) : undefined;
    this.windows.delete(model);
    this.windows.set(model, {
      window: t.window, source: t.source, thresholdTokens: t.threshold, reason: t.reason, why: reasonText(t),
      tier: t.tier?.above ?? null, ...(t.glob !== undefined ? { glob: t.glob } : {}), ...(warning !== undefined ? { warning } : {}),
    });
    if (this.windows.size > WINDOWS_SHOWN) this.windows.delete(this.windows.keys().next().value as string);
    if (warning === undefined || this.warned.has(model)) return null;
    if (this.warned.size >= 256) this.warned.clear();
    this.warned.add(model);
    return warning;
  }

  count(action: Action, tokensIn: number, tokensOut: number, escalations: number): void {
    this.compactable++;
    if (action === "pass") this.passes++;
    else if (action === "reuse") this.reuses++;
    else if (action === "cliff" || action === "escalate") this.cliffs++;
    else if (action === "fail-open") this.failOpens++;
    else if (action === "refuse") this.overBudgetRefusals++;
    else if (action === "fallback") this.fallbacks++;
    else if (action === "thread-declined") this.threadsDeclined++;
    else if (action === "thread-passed") this.threadsPassed++;
    else if (action === "answered") {
      this.answered++;
      this.answeredTokens += tokensIn;
    } else this.oversize++;
    this.escalations += escalations;
    this.tokensSaved += Math.max(0, tokensIn - tokensOut);
  }

  /** One call of the transform endpoint: `api` one of the three or "none", `action` cliff, reuse, pass, refuse or invalid. */
  compactCall(api: string, action: string): void {
    const key = `${api} ${action}`;
    this.compactCalls.set(key, (this.compactCalls.get(key) ?? 0) + 1);
  }

  status(engine: Engine, extra: Record<string, unknown>): Record<string, unknown> {
    const s = engine.stats();
    return {
      name: "cliffcompaction", version: VERSION, pid: process.pid, uptimeSeconds: Math.round((Date.now() - this.started) / 1000),
      requests: this.requests, compactable: this.compactable, inFlight: this.inFlight,
      passes: this.passes, cliffs: this.cliffs, reuses: this.reuses, escalations: this.escalations,
      failOpens: this.failOpens, fallbacks: this.fallbacks, oversize: this.oversize, upstreamErrors: this.upstreamErrors, refused: this.refused, overBudgetRefusals: this.overBudgetRefusals, remoteSummaries: this.remoteSummaries, tokensSaved: this.tokensSaved,
      answered: this.answered, answeredTokens: this.answeredTokens, threadsDeclined: this.threadsDeclined, threadsPassed: this.threadsPassed,
      store: { entries: s.store.entries, bytes: s.store.bytes, maxEntries: engine.config.storeMaxEntries, maxBytes: engine.config.storeMaxBytes },
      profile: engine.config.profile, keepRecent: engine.config.keepRecent, memo: s.memo, digests: s.digests, windows: Object.fromEntries(this.windows), ...extra,
    };
  }
}

/** The proxy's counters, as `GET /_cliff/status` shows them. No body or header content is kept. */
import type { Engine } from "../core/index.js";

import { VERSION } from "./version.js";

export type Action = "pass" | "reuse" | "cliff" | "escalate" | "fail-open" | "oversize";

export class Stats {
  readonly started = Date.now();
  requests = 0;
  compactable = 0;
  passes = 0;
  cliffs = 0;
  reuses = 0;
  escalations = 0;
  failOpens = 0;
  oversize = 0;
  upstreamErrors = 0;
  /** Requests refused before anything was sent (target, Host, Origin). */
  refused = 0;
  /** Requests asking the provider to summarise the history itself (`/responses/compact`), passed through. */
  remoteSummaries = 0;
  tokensSaved = 0;
  inFlight = 0;

  count(action: Action, tokensIn: number, tokensOut: number, escalations: number): void {
    this.compactable++;
    if (action === "pass") this.passes++;
    else if (action === "reuse") this.reuses++;
    else if (action === "cliff" || action === "escalate") this.cliffs++;
    else if (action === "fail-open") this.failOpens++;
    else this.oversize++;
    this.escalations += escalations;
    this.tokensSaved += Math.max(0, tokensIn - tokensOut);
  }

  status(engine: Engine, extra: Record<string, unknown>): Record<string, unknown> {
    const s = engine.stats();
    return {
      name: "cliffcompaction", version: VERSION, pid: process.pid, uptimeSeconds: Math.round((Date.now() - this.started) / 1000),
      requests: this.requests, compactable: this.compactable, inFlight: this.inFlight,
      passes: this.passes, cliffs: this.cliffs, reuses: this.reuses, escalations: this.escalations,
      failOpens: this.failOpens, oversize: this.oversize, upstreamErrors: this.upstreamErrors, refused: this.refused, remoteSummaries: this.remoteSummaries, tokensSaved: this.tokensSaved,
      store: { entries: s.store.entries, bytes: s.store.bytes, maxEntries: engine.config.storeMaxEntries, maxBytes: engine.config.storeMaxBytes },
      keepRecent: engine.config.keepRecent, memo: s.memo, digests: s.digests, ...extra,
    };
  }
}

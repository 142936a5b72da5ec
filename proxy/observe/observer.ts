/**
 * What the proxy sees of each compactable exchange once it has ended: its session, the engine's
 * decision, the upstream's status and the provider's usage read from the answer. Each one updates
 * its session and the totals and becomes one event. Nothing of a body's text or a header's value
 * is kept, except a session's last cliff when the proxy serves loopback only (see last-cliff.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { getDialect, observedCalibration, summaryMessageText, type Engine, type PrepareContext, type PrepareOptions } from "../../core/index.js";
import { EventHub } from "./events.js";
import { lastCliff } from "./last-cliff.js";
import { cliffRecall, recallEvent } from "./after-cliff/index.js";
import type { RefetchRecord, RequestRecord } from "../decision/index.js";
import { Prices, type PriceTable } from "./prices.js";
import { modelName, requestShape, sessionKey, type RequestShape } from "./session-key.js";
import { Sessions, type Session } from "./sessions.js";
import { addUsage, promptTokens, UsageTap, type Usage } from "./usage.js";

export interface ObserverOptions {
  hash: (text: string) => string;
  /** Keep each session's last cliff (summary and dropped text) for the token-only endpoint. */
  keepLastCliff: boolean;
  prices?: PriceTable;
  maxSessions?: number;
  keepAliveMs?: number;
  /** Where a warning line goes (the proxy's log). */
  log?: (line: string) => void;
  /** After a gap longer than this (ms) a session's next request is cliffed from `idleCliffFloor` of its threshold (absent: never). */
  idleCliffMs?: number;
  idleCliffFloor?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
}

/** Counts by API, for the metrics. */
export interface ApiCounts {
  requests: number;
  /** Thinking blocks the provider dropped (preserved thinking). */
  thinkingDropped: number;
  actions: Record<string, number>;
  escalations: number;
  tokensIn: number;
  tokensOut: number;
  /** The tokens the clients' compaction requests the proxy answered would have sent. */
  answeredTokens: number;
  usage: Usage;
  /** Calls that re-fetched what a cliff dropped (refetches.ts), and the estimated tokens of their results. */
  refetches: number;
  refetchTokens: number;
  /** The model's recalls the proxy answered: calls, the rounds they took, the estimated tokens of their answers. */
  recalls: number;
  recallRounds: number;
  recallTokens: number;
}

/** A session's fallbacks before the proxy warns that it keeps falling back. */
export const FALLBACKS_WARNED = 2;

const zeroUsage = (): Usage => ({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });

export class Observer {
  readonly sessions: Sessions;
  readonly events: EventHub;
  readonly prices: Prices;
  readonly usage: Usage = zeroUsage();
  readonly byApi = new Map<string, ApiCounts>();
  /** The net of every cliff's bill, in dollars (see ledger.ts), over all sessions ever seen. */
  netDollars = 0;
  /** Cliffs whose bill has a dollar figure, over all sessions (none: the net is shown as unknown). */
  pricedCliffs = 0;
  /** Sessions warned that cliffs come as often as the minimum gain allows (the floor warning, once per session). */
  floorWarnings = 0;

  constructor(readonly options: ObserverOptions) {
    this.sessions = new Sessions(options.hash, options.maxSessions);
    this.events = new EventHub(options.keepAliveMs);
    this.prices = new Prices(options.prices);
  }

  /** Session keys found before the engine ran (for calibration), by body. */
  private readonly keys = new WeakMap<object, string | null>();

  private keyOf(engine: Engine, headers: IncomingHttpHeaders, api: string, body: Record<string, unknown>): string | null {
    let key = this.keys.get(body);
    if (key === undefined) {
      const d = getDialect(api);
      const messages = body[d.messagesKey];
      key = sessionKey(headers, body, () => (Array.isArray(messages) && messages.length > 0 ? engine.digest(messages[0], d.name) : null));
      this.keys.set(body, key);
    }
    return key;
  }

  /**
   * What the engine is told beyond the body: with `calibrate`, the session's calibration (fixed
   * between cliffs) and the newest ratio its answers showed (taken at the next cliff).
   */
  prepareOptions(engine: Engine, headers: IncomingHttpHeaders, api: string, body: Record<string, unknown>, thresholdTokens = engine.config.thresholdTokens): PrepareOptions {
    const idle = this.options.idleCliffMs;
    if (!engine.config.calibrate && idle === undefined) return {};
    const key = this.keyOf(engine, headers, api, body);
    const s = key === null ? undefined : this.sessions.byId(this.sessions.idOf(key));
    const out: PrepareOptions = idle === undefined ? {} : { keepCliffs: true };
    // The first request after a gap longer than the cache lives re-sends the prefix at full price anyway.
    if (idle !== undefined && s !== undefined && this.now() - s.lastSeen > idle) out.idleFloorTokens = Math.ceil(thresholdTokens * (this.options.idleCliffFloor ?? 0.5));
    return s === undefined || !engine.config.calibrate ? out : { ...out, calibration: s.calibration, recalibrate: s.observedCalibration ?? undefined };
  }

  now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** A compactable request, as it starts: what can be known before the upstream answers. */
  begin(engine: Engine, headers: IncomingHttpHeaders, api: string, body: Record<string, unknown> | null, prepared: PrepareContext | null, threshold = engine.config.thresholdTokens, minGain = engine.config.minGainTokens): Watched {
    const messages = prepared?.messages ?? [];
    const shape: RequestShape = prepared === null || body === null ? "turn" : requestShape(body, messages, prepared.dialect);
    const key = body === null ? null : this.keyOf(engine, headers, api, body);
    return new Watched(this, engine, api, modelName(body), shape, key, prepared, threshold, minGain);
  }

  apiCounts(api: string): ApiCounts {
    let c = this.byApi.get(api);
    if (c === undefined) {
      c = { requests: 0, thinkingDropped: 0, actions: {}, escalations: 0, tokensIn: 0, tokensOut: 0, answeredTokens: 0, usage: zeroUsage(), refetches: 0, refetchTokens: 0, recalls: 0, recallRounds: 0, recallTokens: 0 };
      this.byApi.set(api, c);
    }
    return c;
  }
}

/** One exchange being watched. */
export class Watched {
  /** One tap per upstream answer: a recall loop's rounds each have their own. */
  private readonly taps: UsageTap[] = [];

  constructor(
    private readonly o: Observer, private readonly engine: Engine, private readonly api: string, private readonly model: string,
    private readonly shape: RequestShape, private readonly key: string | null, private readonly prepared: PrepareContext | null,
    /** The threshold the request was decided against (its model's share of the window, or the configured one). */
    private readonly threshold: number,
    /** The minimum gain it was decided with (a share of that threshold, or the configured one). */
    private readonly minGain: number,
  ) {}

  /** The upstream's answer that goes to the client: its usage is read as it passes (after each chunk went on). */
  read(upstream: IncomingMessage): void {
    const status = upstream.statusCode ?? 0;
    if (status < 200 || status >= 300) return;
    const tap = new UsageTap(String(upstream.headers["content-type"] ?? ""), upstream.headers["content-encoding"] as string | undefined);
    this.taps.push(tap);
    upstream.on("data", (c: Buffer) => tap.push(c));
    upstream.on("end", () => tap.end());
    upstream.on("close", () => tap.end());
  }

  /** The exchange is decided and answered; its record is complete once the answer has ended. */
  end(record: RequestRecord, rung: number): void {
    const taps = this.taps;
    void Promise.all(taps.map((t) => t.done)).then((seen) => this.finish(record, rung, summed(seen), taps[0]?.thinkingDropped ?? 0));
  }

  private finish(r: RequestRecord, rung: number, usage: Usage | null, thinkingDropped: number): void {
    const o = this.o;
    const now = o.now();
    const { session, kind } = o.sessions.find(this.key, this.shape, now);
    const counts = o.apiCounts(this.api);
    counts.requests++;
    counts.actions[r.action] = (counts.actions[r.action] ?? 0) + 1;
    counts.escalations += r.escalations;
    counts.thinkingDropped += thinkingDropped;
    counts.tokensIn += r.tokensIn;
    if (r.action === "answered") counts.answeredTokens += r.tokensIn;
    counts.tokensOut += r.tokensOut;
    if (r.recall !== undefined) {
      counts.recalls += r.recall.calls;
      counts.recallRounds += r.recall.rounds;
      counts.recallTokens += r.recall.tokens;
    }
    if (usage !== null) {
      addUsage(o.usage, usage);
      addUsage(counts.usage, usage);
    }
    const action = kind === "probe" && r.action === "pass" ? "probe" : r.action;
    const before = session?.ledger.total.netDollars ?? 0;
    const pricedBefore = session?.ledger.total.priced ?? 0;
    const recall = cliffRecall(r.recall, this.prepared);
    session?.add({ kind, model: this.model, api: this.api, action, messagesIn: r.messagesIn, messagesOut: r.messagesOut, tokensIn: r.tokensIn, tokensOut: r.tokensOut, usage, price: o.prices.of(this.model), threshold: this.threshold, time: now, thinkingDropped, ...(recall !== null ? { recall } : {}) });
    o.netDollars += (session?.ledger.total.netDollars ?? 0) - before;
    o.pricedCliffs += (session?.ledger.total.priced ?? 0) - pricedBefore;
    if (session !== null && kind === "turn") this.calibrate(session, r, usage);
    if (session !== null && r.action === "fallback") this.fallbackWarning(session, r);
    const cliff = session !== null && kind === "turn" && (r.action === "cliff" || r.action === "escalate");
    if (cliff) this.keepCliff(session, r);
    const floor = cliff ? this.floorWarning(session) : null;
    o.events.publish({
      time: new Date(now).toISOString(), session: session?.id ?? null, api: this.api, model: this.model, action, kind,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      ...(this.engine.config.shadow ? { shadow: true } : {}),
      messagesIn: r.messagesIn, messagesOut: r.messagesOut, tokensIn: r.tokensIn, tokensOut: r.tokensOut,
      rung, escalations: r.escalations, addedMs: Math.round(r.addedMs * 100) / 100, status: r.status, usage,
      ...(thinkingDropped > 0 ? { thinkingDropped } : {}),
      ...(recall !== null ? { recall: recallEvent(recall, session?.recalls ?? null) } : r.recall !== undefined ? { recall: r.recall } : {}),
      ...(floor !== null ? { floor } : {}),
    });
    if (session !== null && kind === "turn" && r.refetches !== undefined) this.refetched(session, counts, r.refetches, now);
  }

  /** The re-fetches not counted before: the session's, the API's, and one `refetch` event. */
  private refetched(session: Session, counts: ApiCounts, r: RefetchRecord, now: number): void {
    const fresh = session.refetches.add(r);
    if (fresh === null) return;
    counts.refetches += fresh.count;
    counts.refetchTokens += fresh.tokens;
    this.o.events.publish({ time: new Date(now).toISOString(), session: session.id, api: this.api, model: this.model, action: "refetch", kind: "refetch", ...fresh });
  }

  /** The ratio of the provider's prompt tokens to the estimate of what was sent; the calibration the engine took. */
  private calibrate(session: Session, r: RequestRecord, usage: Usage | null): void {
    if (!this.engine.config.calibrate) return;
    if (this.prepared !== null) session.calibration = this.prepared.calibration;
    const seen = usage === null ? null : observedCalibration(promptTokens(usage), r.tokensOut);
    if (seen !== null) session.observedCalibration = seen;
  }

  /**
   * Once per session: what stays after its cliff (head + summary + kept tail) is within the
   * minimum gain of the threshold, so cliffs come as often as the minimum gain lets them. Said in
   * the log, in this cliff's event and in the session's status.
   */
  private floorWarning(session: Session): Record<string, number> | null {
    const p = this.prepared;
    if (p === null || "floor" in session.notes) return null;
    const f = p.floor();
    if (f === null) return null;
    const c = p.calibration;
    const floor = { tokens: Math.round(f.tokens * c), head: Math.round(f.head * c), summary: Math.round(f.summary * c), tail: Math.round(f.tail * c), threshold: this.threshold, minGain: this.minGain };
    if (floor.tokens < this.threshold - this.minGain) return null;
    session.notes.floor = floor;
    this.o.floorWarnings++;
    this.o.options.log?.(floorLine(session.id, floor));
    return floor;
  }

  /** Once per session, from its second fallback: the upstream keeps refusing what the proxy sends it. */
  private fallbackWarning(session: Session, r: RequestRecord): void {
    if (session.fallbacks < FALLBACKS_WARNED || "fallback" in session.notes || r.refused === undefined) return;
    session.notes.fallback = { count: session.fallbacks, status: r.refused.status, type: r.refused.type };
    this.o.options.log?.(`${new Date().toISOString()} WARNING session ${session.id}: the upstream refused ${session.fallbacks} of its compacted requests (or their recall rounds) for a reason the proxy caused (last: ${r.refused.status} ${r.refused.type ?? "without a type"}); each time the proxy sent the client's own request instead (or, for a recall round of a streamed answer, ended the answer without the recall), so this session runs uncompacted where that happens: please report it (the status and type, never the body)`);
  }

  private keepCliff(session: Session, r: RequestRecord): void {
    const p = this.prepared;
    if (!this.o.options.keepLastCliff || p === null || p.baseCut <= 0) return;
    this.o.sessions.setLastCliff(session, lastCliff(summaryMessageText(p.substituted[p.baseHead]), p.messages.slice(p.baseHead, p.baseCut), { ...r, cut: p.baseCut, summaryFp: p.summaryFp }));
  }
}

/** Every round's usage added up (null when none was read). */
function summed(seen: readonly (Usage | null)[]): Usage | null {
  const read = seen.filter((u): u is Usage => u !== null);
  if (read.length <= 1) return read[0] ?? null;
  const total = zeroUsage();
  for (const u of read) addUsage(total, u);
  return total;
}

const n = (v: number): string => v.toLocaleString("en-US");

export function floorLine(id: string, f: Record<string, number>): string {
  const where = f.tokens >= f.threshold ? `at or over the threshold (${n(f.threshold)})` : `within the minimum gain (${n(f.minGain)}) of the threshold (${n(f.threshold)})`;
  return `${new Date().toISOString()} WARNING session ${id}: what stays after a cliff is ${n(f.tokens)} tokens (head ${n(f.head)}, summary ${n(f.summary)}, tail ${n(f.tail)}), ${where}: cliffs come as often as the minimum gain (${n(f.minGain)}) allows and the prompt cache rarely hits; raise the threshold or lower keepRecent`;
}

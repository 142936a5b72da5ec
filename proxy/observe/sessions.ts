/**
 * The sessions the proxy has seen, by key (see session-key.ts), each with its counts, the
 * provider's usage, the context of its recent requests and the bill of its cliffs. Probes and side
 * calls are counted apart, never in a session's requests or cliffs, and never open a session; a side
 * call's usage and dollars land on its session. A request with no model turn that is not a side
 * call by its shape is its session's opening turn when the session has had no turn here, else a side
 * call. The table is bounded: past `maxSessions`, the session idle longest goes (and with it what
 * it knew: that session's next request without a model turn opens it again as a turn).
 */
import { stringBytes } from "./kept.js";
import { Ledger } from "./ledger.js";
import { SessionRecalls, SessionRefetches, type CliffRecall } from "./after-cliff/index.js";
import type { LastCliff } from "./last-cliff.js";
import type { Price } from "./prices.js";
import type { RequestKind, RequestShape } from "./session-key.js";
import { addUsage, promptTokens, type Usage } from "./usage.js";

export const MAX_SESSIONS = 1000;
/** Requests whose context each session keeps for its sparkline. */
export const POINTS = 120;
/** What the last cliffs' text may hold over all sessions; past it, the sessions idle longest lose theirs. */
export const LAST_CLIFF_MAX_BYTES = 16 * 1024 * 1024;

export interface Exchange {
  kind: RequestKind;
  model: string;
  api: string;
  action: string;
  messagesIn: number;
  messagesOut: number;
  tokensIn: number;
  tokensOut: number;
  usage: Usage | null;
  price: Price | null;
  /** The threshold the request was decided against. */
  threshold: number;
  time: number;
  /** Thinking blocks the provider dropped from the request (preserved thinking). */
  thinkingDropped?: number;
  /** The model's recalls the proxy answered for it, and the cliff they count against. */
  recall?: CliffRecall;
}

const NEW_CLIFF = new Set(["cliff", "escalate"]);

export class Session {
  model = "";
  api = "";
  readonly started: number;
  lastSeen: number;
  requests = 0;
  cliffs = 0;
  reuses = 0;
  escalations = 0;
  failOpens = 0;
  /** Compacted requests (or their recall rounds) the upstream refused for a reason the proxy caused: resent as the client sent them, or a stream ended without the recall. */
  fallbacks = 0;
  /** Its compaction requests the proxy answered itself (--answer-compaction). */
  answered = 0;
  /** Thinking blocks the provider dropped from this session's requests (their prefix changed at a cliff). */
  thinkingDropped = 0;
  probes = 0;
  /** Its requests in one of Anthropic's message threads (declined, or passed with --pass-threads). */
  threads = 0;
  /** Side calls: requests of the session that are not its turns (a classifier, a title). */
  sideCalls = 0;
  readonly usage: Usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  last = { messagesIn: 0, messagesOut: 0, tokensIn: 0, tokensOut: 0 };
  /** The threshold of its newest request: the ceiling of its context. */
  threshold = 0;
  /** Estimated tokens sent per request, and whether it was a new cliff, newest last. */
  readonly context: number[] = [];
  /** What each of those requests held as the client sent it: the context without compaction. */
  readonly baseline: number[] = [];
  readonly cliffAt: boolean[] = [];
  readonly ledger = new Ledger();
  /** What its requests cost at list prices (the provider's counts × the model's price); null until one was priced. */
  dollars: number | null = null;
  lastCliff: LastCliff | null = null;
  /** With `calibrate`: the ratio its cliffs are decided with (changed only at a cliff), and the newest one its answers showed. */
  calibration = 1;
  observedCalibration: number | null = null;
  /** The calls that re-fetched what its cliffs dropped, by cliff (refetches.ts). */
  readonly refetches = new SessionRefetches();
  /** The model's recalls the proxy answered, by the cliff whose summary named their refs (recalls.ts). */
  readonly recalls = new SessionRecalls();
  /** Anything a host adds for this session (a warning given once, say). */
  readonly notes: Record<string, unknown> = {};

  constructor(readonly id: string, now: number) {
    this.started = this.lastSeen = now;
  }

  add(e: Exchange): void {
    this.lastSeen = e.time;
    this.thinkingDropped += e.thinkingDropped ?? 0;
    if (e.kind === "probe") return void this.probes++;
    // A side call's recalls are paid by its session as its usage is; only a turn's fall in a cliff's bill.
    if (e.recall !== undefined) this.recalls.add(e.recall);
    // A thread's request is no context of its own: a continue holds only the newest messages.
    if (e.action === "thread-declined" || e.action === "thread-passed") {
      this.threads++;
      return this.addCost(e);
    }
    if (e.kind === "side") {
      this.sideCalls++;
      return this.addCost(e);
    }
    this.model = e.model;
    this.api = e.api;
    this.requests++;
    const cliff = NEW_CLIFF.has(e.action);
    if (cliff) this.cliffs++;
    if (e.action === "reuse") this.reuses++;
    if (e.action === "escalate") this.escalations++;
    if (e.action === "fail-open") this.failOpens++;
    if (e.action === "fallback") this.fallbacks++;
    if (e.action === "answered") this.answered++;
    this.addCost(e);
    this.last = { messagesIn: e.messagesIn, messagesOut: e.messagesOut, tokensIn: e.tokensIn, tokensOut: e.tokensOut };
    this.threshold = e.threshold;
    this.context.push(e.tokensOut);
    this.baseline.push(e.tokensIn);
    this.cliffAt.push(cliff);
    if (this.context.length > POINTS) {
      this.context.shift();
      this.baseline.shift();
      this.cliffAt.shift();
    }
    this.ledger.add(cliff, Math.max(0, e.tokensIn - e.tokensOut), e.usage, e.price, e.time, e.recall ?? null);
  }

  /** What the provider counted for the exchange, and its dollars at list prices. */
  private addCost(e: Exchange): void {
    if (e.usage !== null) addUsage(this.usage, e.usage);
    if (e.usage !== null && e.price !== null) this.dollars = (this.dollars ?? 0) + costOf(e.usage, e.price);
  }

  /** Estimated bytes it holds: its fields, its points, its bills, and its last cliff's text. */
  bytes(): number {
    return 600 + this.context.length * 18 + this.ledger.bills.length * 80 + lastCliffBytes(this.lastCliff) + this.refetches.bytes() + this.recalls.bytes();
  }

  /** The session as `/_cliff/status` shows it; `names`: its re-fetched tools' names too (a reader with the token). */
  view(names = false): Record<string, unknown> {
    const prompt = promptTokens(this.usage);
    return {
      id: this.id, model: this.model, api: this.api, requests: this.requests, cliffs: this.cliffs, reuses: this.reuses,
      escalations: this.escalations, failOpens: this.failOpens, fallbacks: this.fallbacks, answered: this.answered, threads: this.threads, thinkingDropped: this.thinkingDropped, probes: this.probes, sideCalls: this.sideCalls,
      usage: { ...this.usage }, dollars: this.dollars, cacheHitRate: prompt > 0 ? this.usage.cacheRead / prompt : null,
      ...this.last, threshold: this.threshold,
      context: [...this.context], cliffAt: this.cliffAt.flatMap((c, i) => (c ? [i] : [])),
      ledger: { ...this.ledger.total, netDollars: this.ledger.total.priced > 0 ? this.ledger.total.netDollars : null, bills: this.ledger.bills.map((b) => ({ ...b, time: new Date(b.time).toISOString(), recalls: { ...b.recalls } })) },
      started: new Date(this.started).toISOString(), lastSeen: new Date(this.lastSeen).toISOString(),
      refetches: this.refetches.view(names), recalls: this.recalls.view(),
      lastCliff: this.lastCliff !== null, calibration: this.calibration, observedCalibration: this.observedCalibration, ...this.notes,
    };
  }
}

/** Dollars of one request's usage at `price` (per million tokens). */
const costOf = (u: Usage, price: Price): number => (u.input * price.input + u.cacheRead * price.cacheRead + u.cacheWrite * price.cacheWrite + u.output * price.output) / 1e6;

/** A last cliff's text, two bytes a character (each a string of its own: last-cliff.ts), and each dropped message's fields. */
export function lastCliffBytes(c: LastCliff | null): number {
  return c === null ? 0 : stringBytes(c.summary) + c.dropped.reduce((n, d) => n + stringBytes(d.text) + stringBytes(d.role) + 64, 0);
}

export class Sessions {
  private readonly byKey = new Map<string, Session>();
  private cliffBytes = 0;
  /** Probes and side calls over all sessions (a keyless one belongs to none). */
  probes = 0;
  sideCalls = 0;

  constructor(private readonly hash: (text: string) => string, private readonly max = MAX_SESSIONS, private readonly maxCliffBytes = LAST_CLIFF_MAX_BYTES) {}

  /** Keeps a session's last cliff within the bound over all sessions (the sessions idle longest lose theirs first). */
  setLastCliff(s: Session, c: LastCliff): void {
    this.cliffBytes += lastCliffBytes(c) - lastCliffBytes(s.lastCliff);
    s.lastCliff = c;
    for (const other of this.byKey.values()) {
      if (this.cliffBytes <= this.maxCliffBytes) break;
      if (other === s || other.lastCliff === null) continue;
      this.cliffBytes -= lastCliffBytes(other.lastCliff);
      other.lastCliff = null;
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The display id of a key: short, stable, and not the key. */
  idOf(key: string): string {
    return this.hash("cliffcompaction session\u0000" + key).slice(0, 10);
  }

  /**
   * The session of `key` and what the request is for it: an `unturned` request is the session's
   * opening turn when it has had no turn here (new or evicted), else a side call. A turn makes its
   * session; a probe or side call of a session not seen finds none.
   */
  find(key: string | null, shape: RequestShape, now: number): { session: Session | null; kind: RequestKind } {
    const id = key === null ? null : this.idOf(key);
    let s = id === null ? undefined : this.byKey.get(id);
    const kind: RequestKind = shape !== "unturned" ? shape : s !== undefined && s.requests > 0 ? "side" : "turn";
    if (kind === "probe") this.probes++;
    if (kind === "side") this.sideCalls++;
    if (id === null) return { session: null, kind };
    if (s !== undefined) this.byKey.delete(id); // re-inserted last: the map's order is idle longest first
    else if (kind === "turn") s = new Session(id, now);
    else return { session: null, kind };
    this.byKey.set(id, s);
    if (this.byKey.size > this.max) {
      const [oldest, gone] = this.byKey.entries().next().value!;
      this.cliffBytes -= lastCliffBytes(gone.lastCliff);
      this.byKey.delete(oldest);
    }
    return { session: s, kind };
  }

  bytes(): number {
    let n = 0;
    for (const s of this.byKey.values()) n += s.bytes();
    return n;
  }

  byId(id: string): Session | undefined {
    return this.byKey.get(id);
  }

  /** Newest first. */
  list(): Session[] {
    return [...this.byKey.values()].reverse();
  }
}

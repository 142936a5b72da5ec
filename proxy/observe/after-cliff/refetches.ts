/**
 * Re-fetches as the proxy shows them: each request's record carries the re-fetches of its newest
 * turn (counts and tool names, never a path or any other text of the body), and each session keeps
 * them by the cliff they follow. A re-fetch is known by its cliff and the message that made it, so
 * a request sent again (a retry, another replica's) counts nothing twice. A tool's name comes from
 * the body, which may make it any length: it is cut to NAME_MAX characters and copied out of the
 * body before it is kept or published (kept.ts), and each session's share is bounded: 32 cliffs,
 * 50 calls listed and 1,024 messages remembered per cliff (a re-fetch past those is not counted).
 */
import type { RefetchesSeen } from "../../../core/index.js";
import type { RefetchRecord } from "../../decision/index.js";
import { keptName, stringBytes } from "../kept.js";

/** Cliffs a session keeps the re-fetches of (the newest), and calls listed per cliff. */
export const REFETCH_CLIFFS = 32;
export const REFETCH_CALLS = 50;
/** Messages a cliff remembers as counted: what keeps a request sent again from counting twice. */
export const REFETCH_MESSAGES = 1024;

export function refetchRecord(seen: RefetchesSeen): RefetchRecord {
  const calls = seen.list.map((r) => ({ tool: keptName(r.tool), tokens: r.tokens, message: r.at }));
  return { cut: seen.cut, summary: seen.summaryFp, count: calls.length, tokens: calls.reduce((n, c) => n + c.tokens, 0), calls };
}

interface CliffRefetches {
  cut: number;
  summary: string;
  count: number;
  tokens: number;
  calls: RefetchRecord["calls"];
  seen: Set<number>;
}

/** One session's re-fetches, by cliff. */
export class SessionRefetches {
  count = 0;
  tokens = 0;
  private readonly cliffs: CliffRefetches[] = [];

  /** Adds a request's re-fetches; returns those not counted before (null: none new). */
  add(r: RefetchRecord): RefetchRecord | null {
    let c = this.cliffs.find((x) => x.cut === r.cut && x.summary === r.summary);
    if (c === undefined) {
      c = { cut: r.cut, summary: r.summary, count: 0, tokens: 0, calls: [], seen: new Set() };
      this.cliffs.push(c);
      if (this.cliffs.length > REFETCH_CLIFFS) this.cliffs.shift();
    }
    const fresh = this.unseen(c, r.calls);
    if (fresh.length === 0) return null;
    for (const call of fresh) {
      c.count++;
      c.tokens += call.tokens;
      if (c.calls.length < REFETCH_CALLS) c.calls.push(call);
    }
    const tokens = fresh.reduce((n, call) => n + call.tokens, 0);
    this.count += fresh.length;
    this.tokens += tokens;
    return { ...r, count: fresh.length, tokens, calls: fresh.slice(0, REFETCH_CALLS) };
  }

  /** The calls of messages this cliff has not counted, each message remembered (up to REFETCH_MESSAGES of them). */
  private unseen(c: CliffRefetches, calls: RefetchRecord["calls"]): RefetchRecord["calls"] {
    const now = new Set<number>();
    return calls.filter((call) => {
      if (now.has(call.message)) return true;
      if (c.seen.has(call.message) || c.seen.size >= REFETCH_MESSAGES) return false;
      c.seen.add(call.message);
      now.add(call.message);
      return true;
    });
  }

  /**
   * As `/_cliff/status` shows it: the totals, and each cliff's (oldest first). A tool's name tells
   * which services a session uses (an MCP server's name): `names` only for a reader with the token.
   */
  view(names: boolean): Record<string, unknown> {
    const calls = (c: CliffRefetches) => c.calls.map((call) => (names ? { ...call } : { tokens: call.tokens, message: call.message }));
    return { count: this.count, tokens: this.tokens, cliffs: this.cliffs.map((c) => ({ cut: c.cut, summary: c.summary, count: c.count, tokens: c.tokens, calls: calls(c) })) };
  }

  bytes(): number {
    return this.cliffs.reduce((n, c) => n + 64 + c.calls.reduce((b, call) => b + 48 + stringBytes(call.tool), 0) + c.seen.size * 16, 0);
  }
}

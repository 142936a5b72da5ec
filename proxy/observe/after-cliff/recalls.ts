/**
 * Recalls as the proxy shows them: each session keeps the model's recalls by the cliff they count
 * against, the one whose summary named the ref: the cliff the request carried (a summary is never
 * compacted again, so it is the session's cliff of that moment). A cliff is known as re-fetches know
 * it (refetches.ts): where its kept tail starts and its summary's fingerprint. Unlike a re-fetch, a
 * recall is never counted once only: each one is a round the upstream answered and billed, a retried
 * request's too. Counts only; a session keeps RECALL_CLIFFS cliffs (the newest), its totals all.
 */
import type { RecallRecord } from "../../decision/index.js";

/** Cliffs a session keeps the recalls of (the newest); the totals count every one. */
export const RECALL_CLIFFS = 32;

/** Recalls, the rounds they took and the estimated tokens of their answers. */
export interface RecallCounts {
  calls: number;
  rounds: number;
  tokens: number;
}

/** One request's recalls and the cliff they count against. */
export interface CliffRecall extends RecallRecord {
  cut: number;
  summary: string;
}

export const noRecalls = (): RecallCounts => ({ calls: 0, rounds: 0, tokens: 0 });

function addTo(to: RecallCounts, r: RecallRecord): void {
  to.calls += r.calls;
  to.rounds += r.rounds;
  to.tokens += r.tokens;
}

/** One session's recalls, by cliff. */
export class SessionRecalls {
  readonly total = noRecalls();
  private readonly cliffs: (RecallCounts & { cut: number; summary: string })[] = [];

  /** Adds a request's recalls; the running counts of its cliff after them. */
  add(r: CliffRecall): RecallCounts {
    let c = this.cliffs.find((x) => x.cut === r.cut && x.summary === r.summary);
    if (c === undefined) {
      c = { cut: r.cut, summary: r.summary, ...noRecalls() };
      this.cliffs.push(c);
      if (this.cliffs.length > RECALL_CLIFFS) this.cliffs.shift();
    }
    addTo(c, r);
    addTo(this.total, r);
    return { calls: c.calls, rounds: c.rounds, tokens: c.tokens };
  }

  /** The recalls counted against one cliff (none: zeros). */
  of(cut: number, summary: string): RecallCounts {
    const c = this.cliffs.find((x) => x.cut === cut && x.summary === summary);
    return c === undefined ? noRecalls() : { calls: c.calls, rounds: c.rounds, tokens: c.tokens };
  }

  /** As `/_cliff/status` shows it: the totals, and each cliff's (oldest first). */
  view(): Record<string, unknown> {
    return { ...this.total, cliffs: this.cliffs.map((c) => ({ ...c })) };
  }

  bytes(): number {
    return this.cliffs.length * 96;
  }
}

/** A request's recalls counted against the cliff it carried (null: none, or no cliff to count them against). */
export function cliffRecall(r: RecallRecord | undefined, carried: { baseCut: number; summaryFp: string } | null): CliffRecall | null {
  return r === undefined || carried === null ? null : { rounds: r.rounds, calls: r.calls, tokens: r.tokens, cut: carried.baseCut, summary: carried.summaryFp };
}

/** What a request's event says of its recalls: its own, its cliff's, and the running counts of that cliff and of its session. */
export function recallEvent(r: CliffRecall, session: SessionRecalls | null): Record<string, unknown> {
  return { ...r, ...(session === null ? {} : { cliff: session.of(r.cut, r.summary), session: { ...session.total } }) };
}

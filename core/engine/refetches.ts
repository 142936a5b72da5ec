/**
 * The re-fetches a request carries (core/refetch.ts), from the request alone: the calls of its
 * newest turn were made against what the same request without that turn sends (what the client
 * sent one request earlier), so they are judged against that request's cliff. Nothing remembered
 * by this process decides it, so a replica that missed requests, or starts cold, counts the same.
 */
import { refetchesIn, type Refetch } from "../refetch.js";
import type { PrepareContext } from "./request.js";
import { newestTurnStart, sentSummary, withoutNewestTurn } from "./verdict.js";

/** The re-fetches of a request's newest turn, and the cliff they repeat what it dropped: where its tail starts, its summary's fingerprint. */
export interface RefetchesSeen {
  cut: number;
  summaryFp: string;
  list: Refetch[];
}

/** The request without its newest turn, prepared once per request for the verdict and the re-fetches. */
export class EarlierRequests {
  private readonly byRequest = new WeakMap<PrepareContext, PrepareContext>();

  of(ctx: PrepareContext, prepare: () => PrepareContext): PrepareContext {
    let e = this.byRequest.get(ctx);
    if (e === undefined) this.byRequest.set(ctx, (e = prepare()));
    return e;
  }
}

/** `prepareEarlier` prepares a body with the same engine and options as `ctx` was (null: no cliff stood before the newest turn). */
export function refetchesOf(ctx: PrepareContext, prepareEarlier: (body: Record<string, unknown>) => PrepareContext): RefetchesSeen | null {
  const start = newestTurnStart(ctx.messages, ctx.dialect);
  if (start === 0) return null;
  const earlier = prepareEarlier(withoutNewestTurn(ctx));
  const summaryText = sentSummary(earlier);
  if (summaryText === "") return null;
  const list = refetchesIn(ctx.messages, ctx.dialect, { headLen: earlier.baseHead, cut: earlier.baseCut, summaryText }, start);
  return { cut: earlier.baseCut, summaryFp: earlier.summaryFp, list };
}

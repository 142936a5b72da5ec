/**
 * What a request is, from the request alone: a `cliff` when the summary it sends differs from the
 * summary the same configuration sends for that request without its newest turn (what the client
 * sent one request earlier), a `reuse` when it sends that same summary again, a `pass` when it goes
 * out unchanged. Nothing remembered by this process decides it (the engine's bodies are a function
 * of the request and the config), so replicas behind a load balancer count alike and their sums
 * equal the distinct summaries the upstream received.
 */
import type { Dialect } from "../dialects/index.js";
import { summaryMessageText } from "../parts/index.js";
import type { PrepareContext } from "./request.js";

export type Verdict = "cliff" | "reuse" | "pass";

/** The summary text `ctx` sends ("" when it sends none). */
export function sentSummary(ctx: PrepareContext): string {
  return ctx.modified && ctx.baseCut > 0 ? summaryMessageText(ctx.substituted[ctx.baseHead]) : "";
}

/** Where the newest turn starts: the last model message that opens a turn (0 when there is none). */
export function newestTurnStart(messages: readonly unknown[], d: Dialect): number {
  for (let i = messages.length - 1; i > 0; i--) if (d.startsTurn(messages[i], messages[i - 1])) return i;
  return 0;
}

/** The request as its client sent it one turn earlier: the same body without its newest turn. */
export function withoutNewestTurn(ctx: PrepareContext): Record<string, unknown> {
  const d = ctx.dialect;
  return { ...ctx.body, [d.messagesKey]: ctx.messages.slice(0, newestTurnStart(ctx.messages, d)) };
}

/** `prepareEarlier` prepares a body with the same engine and options as `ctx` was. */
export function verdictOf(ctx: PrepareContext, prepareEarlier: (body: Record<string, unknown>) => PrepareContext): Verdict {
  const now = sentSummary(ctx);
  if (now === "") return "pass";
  const start = newestTurnStart(ctx.messages, ctx.dialect);
  if (start === 0) return "cliff";
  return sentSummary(prepareEarlier(withoutNewestTurn(ctx))) === now ? "reuse" : "cliff";
}

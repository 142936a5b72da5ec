/**
 * The re-read stubs rule (core/parts/stubbed-reads.ts) on the engine's outgoing request. The engine's
 * summaries are chained: a file read before an earlier cliff is in no summary any more, and a stub
 * may come many requests after the cliff that dropped its read, when a stored cliff is reused. So
 * the files are added to the outgoing summary, from the original history, once the request is
 * decided; the stored and replayed summaries never hold them. Warm and cold requests decide the
 * same cliff, so they add the same files.
 */
import type { Config } from "../config/index.js";
import { stubbedReadParts, stubRulesOn, summaryMessageText } from "../parts/index.js";
import { HEADER_GLUE, joinParts, PART_SEPARATOR, SUMMARY_HEADER } from "../summary.js";
import { fingerprint, outgoingTokens, type RequestState } from "./request.js";
import { recalledParts } from "./recalled.js";

/** The summary message a request had before its files were added, to start a reactive step from. */
const plain = new WeakMap<RequestState, unknown>();

/** Adds the files the request's stubs point at to its outgoing summary (nothing when there are none). */
export function withStubbedReads(ctx: RequestState, cfg: Config): RequestState {
  if (!ctx.modified || ctx.baseCut <= 0) return ctx;
  const stubs = ctx.dialect.name === "anthropic" && stubRulesOn(cfg);
  if (!stubs && !cfg.recallTool) return ctx;
  const summary = ctx.substituted[ctx.baseHead];
  const text = summaryMessageText(summary);
  if (!text.startsWith(SUMMARY_HEADER)) return ctx;
  const files = stubs ? stubbedReadParts(ctx.messages, { headLen: ctx.baseHead, spanFrom: ctx.baseSpan, cut: ctx.baseCut }, cfg, { archive: ctx.archive, sha256: ctx.hash }) : [];
  // Texts the model recalled through the host's tool stay too (recalled.ts), after the files.
  const parts = [...files, ...recalledParts(ctx, cfg)];
  if (parts.length === 0) return ctx;
  plain.set(ctx, summary);
  const joined = text + (text === SUMMARY_HEADER ? HEADER_GLUE : PART_SEPARATOR) + joinParts(parts);
  ctx.substituted = ctx.substituted.slice();
  ctx.substituted[ctx.baseHead] = ctx.dialect.summaryMessage(joined);
  ctx.estTokensOut = outgoingTokens(ctx, ctx.substituted);
  ctx.overBudget = ctx.estTokensOut > ctx.threshold;
  ctx.summaryFp = fingerprint(ctx, joined);
  return ctx;
}

/** The request as it was decided, before its files were added (a reactive step starts from that). */
export function withoutStubbedReads(ctx: RequestState): RequestState {
  const summary = plain.get(ctx);
  if (summary === undefined) return ctx;
  plain.delete(ctx);
  ctx.substituted = ctx.substituted.slice();
  ctx.substituted[ctx.baseHead] = summary;
  ctx.estTokensOut = outgoingTokens(ctx, ctx.substituted);
  ctx.summaryFp = fingerprint(ctx, summaryMessageText(summary));
  return ctx;
}

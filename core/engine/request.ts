/**
 * One request as the engine decides it: what the host sees (`PrepareContext`) and the
 * request-local state behind it (costs, chain, the cut so far), with the arithmetic on both.
 */
import type { Config } from "../config/index.js";
import type { Dialect } from "../dialects/index.js";
import { sendableList } from "../dialects/registry.js";
import type { CompactionRequest } from "../dialects/compaction-request.js";
import { billableChars, bodyChars, tokensOfChars } from "../estimate/estimate.js";
import type { MemoEntry } from "./memo.js";
import type { ArchiveFn } from "../archive.js";

export interface PrepareContext {
  /** The request body as received (never modified). */
  readonly body: Record<string, unknown>;
  readonly dialect: Dialect;
  /** The original message list. */
  readonly messages: readonly unknown[];
  /** The outgoing message list. */
  substituted: unknown[];
  /** The outgoing list differs from the incoming one. */
  modified: boolean;
  /** A compaction ran for this request (not just a stored prefix reused). */
  compacted: boolean;
  /** A stored cliff was reused. */
  matched: boolean;
  /** Where the verbatim tail starts in the original list, and the head length (0 when unmodified). */
  baseCut: number;
  baseHead: number;
  estTokensIn: number;
  estTokensOut: number;
  /** Highest escalation rung that succeeded (0 = none). */
  rung: number;
  /** Still over the threshold after everything allowed. */
  overBudget: boolean;
  /** Compactions the last replay made. */
  chainSteps: number;
  /** First 8 hex digits of the summary text's SHA-256 ("" when none). */
  summaryFp: string;
  /** The multiplier of the chars/4 estimate this request was decided with (1 unless calibrated). */
  calibration: number;
  /** The cliff was made after an idle gap, below the threshold (`PrepareOptions.idleFloorTokens`). */
  idle?: boolean;
  /** The request asks for a compaction (dialects/compaction-request.ts): it goes out as it came, never cliffed. */
  compactionRequest: CompactionRequest | null;
  /** What stays right after the outgoing list's cliff (null when there is none), in estimated tokens. */
  floor(): CliffFloor | null;
  /** The body to send: the original object when nothing changed (or in shadow mode), else a shallow copy. */
  outgoingBody(): Record<string, unknown>;
}

/**
 * What a cliff leaves: the head (the body's fixed part, system prompt and tools, with the messages
 * before the summary), the summary, and the tail the replay had read when it cut, in estimated
 * tokens (`head + summary + tail = tokens`).
 */
export interface CliffFloor {
  tokens: number;
  head: number;
  summary: number;
  tail: number;
}

/** The engine's side of a request. */
export interface RequestState extends PrepareContext {
  /** Billable characters of the body with an empty message list. */
  fixed: number;
  costs: number[];
  entries: MemoEntry[];
  chain: string[] | null;
  index: Map<unknown, number> | null;
  policy: string;
  policyKey: string | null;
  reactiveBaseTried: boolean;
  /** Messages read when the current cut was made. */
  reach: number;
  /** Where the messages the outgoing summary's own parts describe start (earlier ones an earlier cliff dropped). */
  baseSpan: number;
  /** The threshold the request is decided against, in raw estimated tokens (the calibration applied). */
  threshold: number;
  /** The minimum gain between cliffs, in raw estimated tokens (0: none). */
  minGain: number;
  /** The engine's SHA-256 (hex). */
  hash: (text: string) => string;
  /** The engine's archive, when the host gave one. */
  archive?: ArchiveFn;
}

/** A new request state: nothing substituted yet, estimates of the body as received. */
export function newRequest(
  body: Record<string, unknown>, d: Dialect, messages: unknown[], entries: MemoEntry[], fixed: number, policy: string, cfg: Config,
  hash: (text: string) => string, calibration = 1,
): RequestState {
  const costs = entries.map((e) => e.cost);
  const shadow = cfg.shadow;
  const est = tokensOfChars(bodyChars(fixed, costs));
  return {
    body, dialect: d, messages, substituted: messages, modified: false, compacted: false, matched: false,
    compactionRequest: null,
    baseCut: 0, baseHead: 0, estTokensIn: est, estTokensOut: est, rung: 0, overBudget: false, chainSteps: 0, summaryFp: "",
    fixed, costs, entries, chain: null, index: null, policy, policyKey: null, reactiveBaseTried: false, reach: 0, baseSpan: 0,
    // estimate × ratio > threshold ⟺ estimate > ⌊threshold / ratio⌋, for a whole estimate.
    threshold: calibration === 1 ? cfg.thresholdTokens : Math.floor(cfg.thresholdTokens / calibration),
    minGain: calibration === 1 ? cfg.minGainTokens : Math.ceil(cfg.minGainTokens / calibration),
    calibration,
    hash,
    floor() {
      if (this.baseCut <= 0 || !this.modified) return null;
      return cliffFloor(this as RequestState, this.baseHead, billableChars(this.substituted[this.baseHead]), this.baseCut, this.reach);
    },
    outgoingBody() {
      return !this.modified || shadow ? body : { ...body, [d.messagesKey]: sendableList(d, this.substituted, this.baseHead) };
    },
  };
}

/** Body characters for an outgoing list: known messages at their cached cost, new ones (summaries) priced now. */
export function outgoingChars(ctx: RequestState, list: readonly unknown[]): number {
  if (ctx.index === null) {
    const index = new Map<unknown, number>();
    ctx.messages.forEach((m, i) => index.set(m, i));
    ctx.index = index;
  }
  const index = ctx.index;
  return bodyChars(ctx.fixed, list.map((m) => {
    const k = index.get(m);
    return k !== undefined ? ctx.costs[k] : billableChars(m);
  }));
}

/** Estimated tokens of an outgoing list. */
export function outgoingTokens(ctx: RequestState, list: readonly unknown[]): number {
  return tokensOfChars(outgoingChars(ctx, list));
}

/** What `summaryFp` shows of a summary text: the first 8 hex digits of its SHA-256. */
export function fingerprint(ctx: RequestState, text: string): string {
  return ctx.hash(text).slice(0, 8);
}

/** With keepRecent 0 a cut may only fall where a turn ends. */
export function cutAllowed(d: Dialect, msgs: readonly unknown[], cut: number, cfg: Config): boolean {
  return cfg.keepRecent > 0 || cut >= msgs.length || d.startsTurn(msgs[cut], msgs[cut - 1]);
}

/** Body characters right after a cliff: the head, the summary (costing `summaryCost`), and messages [cut, reach). */
export function floorChars(ctx: RequestState, headLen: number, summaryCost: number, cut: number, reach: number): number {
  const costs = ctx.costs.slice(0, headLen);
  costs.push(summaryCost);
  for (let i = cut; i < reach; i++) costs.push(ctx.costs[i]);
  return bodyChars(ctx.fixed, costs);
}

/** `floorChars` in tokens, with what makes it up. */
export function cliffFloor(ctx: RequestState, headLen: number, summaryCost: number, cut: number, reach: number): CliffFloor {
  const tokens = tokensOfChars(floorChars(ctx, headLen, summaryCost, cut, reach));
  const head = tokensOfChars(bodyChars(ctx.fixed, ctx.costs, headLen));
  const summary = Math.min(tokens - head, tokensOfChars(summaryCost));
  return { tokens, head, summary, tail: tokens - head - summary };
}

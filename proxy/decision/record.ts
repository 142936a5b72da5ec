/**
 * What a decision makes of one request: the action it took and the record the log, the stats and
 * the observer read. They live here, beside decide.ts that makes them, so that observe/ (which
 * reads them) imports decision/ and never the other way round.
 */
import type { CompactionRequestBy } from "../../core/index.js";

export type Action = "pass" | "reuse" | "cliff" | "escalate" | "fail-open" | "oversize" | "refuse" | "fallback" | "answered" | "thread-declined" | "thread-passed";

export interface RefetchRecord {
  /** Where the tail of the cliff they follow starts, and its summary's fingerprint: which cliff it was. */
  cut: number;
  summary: string;
  count: number;
  tokens: number;
  /** Each re-fetch: its tool, the tokens its result cost, and the message index of the call. */
  calls: { tool: string; tokens: number; message: number }[];
}

export interface RequestRecord {
  api: string;
  messagesIn: number;
  messagesOut: number;
  tokensIn: number;
  tokensOut: number;
  action: Action;
  /** Escalations after an upstream context-length error. */
  escalations: number;
  /** Milliseconds the proxy added before the request left for the upstream. */
  addedMs: number;
  /** The upstream's status (0 when it could not be reached, or never asked). */
  status: number;
  /** Shadow mode: the counts are what would have been sent; the original was. */
  shadow?: boolean;
  /** A fallback: the upstream's refusal of the compacted body (status and the provider's error type), before the original was sent. */
  refused?: RefusedRecord;
  /** Why a cliff was made below the threshold: the session had been idle longer than the cache lives. */
  reason?: "idle";
  /** Calls of its newest turn that re-fetch what the cliff before them dropped (core/refetch.ts): counts and tool names, never a path. */
  refetches?: RefetchRecord;
  /** The request asks for a compaction (decision/compaction-request.ts), and whose: it is never cliffed. */
  compaction?: CompactionRequestBy;
  /** A request in one of Anthropic's message threads (threads.ts): its thread type, `create` or `continue`. */
  thread?: string;
  /** The model's recalls the proxy answered for this request: rounds sent upstream after the first, calls answered, and the estimated tokens of their answers. */
  recall?: RecallRecord;
  /** Why a request was forwarded as received without a decision (a fail-open), in words that name no session text. */
  failOpen?: string;
}

export interface RefusedRecord {
  status: number;
  type: string | null;
  /** The recall round whose body was refused (1 for the first after the model's first answer); absent: the first body. */
  round?: number;
  /** A streamed answer the client already had part of: it ended with the recall left unanswered, the original never sent. */
  unanswered?: true;
}

export interface RecallRecord {
  rounds: number;
  calls: number;
  tokens: number;
}

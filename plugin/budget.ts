/**
 * The platform's arithmetic: its token estimate and what we can know of its compaction threshold.
 * A summary over half the true threshold is refused, so the threshold is bounded from below.
 */
import type { EnvelopeMessage } from "./envelope.js";

export interface ThresholdFields {
  threshold?: unknown;
  thresholdTokens?: unknown;
  compactionThreshold?: unknown;
}

/** The platform's own estimate: characters / 4, rounded up. */
export const platformTokens = (chars: number): number => Math.ceil(chars / 4);

/** The platform's estimate of a string. */
export const estimateString = (s: string): number => platformTokens(s.length);

/** Characters of the messages' content strings. */
export function contentChars(messages: readonly EnvelopeMessage[], upTo = messages.length): number {
  let chars = 0;
  for (let i = 0; i < upTo; i++) chars += messages[i].content.length;
  return chars;
}

/**
 * Threshold T: a positive finite number the context carries; else a lower bound. Before the newest
 * step (the last assistant message and what followed it) the context was still below T, so the
 * estimate of the messages before it is below T; the handed messages as a whole are not, when
 * that step brought one large message. With no assistant message (`lastAssistant` -1) the newest step
 * is the last message.
 */
export function thresholdOf(context: ThresholdFields, messages: readonly EnvelopeMessage[], lastAssistant: number): number {
  for (const v of [context.threshold, context.thresholdTokens, context.compactionThreshold]) {
    if (typeof v === "number" && isFinite(v) && v > 0) return v;
  }
  return platformTokens(contentChars(messages, lastAssistant < 0 ? messages.length - 1 : lastAssistant));
}

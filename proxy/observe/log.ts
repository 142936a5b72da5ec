/** One log line per compacted-route request: what happened and what it cost, never content or headers. */
import { ruleText, threadsLine, type RefusedRecord, type RequestRecord, type ThresholdPolicy } from "../decision/index.js";

const n = (v: number): string => v.toLocaleString("en-US");

function refusedText(r: RefusedRecord): string {
  const what = r.round === undefined ? "compacted body" : `recall round ${r.round}`;
  return `${what} refused ${r.status} ${r.type ?? "without a type"}: ${r.unanswered === true ? "ended the answer without the recall" : "sent the original"}`;
}

export function logLine(r: RequestRecord, json: boolean, now = new Date()): string {
  if (json) return JSON.stringify({ time: now.toISOString(), ...r, addedMs: Math.round(r.addedMs * 100) / 100 });
  const esc = r.escalations > 0 ? ` after ${r.escalations} escalation(s)` : "";
  const shadow = r.shadow === true ? " (shadow: sent the original)" : "";
  const refused = r.refused === undefined ? "" : ` (${refusedText(r.refused)})`;
  return `${now.toISOString()} ${r.api} ${n(r.messagesIn)}→${n(r.messagesOut)} msgs ${n(r.tokensIn)}→${n(r.tokensOut)} tok ${r.action}${r.failOpen === undefined ? "" : `: ${r.failOpen}, sent as received`}${r.reason === "idle" ? " (idle)" : ""}${r.compaction === undefined ? "" : ` (a compaction request: ${r.compaction})`}${r.thread === undefined ? "" : ` (message thread: ${r.thread})`}${esc}${shadow}${refused} +${r.addedMs.toFixed(1)}ms ${r.status || (r.action === "refuse" ? "not sent" : "no upstream")}`;
}

/** The minimum gain a proxy starts with, in one line (the threshold is on the line before). */
export function gainLine(policy: { rule?: string; share?: number; gainShare?: number; modelThresholds?: readonly unknown[] }, minGainTokens: number): string {
  const perRequest = policy.share !== undefined || policy.rule === "default" || (policy.modelThresholds?.length ?? 0) > 0;
  if (perRequest && policy.gainShare !== undefined) return `no thrash: after a cliff the next waits for growth of ${Math.round(policy.gainShare * 100)}% of the request's threshold past what the cliff left (--min-gain-tokens N to set it)`;
  if (minGainTokens <= 0) return "no thrash: off, every crossing of the threshold cliffs (--min-gain-tokens 0)";
  return `no thrash: after a cliff the next waits for ${n(minGainTokens)} tokens of growth past what it left (--min-gain-tokens)`;
}

/** What serve and run say they run with: the threshold rule, the minimum gain, the idle cliff. */
export function headerLines(o: { threshold: ThresholdPolicy; idleCliffMs?: number; idleCliffFloor?: number; answerCompaction?: boolean; passThreads?: boolean }, minGainTokens: number): string[] {
  const idle = o.idleCliffMs === undefined
    ? "idle cliff: off (--idle-cliff 5m cliffs the first request after a gap longer than the provider's cache lives)"
    : `idle cliff: after a gap over ${Math.round(o.idleCliffMs / 1000)}s the next request is cliffed from ${Math.round((o.idleCliffFloor ?? 0.5) * 100)}% of its threshold (a restart forgets the gap)`;
  const answer = o.answerCompaction === true
    ? "compaction requests: a client's own (Claude Code's /compact, Codex's compaction turn) answered here with the cliff's summary, no model asked (--no-answer-compaction sends them on)"
    : "compaction requests: sent on untouched, never cliffed (--answer-compaction answers a client's own here)";
  return [ruleText(o.threshold), gainLine(o.threshold, minGainTokens), idle, answer, threadsLine(o.passThreads === true)];
}

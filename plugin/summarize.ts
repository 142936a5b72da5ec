/**
 * compaction.summarize for AgentParley: the cliff, mechanically. The task and the recent turns
 * ride verbatim in the envelope; the middle becomes the core's digest; our previous summary is
 * parsed, its task carried forward and its recent turns re-read as live messages, its digest and
 * focus dropped (never compact a compaction).
 */
import {
  canonicalJson,
  getDialect,
  joinedLength,
  joinParts,
  parseFocus,
  planCliff,
  resolveConfig,
  SUMMARY_HEADER,
  type CompactResult,
  type Config,
} from "../core/index";
import { envelopeLength, parseEnvelope, recoverTask, renderEnvelope, type EnvelopeMessage } from "./envelope";

export interface SummarizeContext {
  messages?: unknown;
  focus?: unknown;
  threshold?: unknown;
  thresholdTokens?: unknown;
  compactionThreshold?: unknown;
}

/** Why summarize returned what it did (for the CLI and tests; the platform only sees the string). */
export interface SummarizeReport {
  summary: string;
  /** "" when the platform's own summarizer should run instead, and why. */
  outcome: "summary" | "bad-input" | "nothing-to-gain" | "task-too-large";
  thresholdTokens: number;
  budgetTokens: number;
  summaryTokens: number;
  rung: number;
  repeat: boolean;
  /** The previous envelope failed to parse: "recovered" its task, or the task was "lost". */
  damagedPrevious: "recovered" | "lost" | null;
  taskMessages: number;
  recentMessages: number;
  digestParts: number;
}

const plain = getDialect("plain");

/** The platform's own estimate: characters / 4, rounded up. */
export const platformTokens = (chars: number): number => Math.ceil(chars / 4);

/** The platform's estimate of a string. */
export const estimateString = (s: string): number => platformTokens(s.length);

function contentString(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  try {
    return canonicalJson(v);
  } catch {
    return "";
  }
}

/** Entries as {role, content} strings: non-objects are skipped, a missing role becomes "unknown", non-string content its JSON. */
export function normalizeMessages(raw: unknown[]): EnvelopeMessage[] {
  const out: EnvelopeMessage[] = [];
  for (const m of raw) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) continue;
    const rec = m as Record<string, unknown>;
    out.push({ role: typeof rec.role === "string" && rec.role !== "" ? rec.role : "unknown", content: contentString(rec.content) });
  }
  return out;
}

function contentChars(messages: readonly EnvelopeMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return chars;
}

/** Threshold T: a positive finite number the context carries, else the estimate of the handed messages. */
export function thresholdOf(context: SummarizeContext, messages: EnvelopeMessage[]): number {
  for (const v of [context.threshold, context.thresholdTokens, context.compactionThreshold]) {
    if (typeof v === "number" && isFinite(v) && v > 0) return v;
  }
  return platformTokens(contentChars(messages));
}

function report(partial: Partial<SummarizeReport> & Pick<SummarizeReport, "outcome">): SummarizeReport {
  return {
    summary: "", thresholdTokens: 0, budgetTokens: 0, summaryTokens: 0, rung: 0, repeat: false,
    damagedPrevious: null, taskMessages: 0, recentMessages: 0, digestParts: 0, ...partial,
  };
}

/** The task and the live messages: from our previous envelope on a repeat compaction, else all handed messages. */
function splitPrevious(messages: EnvelopeMessage[]): { task: EnvelopeMessage[] | null; live: EnvelopeMessage[]; repeat: boolean; damaged: SummarizeReport["damagedPrevious"] } {
  if (!messages[0].content.startsWith(SUMMARY_HEADER)) return { task: null, live: messages, repeat: false, damaged: null };
  const previous = parseEnvelope(messages[0].content);
  if (previous !== null) return { task: previous.task, live: previous.recent.concat(messages.slice(1)), repeat: true, damaged: null };
  const recovered = recoverTask(messages[0].content);
  return { task: recovered ?? [], live: messages.slice(1), repeat: true, damaged: recovered === null ? "lost" : "recovered" };
}

/** summarize with a full account of the decision. Throws only on internal faults (summarize() catches them). */
export function summarizeWithReport(context: unknown, config: Config): SummarizeReport {
  const ctx = (context !== null && typeof context === "object" ? context : {}) as SummarizeContext;
  if (!Array.isArray(ctx.messages)) return report({ outcome: "bad-input" });
  const messages = normalizeMessages(ctx.messages);
  if (messages.length === 0) return report({ outcome: "bad-input" });
  const thresholdTokens = thresholdOf(ctx, messages);
  const budgetTokens = Math.floor(config.maxSummaryRatio * thresholdTokens);
  const { task, live, repeat, damaged } = splitPrevious(messages);
  const all = task === null ? live : task.concat(live);

  const focusText = typeof ctx.focus === "string" && ctx.focus.trim() !== "" ? ctx.focus : null;
  let focus = focusText;
  const parts = (r: CompactResult) => ({
    task: r.messages.slice(0, r.headLen) as EnvelopeMessage[],
    recent: r.messages.slice(r.headLen + 1) as EnvelopeMessage[],
  });
  const plan = planCliff(all, plain, config, budgetTokens, {
    headLen: task === null ? undefined : task.length,
    focus: parseFocus(focusText),
    finalKeepRecent: 0,
    mustCompact: true,
    measure: (r) => platformTokens(envelopeLength({ ...parts(r), digestChars: joinedLength(r.parts), focus })),
    // The focus text itself is the one thing we may leave out before cutting the digest.
    shed: () => {
      if (focus === null) return false;
      focus = null;
      return true;
    },
  });
  const counts = { thresholdTokens, budgetTokens, repeat, damagedPrevious: damaged, taskMessages: task?.length ?? 0 };
  const r = plan.result;
  if (r === null) return report({ ...counts, outcome: "nothing-to-gain" });
  const { task: kept, recent } = parts(r);
  const summary = renderEnvelope({ task: kept, digest: joinParts(r.parts), recent, focus });
  const result = { ...counts, taskMessages: kept.length, summaryTokens: estimateString(summary), rung: plan.rung };
  if (result.summaryTokens > budgetTokens) return report({ ...result, outcome: "task-too-large" });
  if (summary.length >= contentChars(messages)) return report({ ...result, outcome: "nothing-to-gain" });
  return report({ ...result, outcome: "summary", summary, recentMessages: recent.length, digestParts: r.parts.length });
}

/** The platform entry point: always a string, "" whenever the platform's own summarizer should run. */
export function summarize(context: unknown, config: Config = resolveConfig()): string {
  try {
    return summarizeWithReport(context, config).summary;
  } catch {
    return "";
  }
}

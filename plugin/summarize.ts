/**
 * compaction.summarize for AgentParley: the cliff, mechanically. The task and the recent turns
 * ride verbatim in the envelope; the middle becomes the core's digest; our previous summary is
 * parsed, its task carried forward and its recent turns re-read as live messages, its digest and
 * focus dropped (never compact a compaction).
 */
import {
  canonicalJson,
  compactToBudget,
  headLength,
  getDialect,
  parseFocus,
  resolveConfig,
  SUMMARY_HEADER,
  HEADER_GLUE,
  type CompactResult,
  type Config,
} from "../core/index";
import { parseEnvelope, recoverTask, renderEnvelope, type EnvelopeMessage } from "./envelope";

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
  outcome: "summary" | "bad-input" | "nothing-to-gain" | "task-too-large" | "error";
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

/** The platform's own estimate of a string. */
export const estimateString = (s: string): number => Math.ceil(s.length / 4);

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

/** Threshold T: a positive finite number the context carries, else the estimate of the handed messages. */
export function thresholdOf(context: SummarizeContext, messages: EnvelopeMessage[]): number {
  for (const v of [context.threshold, context.thresholdTokens, context.compactionThreshold]) {
    if (typeof v === "number" && isFinite(v) && v > 0) return v;
  }
  let chars = 0;
  for (const m of messages) chars += m.content.length;
  return Math.ceil(chars / 4);
}

function report(partial: Partial<SummarizeReport> & Pick<SummarizeReport, "outcome">): SummarizeReport {
  return {
    summary: "", thresholdTokens: 0, budgetTokens: 0, summaryTokens: 0, rung: 0, repeat: false,
    damagedPrevious: null, taskMessages: 0, recentMessages: 0, digestParts: 0, ...partial,
  };
}

/** summarize with a full account of the decision. Throws only on internal faults (summarize() catches them). */
export function summarizeWithReport(context: unknown, config: Config): SummarizeReport {
  const ctx = (context !== null && typeof context === "object" ? context : {}) as SummarizeContext;
  if (!Array.isArray(ctx.messages)) return report({ outcome: "bad-input" });
  const messages = normalizeMessages(ctx.messages);
  if (messages.length === 0) return report({ outcome: "bad-input" });
  const thresholdTokens = thresholdOf(ctx, messages);
  const budgetTokens = Math.floor(config.maxSummaryRatio * thresholdTokens);
  const base = { thresholdTokens, budgetTokens };

  let task: EnvelopeMessage[];
  let live: EnvelopeMessage[];
  let damagedPrevious: SummarizeReport["damagedPrevious"] = null;
  const repeat = messages[0].content.startsWith(SUMMARY_HEADER);
  if (repeat) {
    const previous = parseEnvelope(messages[0].content);
    if (previous !== null) {
      task = previous.task;
      live = previous.recent.concat(messages.slice(1));
    } else {
      const recovered = recoverTask(messages[0].content);
      damagedPrevious = recovered === null ? "lost" : "recovered";
      task = recovered ?? [];
      live = messages.slice(1);
    }
  } else {
    const head = headLength(messages, plain);
    if (head === null) return report({ ...base, outcome: "nothing-to-gain" });
    task = messages.slice(0, head);
    live = messages.slice(head);
  }

  const focusText = typeof ctx.focus === "string" && ctx.focus.trim() !== "" ? ctx.focus : null;
  const focus = parseFocus(focusText);
  const all: EnvelopeMessage[] = task.concat(live);
  const envelopeOf = (r: CompactResult, withFocus: boolean): string =>
    renderEnvelope({
      task,
      digest: r.summaryText === SUMMARY_HEADER ? "" : r.summaryText.slice(SUMMARY_HEADER.length + HEADER_GLUE.length),
      recent: r.messages.slice(r.headLen + 1) as EnvelopeMessage[],
      focus: withFocus ? focusText : null,
    });

  let withFocus = focusText !== null;
  let ladder = compactToBudget(all, plain, config, budgetTokens, {
    headLen: task.length,
    focus,
    finalKeepRecent: 0,
    mustCompact: true,
    measure: (r) => estimateString(envelopeOf(r, withFocus)),
  });
  if (ladder.result !== null && ladder.overBudget && withFocus) {
    // The focus text itself is the one thing we may leave out before giving up.
    withFocus = false;
    ladder = compactToBudget(all, plain, config, budgetTokens, {
      headLen: task.length,
      focus,
      finalKeepRecent: 0,
      mustCompact: true,
      measure: (r) => estimateString(envelopeOf(r, false)),
    });
  }
  const r = ladder.result;
  const counts = { ...base, repeat, damagedPrevious, taskMessages: task.length };
  if (r === null) return report({ ...counts, outcome: "nothing-to-gain" });
  const summary = envelopeOf(r, withFocus);
  const summaryTokens = estimateString(summary);
  if (summaryTokens > budgetTokens) return report({ ...counts, outcome: "task-too-large", summaryTokens, rung: ladder.rung });
  let handed = 0;
  for (const m of messages) handed += m.content.length;
  if (summary.length >= handed) return report({ ...counts, outcome: "nothing-to-gain", summaryTokens, rung: ladder.rung });
  return report({
    ...counts,
    outcome: "summary",
    summary,
    summaryTokens,
    rung: ladder.rung,
    recentMessages: r.messages.length - r.headLen - 1,
    digestParts: r.parts.length,
  });
}

/** The platform entry point: always a string, "" whenever the platform's own summarizer should run. */
export function summarize(context: unknown, config: Config = resolveConfig()): string {
  try {
    return summarizeWithReport(context, config).summary;
  } catch {
    return "";
  }
}

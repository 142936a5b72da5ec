/**
 * compaction.summarize for AgentParley: the cliff, mechanically. The task and the recent turns
 * ride verbatim in the envelope; the middle becomes the core's digest; the files read and modified
 * are carried forward; our previous summary is parsed, its task and file lists carried forward and
 * its recent turns re-read as live messages, its digest and focus dropped (never compact a compaction).
 */
// The plugin imports core modules, not the index, so its bundle carries only the dialect it uses.
import { resolveConfig, type Config } from "../core/config/index.js";
import { plain } from "../core/dialects/plain.js";
import { filesTouched, filesTouchedInPlan, FileTracker } from "../core/files.js";
import { parseFocus } from "../core/focus.js";
import { canonicalJson } from "../core/estimate/json.js";
import { planCliff } from "../core/ladder.js";
import { headOf, PartsCache } from "../core/compact.js";
import { joinParts } from "../core/summary.js";
import { contentChars, estimateString, platformTokens, thresholdOf, type ThresholdFields } from "./budget.js";
import { envelopeRole, renderEnvelope, type EnvelopeMessage } from "./envelope.js";
import { findPrevious } from "./envelope-find.js";
import { EnvelopeSizer, timeGuard, TimeUp, type Clock, type Guard } from "./sizer.js";
import type { Dialect } from "../core/dialects/types.js";

export { estimateString, platformTokens, thresholdOf } from "./budget.js";

export interface SummarizeContext extends ThresholdFields {
  messages?: unknown;
  focus?: unknown;
}

/** Why summarize returned what it did (for the CLI and tests; the platform only sees the string). */
export interface SummarizeReport {
  summary: string;
  /** "" when the platform's own summarizer should run instead, and why. */
  outcome: "summary" | "bad-input" | "nothing-to-gain" | "task-too-large" | "time-limit";
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
  /** Files listed in the envelope. */
  filesRead: number;
  filesModified: number;
  /** Candidates the ladder sized (arithmetically; the envelope is rendered once). */
  probes: number;
}

export interface SummarizeOptions {
  /** Milliseconds now; summarize gives up (returns "") once `timeLimitMs` have passed. */
  now?: Clock;
  /** Default 60 s, well inside the platform's 120. */
  timeLimitMs?: number;
}

const isAssistant = (m: EnvelopeMessage): boolean => plain.isAssistant(m);

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
    // What an absurd role becomes is decided here, before it is written anywhere.
    out.push({ role: typeof rec.role === "string" && rec.role !== "" ? envelopeRole(rec.role) : "unknown", content: contentString(rec.content) });
  }
  return out;
}

function report(partial: Partial<SummarizeReport> & Pick<SummarizeReport, "outcome">): SummarizeReport {
  return {
    summary: "", thresholdTokens: 0, budgetTokens: 0, summaryTokens: 0, rung: 0, repeat: false, damagedPrevious: null,
    taskMessages: 0, recentMessages: 0, digestParts: 0, filesRead: 0, filesModified: 0, probes: 0, ...partial,
  };
}

interface Previous {
  task: EnvelopeMessage[] | null;
  live: EnvelopeMessage[];
  repeat: boolean;
  damaged: SummarizeReport["damagedPrevious"];
  files: FileTracker;
}

/**
 * The task, the live messages and the carried file lists: from our previous envelope on a repeat
 * compaction, wherever the platform put it in messages[0]; what it put around it is dropped.
 */
function splitPrevious(messages: EnvelopeMessage[]): Previous {
  const files = new FileTracker();
  const found = findPrevious(messages[0].content);
  if (!found.ours) return { task: null, live: messages, repeat: false, damaged: null, files };
  const previous = found.env;
  if (previous !== null) {
    // Lists are written newest first; the tracker takes the oldest first.
    if (previous.files !== undefined) files.add(previous.files.read.slice().reverse(), previous.files.modified.slice().reverse());
    return { task: previous.task, live: previous.recent.concat(messages.slice(1)), repeat: true, damaged: null, files };
  }
  const recovered = found.recovered;
  return { task: recovered ?? [], live: messages.slice(1), repeat: true, damaged: recovered === null ? "lost" : "recovered", files };
}

/** summarize with a full account of the decision. Throws only on internal faults (summarize() catches them). */
export function summarizeWithReport(context: unknown, config: Config, options: SummarizeOptions = {}): SummarizeReport {
  const now = options.now ?? (() => Date.now());
  const guard = timeGuard(now, now() + (options.timeLimitMs ?? 60_000));
  const ctx = (context !== null && typeof context === "object" ? context : {}) as SummarizeContext;
  if (!Array.isArray(ctx.messages)) return report({ outcome: "bad-input" });
  const messages = normalizeMessages(ctx.messages);
  if (messages.length === 0) return report({ outcome: "bad-input" });
  const thresholdTokens = thresholdOf(ctx, messages, isAssistant);
  const budgetTokens = Math.floor(config.maxSummaryRatio * thresholdTokens);
  let base: Base = { thresholdTokens, budgetTokens, repeat: false, damagedPrevious: null, taskMessages: 0 };
  try {
    guard.tick();
    const previous = splitPrevious(messages);
    base = { ...base, repeat: previous.repeat, damagedPrevious: previous.damaged, taskMessages: previous.task?.length ?? 0 };
    return decide(ctx, config, messages, previous, base, guard);
  } catch (e) {
    if (e instanceof TimeUp) return report({ ...base, outcome: "time-limit" });
    throw e;
  }
}

/** The plain dialect with the time guard stepping once per message the core summarises. */
function guarded(guard: Guard): Dialect {
  const d: Dialect = Object.create(plain);
  d.summarize = (m, c) => {
    guard.step();
    return plain.summarize(m, c);
  };
  return d;
}

type Base = Pick<SummarizeReport, "thresholdTokens" | "budgetTokens" | "repeat" | "damagedPrevious" | "taskMessages">;

function decide(ctx: SummarizeContext, config: Config, messages: EnvelopeMessage[], previous: Previous, base: Base, guard: Guard): SummarizeReport {
  const { task, live } = previous;
  const all = task === null ? live : task.concat(live);
  const focusText = typeof ctx.focus === "string" && ctx.focus.trim() !== "" ? ctx.focus : null;
  // One cache for every pass over these messages: the file lists and each rung decode them once.
  const partsCache = new PartsCache();
  const focus = parseFocus(focusText);
  const dialect = guarded(guard);
  const headLen = headOf(all, dialect, { headLen: task === null ? undefined : task.length });
  // Where the rungs reuse parts, the file-list pass is also the first rung's: its parts are made once, there.
  if (PartsCache.reusable(config) && headLen !== null) filesTouchedInPlan(all, headLen, dialect, config, partsCache, previous.files);
  else filesTouched(live, dialect, previous.files, partsCache.decoded);
  guard.tick();
  const sizer = new EnvelopeSizer(all, previous.files.newest(config.filesMaxPaths, config.filesMaxChars), focusText, guard);
  // What the platform replaces is every handed message, our previous envelope included: a candidate
  // fits when it is within the budget and smaller than that.
  const handed = contentChars(messages);
  const plan = planCliff(all, dialect, config, Math.min(base.budgetTokens, platformTokens(handed) - 1), {
    headLen: headLen ?? undefined,
    focus,
    finalKeepRecent: 0,
    mustCompact: true,
    hostJudgesGain: true,
    partsCache,
    measure: (r) => sizer.tokens(r),
    shed: (excess) => sizer.shed(excess),
    // The task is never cut: when it alone does not fit the platform's budget, no rung runs.
    floor: (headLen) => (sizer.taskAloneTokens(headLen) > base.budgetTokens ? Infinity : 0),
  });
  if (plan.headOverBudget === true) return report({ ...base, outcome: "task-too-large" });
  const r = plan.result;
  if (r === null) return report({ ...base, probes: sizer.probes, outcome: "nothing-to-gain" });
  // The plan's size is known by arithmetic: a summary the budget refuses is never rendered.
  if (plan.estTokens > base.budgetTokens) return report({ ...base, rung: plan.rung, probes: sizer.probes, outcome: "task-too-large" });
  const kept = all.slice(0, r.headLen);
  const recent = all.slice(r.cut);
  const summary = renderEnvelope({ task: kept, digest: joinParts(r.parts), recent, files: sizer.files, focus: sizer.focus });
  const result = { ...base, taskMessages: kept.length, summaryTokens: estimateString(summary), rung: plan.rung, probes: sizer.probes };
  if (result.summaryTokens > base.budgetTokens) return report({ ...result, outcome: "task-too-large" });
  if (summary.length >= handed) return report({ ...result, outcome: "nothing-to-gain" });
  const files = { filesRead: sizer.files.read.length, filesModified: sizer.files.modified.length };
  return report({ ...result, ...files, outcome: "summary", summary, recentMessages: recent.length, digestParts: r.parts.length });
}

/** The platform entry point: always a string, "" whenever the platform's own summarizer should run. */
export function summarize(context: unknown, config: Config = resolveConfig()): string {
  try {
    return summarizeWithReport(context, config).summary;
  } catch {
    return "";
  }
}

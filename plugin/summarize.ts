/**
 * compaction.summarize for AgentParley: the cliff, mechanically. The task and the recent turns
 * ride verbatim in the envelope; the middle becomes the core's digest; the files read and modified
 * are carried forward; our previous summary is parsed, its task and file lists carried forward and
 * its recent turns re-read as live messages, its digest and focus dropped (never compact a compaction).
 */
// The plugin reaches the core through its platform entry, which carries only the plain dialect.
import { BUILD_CONFIG, handOff, platformMessages, type Config, type FileLists } from "../core/platform/index.js";
import { contentChars, estimateString, platformTokens, thresholdOf, type ThresholdFields } from "./budget.js";
import { envelopeRole, renderEnvelope, type EnvelopeMessage } from "./envelope.js";
import { findPrevious } from "./envelope-find.js";
import { EnvelopeSizer, timeGuard, TimeUp, type Clock, type Guard } from "./sizer.js";

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

/** Entries as {role, content} strings: non-objects are skipped, a missing role becomes "unknown", non-string content its JSON. */
// What an absurd role becomes is decided here, before it is written anywhere.
export const normalizeMessages = (raw: unknown[]): EnvelopeMessage[] => platformMessages(raw, envelopeRole).messages;

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
  files?: FileLists;
}

/**
 * The task, the live messages and the carried file lists: from our previous envelope on a repeat
 * compaction, wherever the platform put it in messages[0]; what it put around it is dropped.
 */
function splitPrevious(messages: EnvelopeMessage[]): Previous {
  const found = findPrevious(messages[0].content);
  if (!found.ours) return { task: null, live: messages, repeat: false, damaged: null };
  const previous = found.env;
  if (previous !== null) return { task: previous.task, live: previous.recent.concat(messages.slice(1)), repeat: true, damaged: null, files: previous.files };
  const recovered = found.recovered;
  return { task: recovered ?? [], live: messages.slice(1), repeat: true, damaged: recovered === null ? "lost" : "recovered" };
}

// The AgentParley sandbox build (build.mjs defines this) leaves ref lines out of the core itself.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** summarize with a full account of the decision. Throws only on internal faults (summarize() catches them). */
export function summarizeWithReport(context: unknown, config: Config, options: SummarizeOptions = {}): SummarizeReport {
  const now = options.now ?? (() => Date.now());
  const guard = timeGuard(now, now() + (options.timeLimitMs ?? 60_000));
  const ctx = (context !== null && typeof context === "object" ? context : {}) as SummarizeContext;
  if (!Array.isArray(ctx.messages)) return report({ outcome: "bad-input" });
  const { messages, lastAssistant } = platformMessages(ctx.messages, envelopeRole);
  if (messages.length === 0) return report({ outcome: "bad-input" });
  const thresholdTokens = thresholdOf(ctx, messages, lastAssistant);
  const budgetTokens = Math.floor(config.maxSummaryRatio * thresholdTokens);
  // AgentParley has no recall tool to answer a ref: the plugin's summaries name none (the sandbox build has no ref lines at all).
  if ((typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) && config.refs) config = { ...config, refs: false };
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

const TOO_LARGE = "task-too-large";
const NOTHING = "nothing-to-gain";

type Base = Pick<SummarizeReport, "thresholdTokens" | "budgetTokens" | "repeat" | "damagedPrevious" | "taskMessages">;

function decide(ctx: SummarizeContext, config: Config, messages: EnvelopeMessage[], previous: Previous, base: Base, guard: Guard): SummarizeReport {
  const { task, live } = previous;
  const all = task === null ? live : task.concat(live);
  const focus = typeof ctx.focus === "string" && ctx.focus.trim() !== "" ? ctx.focus : null;
  // Made by handOff's call of `fit`, before it plans: set whenever handOff returns.
  let sizer!: EnvelopeSizer;
  // What the platform replaces is every handed message, our previous envelope included: a candidate
  // fits when it is within the budget and smaller than that.
  const handed = contentChars(messages);
  const plan = handOff({
    messages: all,
    taskLength: task?.length,
    files: previous.files,
    focus,
    budget: base.budgetTokens,
    replaces: platformTokens(handed),
    fit: (files) => (sizer = new EnvelopeSizer(all, files, focus, guard)),
    step: guard.step,
  }, config);
  const probes = sizer.probes;
  if (plan === null || plan.kept === undefined) return report({ ...base, rung: plan?.rung ?? 0, probes, outcome: plan === null ? NOTHING : TOO_LARGE });
  const summary = renderEnvelope({ task: plan.head, digest: plan.digest, recent: plan.kept, files: sizer.files, focus: sizer.focus });
  const result = { ...base, taskMessages: plan.head.length, summaryTokens: estimateString(summary), rung: plan.rung, probes };
  // Checked on the rendered text as well: what the platform measures is that.
  const refused = result.summaryTokens > base.budgetTokens ? TOO_LARGE : summary.length >= handed ? NOTHING : null;
  if (refused !== null) return report({ ...result, outcome: refused });
  const files = { filesRead: sizer.files.read.length, filesModified: sizer.files.modified.length };
  return report({ ...result, ...files, outcome: "summary", summary, recentMessages: plan.kept.length, digestParts: plan.parts });
}

/** The platform entry point: always a string, "" whenever the platform's own summarizer should run. */
export function summarize(context: unknown, config: Config = BUILD_CONFIG): string {
  try {
    return summarizeWithReport(context, config).summary;
  } catch {
    return "";
  }
}

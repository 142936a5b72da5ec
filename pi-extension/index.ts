/**
 * cliffcompaction for Pi and OMP: answers session_before_compact with a mechanical cliff, and
 * session_before_tree with a mechanical branch summary, so neither costs a model call. Only type imports from Pi, so the same file loads in Pi 0.73+,
 * Pi 1.x and OMP. Fails open: whenever it cannot do better, it returns nothing and Pi's own
 * compaction runs.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { loadConfig, type LoadedConfig } from "./config.js";
import { compactSession, type CompactReason } from "./hook.js";
import { agentDir, SessionArchives } from "./archive.js";
import { overrideOf, rivalHandlers, rivalLines, type Override } from "./rivals.js";
import { summarizeBranch } from "./branch.js";
import { statusLines, type LastBranch, type LastCliff } from "./status.js";
import { branchRefetches, refetchLine } from "./refetches.js";
import { liveFromEntries } from "../core/pi/session.js";
import { addCarriedFiles, FileTracker } from "../core/files.js";
import { warmingDecision } from "./warming.js";
import { registerRecallTool } from "./recall.js";

const STATUS_KEY = "cliff";

interface UiLike {
  notify?(message: string, type?: "info" | "warning" | "error"): void;
  setStatus?(key: string, text: string | undefined): void;
}

function ui(ctx: unknown): UiLike {
  const u = (ctx as { ui?: UiLike } | undefined)?.ui;
  return u ?? {};
}

function toReason(v: unknown): CompactReason | undefined {
  if (v === "overflow" || v === "incomplete") return "overflow";
  if (v === "threshold" || v === "idle") return "threshold";
  if (v === "manual") return "manual";
  return undefined;
}

function carried(entries: readonly unknown[], preparation: unknown): FileTracker {
  const tracker = new FileTracker();
  addCarriedFiles(tracker, entries, preparation);
  return tracker;
}

/** What the extension remembers between events. */
interface State {
  loaded: LoadedConfig;
  last: LastCliff | undefined;
  /** Hosts that send no reason with the event (Pi 0.73, OMP) announce automatic compactions first. */
  pendingReason: CompactReason;
  reportedProblems: boolean;
  lastBranch: LastBranch | undefined;
  archives: SessionArchives;
  /** The UI of the event being handled: where an archive failure is told. */
  ui: UiLike;
  /** The summary of the compaction we answered, until Pi says what it wrote. */
  answered: string | undefined;
  /** The last compaction we answered that another handler's answer replaced. */
  overridden: Override | undefined;
}

/** The other extensions Pi would load that answer session_before_compact (never fails: a status line is no reason to throw). */
function rivals(ctx: unknown): string[] {
  try {
    const cwd = (ctx as { cwd?: unknown } | undefined)?.cwd;
    return rivalHandlers({ agentDir: agentDir(), cwd: typeof cwd === "string" ? cwd : undefined, argv: process.argv });
  } catch {
    return [];
  }
}

/** The branch Pi keeps for this session (empty when the context has no session manager). */
function branchOf(ctx: unknown): unknown[] {
  try {
    const b = (ctx as { sessionManager?: { getBranch?: () => unknown } } | undefined)?.sessionManager?.getBranch?.();
    return Array.isArray(b) ? b : [];
  } catch {
    return [];
  }
}

function status(state: State, ctx: unknown): string {
  const refetched = refetchLine(branchRefetches(branchOf(ctx)));
  return statusLines(state.loaded, state.last, state.lastBranch, state.archives.last, [...(refetched === "" ? [] : [refetched]), ...rivalLines(rivals(ctx), state.overridden)]);
}

/** Pi wrote a compaction (or gave up on one) after we answered: was it ours? */
function settled(state: State, outcome: Override["outcome"] | null, ctx: unknown): void {
  state.answered = undefined;
  if (outcome === null) return;
  state.overridden = { at: new Date().toISOString(), outcome };
  const named = rivals(ctx);
  ui(ctx).notify?.(rivalLines(named, state.overridden).join("\n"), "warning");
}

function reportProblems(state: State, ctx: unknown): void {
  if (state.reportedProblems || state.loaded.problems.length === 0) return;
  state.reportedProblems = true;
  ui(ctx).notify?.(`cliffcompaction config: ${state.loaded.problems.join("; ")}`, "warning");
}

/** The answer to session_before_compact: our compaction, a cancel in shadow mode, or nothing (Pi's own runs). */
function beforeCompact(state: State, event: any, ctx: unknown): unknown {
  const u = (state.ui = ui(ctx));
  reportProblems(state, ctx);
  const cfg = state.loaded.config;
  if (!cfg.enabled) return undefined;
  const explicit = toReason(event?.reason);
  const reason: CompactReason = explicit !== undefined && explicit !== "manual" ? explicit : explicit ?? state.pendingReason;
  state.pendingReason = "manual";
  try {
    const entries: unknown[] = Array.isArray(event?.branchEntries) ? event.branchEntries : [];
    const instructions = typeof event?.customInstructions === "string" && event.customInstructions.trim() !== "" ? event.customInstructions : undefined;
    // Shadow mode changes nothing, so it keeps nothing either.
    const archive = cfg.shadow ? undefined : state.archives.forSession(cfg, ctx)?.archive;
    const result = compactSession(liveFromEntries(entries), cfg, { reason, customInstructions: instructions, files: carried(entries, event?.preparation), archive });
    if (cfg.shadow) {
      u.setStatus?.(STATUS_KEY, result === null ? "cliff shadow · nothing to compact" : `cliff shadow · would keep ${result.details.keptMessages} msgs`);
      return { cancel: true };
    }
    if (result === null) return undefined;
    state.last = { reason, at: new Date().toISOString(), details: result.details };
    state.answered = result.summary;
    u.setStatus?.(STATUS_KEY, `cliff · ${reason} · kept ${result.details.keptMessages}`);
    const tokensBefore = typeof event?.preparation?.tokensBefore === "number" ? event.preparation.tokensBefore : 0;
    return { compaction: { summary: result.summary, firstKeptEntryId: result.firstKeptEntryId, tokensBefore, details: result.details } };
  } catch (e) {
    u.notify?.(`cliffcompaction failed, Pi's default compaction runs instead: ${(e as Error).message}`, "warning");
    return undefined;
  }
}

/**
 * The answer to session_before_tree: our summary of the branch being left, when the user asked
 * for one and it holds something to summarise; otherwise nothing, and Pi does as it would.
 */
function beforeTree(state: State, event: any, ctx: unknown): unknown {
  const u = (state.ui = ui(ctx));
  reportProblems(state, ctx);
  const cfg = state.loaded.config;
  const prep = event?.preparation;
  if (!cfg.enabled || cfg.shadow || prep?.userWantsSummary !== true) return undefined;
  try {
    const entries: unknown[] = Array.isArray(prep.entriesToSummarize) ? prep.entriesToSummarize : [];
    const instructions = typeof prep.customInstructions === "string" && prep.customInstructions.trim() !== "" ? prep.customInstructions : undefined;
    const result = summarizeBranch(entries, cfg, { customInstructions: instructions, archive: state.archives.forSession(cfg, ctx)?.archive });
    if (result === null) return undefined;
    state.lastBranch = { at: new Date().toISOString(), result };
    u.setStatus?.(STATUS_KEY, `cliff · branch summary · ${result.details.parts} parts`);
    return { summary: { summary: result.summary, details: result.details } };
  } catch (e) {
    u.notify?.(`cliffcompaction failed, Pi's default branch summary runs instead: ${(e as Error).message}`, "warning");
    return undefined;
  }
}

/** `/cliff status | config | reload`. */
function cliffCommand(state: State, args: string, ctx: unknown): void {
  const action = (args ?? "").trim().split(/\s+/)[0] || "status";
  const u = ui(ctx);
  if (action === "reload") {
    state.loaded = loadConfig();
    state.reportedProblems = false;
    const problems = state.loaded.problems.length;
    u.notify?.(`cliffcompaction: reloaded ${state.loaded.path}${problems ? ` (${problems} problem(s))` : ""}`, problems ? "warning" : "info");
    u.notify?.(status(state, ctx), "info");
  } else if (action === "config") {
    u.notify?.(JSON.stringify(state.loaded.config, null, 2), "info");
  } else {
    u.notify?.(status(state, ctx), "info");
  }
}

export default function cliffcompaction(api: ExtensionAPI): void {
  const state: State = {
    loaded: loadConfig(), last: undefined, pendingReason: "manual", reportedProblems: false, lastBranch: undefined, ui: {}, answered: undefined, overridden: undefined,
    archives: new SessionArchives((line) => state.ui.notify?.(line, "warning")),
  };
  const on = api.on.bind(api) as unknown as (event: string, handler: (event: any, ctx: any) => unknown) => unknown;
  on("session_start", (_event, ctx) => reportProblems(state, ctx));
  on("auto_compaction_start", (event) => {
    state.pendingReason = toReason(event?.reason) ?? "threshold";
  });
  on("auto_compaction_end", () => {
    state.pendingReason = "manual";
  });
  on("session_before_compact", (event, ctx) => beforeCompact(state, event, ctx));
  on("session_before_tree", (event, ctx) => beforeTree(state, event, ctx));
  on("session_compact", (event, ctx) => {
    const outcome = state.answered === undefined ? null : overrideOf(state.answered, event);
    if (state.answered !== undefined) settled(state, outcome, ctx);
    if (event?.fromExtension === true && outcome === null) ui(ctx).setStatus?.(STATUS_KEY, `cliff · compacted (${toReason(event?.reason) ?? state.last?.reason ?? "manual"})`);
  });
  on("session_compact_failed", (event, ctx) => {
    // Our answer was a compaction, so a cancel came from a handler after ours.
    if (state.answered !== undefined) settled(state, event?.aborted === true ? "cancelled" : null, ctx);
  });
  // Pi 1.6's idle cache warming: no refresh of a prefix the next request's cliff replaces (warming.ts).
  on("cache_warming_decision", (_event, ctx) => (state.loaded.config.enabled ? warmingDecision((api as { getSettings?: () => any }).getSettings?.(), ctx) : undefined));
  registerRecallTool(api as never, () => state.loaded.config);
  api.registerCommand("cliff", {
    description: "cliffcompaction: status | config | reload",
    handler: async (args: string, ctx) => cliffCommand(state, args, ctx),
  });
}

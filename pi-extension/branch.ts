/**
 * Pi's `/tree` branch summaries, mechanically: when the user leaves a branch and asks for its
 * summary, the abandoned entries become one summary by the same rules as a cliff (every message
 * by its content class, a focus from the user's instructions, the dropped texts archived), ended
 * by the files read and modified the way Pi's own branch summaries end. No model is called.
 */
import { nodeSha256 } from "../node/sha256.js";
import { compact, filesTouched, formatFileLists, FileTracker, parseFocus, renderSummary, type ArchiveFn, type Config } from "../core/index.js";
import { addCarriedFiles } from "../core/files.js";
import { liveFromEntries } from "../core/pi/session.js";

export interface BranchDetails {
  readFiles: string[];
  modifiedFiles: string[];
  version: 1;
  method: "cliffcompaction";
  /** Messages of the abandoned branch, and the summary parts made from them. */
  messages: number;
  parts: number;
  focus?: string;
}

export interface BranchSummary {
  summary: string;
  details: BranchDetails;
}

export interface BranchOptions {
  /** The user's instructions for the summary, honoured as a focus. */
  customInstructions?: string;
  archive?: ArchiveFn;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((f): f is string => typeof f === "string") : []);

/** Files an earlier summary inside the branch carried (a branch summary's or a compaction's details). */
function carriedFiles(entries: readonly unknown[]): FileTracker {
  const tracker = new FileTracker();
  for (const e of entries) {
    const entry = e as { type?: unknown; details?: { readFiles?: unknown; modifiedFiles?: unknown } } | null;
    if (entry?.type === "branch_summary") tracker.add(strings(entry.details?.readFiles), strings(entry.details?.modifiedFiles));
  }
  addCarriedFiles(tracker, entries, undefined);
  return tracker;
}

/** The summary of the entries a `/tree` navigation leaves, or null when they hold nothing to summarise. */
export function summarizeBranch(entries: readonly unknown[], cfg: Config, opts: BranchOptions = {}): BranchSummary | null {
  const msgs = liveFromEntries(entries).map((l) => l.message);
  if (msgs.length === 0) return null;
  // Everything in the branch is summarised: no head kept apart, no turn kept verbatim.
  const r = compact(msgs, "pi", { ...cfg, keepRecent: 0 }, { headLen: 0, hostJudgesGain: true, focus: parseFocus(opts.customInstructions), archive: opts.archive, sha256: nodeSha256 });
  if (r === null || r.parts.length === 0) return null;
  const files = filesTouched(msgs, "pi", carriedFiles(entries));
  const details: BranchDetails = {
    readFiles: files.read.sort(),
    modifiedFiles: files.modified.sort(),
    version: 1,
    method: "cliffcompaction",
    messages: msgs.length,
    parts: r.parts.length,
  };
  if (opts.customInstructions) details.focus = opts.customInstructions;
  return { summary: renderSummary(r.parts) + formatFileLists({ read: details.readFiles, modified: details.modifiedFiles }), details };
}

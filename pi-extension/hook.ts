/**
 * One Pi compaction, mechanically. Pi stores a compaction as a summary string plus a contiguous
 * kept suffix (from firstKeptEntryId), so the protected head is folded into the summary text.
 */
import { nodeSha256 } from "../node/sha256.js";
import {
  estimateTokens,
  filesTouched,
  formatFileLists,
  getDialect,
  maxRung,
  parseFocus,
  planCliff,
  renderSummary,
  type ArchiveFn,
  type CompactResult,
  type Config,
  FileTracker,
} from "../core/index.js";
import type { LiveMessage } from "../core/pi/session.js";

export type CompactReason = "manual" | "threshold" | "overflow";

export interface CliffDetails {
  readFiles: string[];
  modifiedFiles: string[];
  version: 1;
  method: "cliffcompaction";
  reason: CompactReason;
  rung: number;
  headLen: number;
  cut: number;
  keepRecent: number;
  liveMessages: number;
  keptMessages: number;
  estTokensOut: number;
  overBudget: boolean;
  focus?: string;
}

export interface SessionCompaction {
  summary: string;
  firstKeptEntryId: string;
  details: CliffDetails;
}

const piDialect = getDialect("pi");

/** The head as `role: text` parts, or null when a message in it is not plain text. */
function foldable(head: readonly Record<string, unknown>[]): string[] | null {
  const parts: string[] = [];
  for (const m of head) {
    const text = headText(m);
    if (text === null) return null;
    parts.push(`${m.role === "custom" ? "user" : String(m.role)}: ${text}`);
  }
  return parts;
}

/** A head message Pi can carry as plain text: user/custom text only (an image would be lost). */
function headText(m: Record<string, unknown>): string | null {
  if (m.role !== "user" && m.role !== "custom") return null;
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return null;
  const texts: string[] = [];
  for (const b of m.content) {
    if (b === null || typeof b !== "object" || (b as { type?: unknown }).type !== "text") return null;
    texts.push(String((b as { text?: unknown }).text ?? ""));
  }
  return texts.join("\n");
}

export interface CompactSessionOptions {
  reason: CompactReason;
  /** `/compact <text>`: honoured mechanically as a focus. */
  customInstructions?: string;
  /** File lists carried from earlier compactions and from Pi's preparation; the compacted span's are added. */
  files?: FileTracker;
  /** Where dropped results and cut calls are kept (the session's archive folder), when the archive is on. */
  archive?: ArchiveFn;
}

/**
 * The compaction for a live session, or null when Pi's default should run instead: no assistant
 * turn yet, a head that is not plain text, or nothing to gain.
 */
export function compactSession(live: readonly LiveMessage[], cfg: Config, opts: CompactSessionOptions): SessionCompaction | null {
  const msgs = live.map((l) => l.message);
  // Pi keeps a summary and a contiguous suffix, so the head the core protects is folded into the summary text.
  let headParts: string[] | null = null;
  const foldHead = (r: CompactResult): string[] | null => (headParts ??= foldable(msgs.slice(0, r.headLen)));
  const render = (r: CompactResult): string => renderSummary([...(foldHead(r) ?? []), ...r.parts]);
  const measure = (r: CompactResult): number => estimateTokens({ messages: [{ role: "user", content: render(r) }, ...r.messages.slice(r.headLen + 1)] });
  // Overflow takes the smallest result the ladder finds; strict mode must fit thresholdTokens.
  const budget = opts.reason === "overflow" ? -1 : cfg.strict ? cfg.thresholdTokens : Infinity;
  const plan = planCliff(msgs, piDialect, cfg, budget, {
    head: "before-first-turn",
    focus: parseFocus(opts.customInstructions),
    measure,
    maxRung: maxRung(cfg),
    // Pi has decided to compact on its threshold or an overflow: escalate past an empty rung.
    mustCompact: opts.reason !== "manual",
    archive: opts.archive,
    sha256: nodeSha256,
  });
  const r = plan.result;
  if (r === null || foldHead(r) === null) return null;
  const ops = filesTouched(msgs.slice(r.headLen, r.cut), piDialect, opts.files ?? new FileTracker());
  const files = { readFiles: ops.read.sort(), modifiedFiles: ops.modified.sort() };
  const estTokensOut = measure(r);
  const details: CliffDetails = {
    version: 1,
    method: "cliffcompaction",
    reason: opts.reason,
    rung: plan.rung,
    headLen: r.headLen,
    cut: r.cut,
    keepRecent: plan.config.keepRecent,
    liveMessages: msgs.length,
    keptMessages: msgs.length - r.cut,
    estTokensOut,
    overBudget: estTokensOut > cfg.thresholdTokens,
    ...files,
  };
  if (opts.customInstructions) details.focus = opts.customInstructions;
  return {
    summary: render(r) + formatFileLists({ read: files.readFiles, modified: files.modifiedFiles }),
    firstKeptEntryId: r.cut < live.length ? live[r.cut].entryId : "",
    details,
  };
}

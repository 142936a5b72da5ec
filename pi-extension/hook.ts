/**
 * One Pi compaction, mechanically. Pi stores a compaction as a summary string plus a contiguous
 * kept suffix (from firstKeptEntryId), so the protected head is folded into the summary text.
 */
import {
  compactToBudget,
  estimateTokens,
  getDialect,
  parseFocus,
  renderSummary,
  type CompactResult,
  type Config,
} from "../core/index";
import type { LiveMessage } from "../core/pi/session";

export type CompactReason = "manual" | "threshold" | "overflow";

export interface FileLists {
  readFiles: string[];
  modifiedFiles: string[];
}

export interface CliffDetails extends FileLists {
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

const pi = getDialect("pi");

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

/** Files read and modified by tool calls in `messages` (Pi's own rule: read / write / edit with a `path`). */
export function fileOpsOf(messages: readonly Record<string, unknown>[]): { read: Set<string>; modified: Set<string> } {
  const read = new Set<string>();
  const modified = new Set<string>();
  for (const m of messages) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const b of m.content as Record<string, unknown>[]) {
      if (b?.type !== "toolCall") continue;
      const path = (b.arguments as { path?: unknown } | undefined)?.path;
      if (typeof path !== "string" || path === "") continue;
      if (b.name === "read") read.add(path);
      else if (b.name === "write" || b.name === "edit") modified.add(path);
    }
  }
  return { read, modified };
}

/** Pi's own file-list sections, appended the way its default summaries end. */
export function formatFileLists(files: FileLists): string {
  const sections: string[] = [];
  if (files.readFiles.length > 0) sections.push(`<read-files>\n${files.readFiles.join("\n")}\n</read-files>`);
  if (files.modifiedFiles.length > 0) sections.push(`<modified-files>\n${files.modifiedFiles.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : "\n\n" + sections.join("\n\n");
}

export interface CompactSessionOptions {
  reason: CompactReason;
  /** `/compact <text>`: honoured mechanically as a focus. */
  customInstructions?: string;
  /** File lists carried from earlier compactions and from Pi's preparation. */
  carriedFiles?: { read: Iterable<string>; modified: Iterable<string> };
}

/**
 * The compaction for a live session, or null when Pi's default should run instead: no assistant
 * turn yet, a head that is not plain text, or nothing to gain.
 */
export function compactSession(live: readonly LiveMessage[], cfg: Config, opts: CompactSessionOptions): SessionCompaction | null {
  const msgs = live.map((l) => l.message);
  const headLen = msgs.findIndex((m) => m.role === "assistant");
  if (headLen < 0) return null;
  const headParts: string[] = [];
  for (const m of msgs.slice(0, headLen)) {
    const text = headText(m);
    if (text === null) return null;
    headParts.push(`${m.role === "custom" ? "user" : String(m.role)}: ${text}`);
  }
  const body = msgs.slice(headLen);
  const render = (r: CompactResult): string => renderSummary([...headParts, ...r.parts]);
  const measure = (r: CompactResult): number => estimateTokens({ messages: [{ role: "user", content: render(r) }, ...r.messages.slice(r.headLen + 1)] });
  // Overflow takes the smallest result the ladder finds; strict mode must fit thresholdTokens.
  const budget = opts.reason === "overflow" ? -1 : cfg.strict ? cfg.thresholdTokens : Infinity;
  const ladder = compactToBudget(body, pi, cfg, budget, {
    headLen: 0,
    focus: parseFocus(opts.customInstructions),
    measure,
    maxRung: cfg.strict ? 3 : 2,
    // Pi has decided to compact on its threshold or an overflow: escalate past an empty rung.
    mustCompact: opts.reason !== "manual",
  });
  const r = ladder.result;
  if (r === null) return null;
  const cut = headLen + r.cut;
  const compacted = msgs.slice(headLen, cut);
  const ops = fileOpsOf(compacted);
  for (const f of opts.carriedFiles?.read ?? []) ops.read.add(f);
  for (const f of opts.carriedFiles?.modified ?? []) ops.modified.add(f);
  const files: FileLists = {
    modifiedFiles: [...ops.modified].sort(),
    readFiles: [...ops.read].filter((f) => !ops.modified.has(f)).sort(),
  };
  const estTokensOut = measure(r);
  const details: CliffDetails = {
    version: 1,
    method: "cliffcompaction",
    reason: opts.reason,
    rung: ladder.rung,
    headLen,
    cut,
    keepRecent: ladder.config.keepRecent,
    liveMessages: msgs.length,
    keptMessages: msgs.length - cut,
    estTokensOut,
    overBudget: estTokensOut > cfg.thresholdTokens,
    ...files,
  };
  if (opts.customInstructions) details.focus = opts.customInstructions;
  return {
    summary: render(r) + formatFileLists(files),
    firstKeptEntryId: cut < live.length ? live[cut].entryId : "",
    details,
  };
}

/**
 * Claude Code transcripts (`~/.claude/projects/…/<session>.jsonl`, and subagent `agent-*.jsonl`):
 * one event a line. The model-facing history is the user and assistant lines on the branch Claude
 * Code resumes: from the last message line back to the root through `parentUuid` (and across a
 * `compact_boundary` through `logicalParentUuid`), so turns abandoned by a rewind or an edited
 * message are not read; of the main chain when the file has one (sidechain lines belong to
 * subagents), else of the sidechain (a subagent's own file). Assistant lines of one API message
 * are merged, and a compaction is applied the way Claude Code applies it: the history starts again
 * at the last `compact_boundary`, with the summary line after it.
 */
import { isObj } from "../../core/index.js";
import { fail, timeOf, type Session } from "./common.js";

type Line = Record<string, unknown>;

const isTurn = (l: Line): boolean => (l.type === "user" || l.type === "assistant") && isObj(l.message);
const isBoundary = (l: Line): boolean => l.type === "system" && l.subtype === "compact_boundary";

export function looksLikeClaudeCode(lines: readonly Line[]): boolean {
  return lines.some((l) => isTurn(l) || isBoundary(l));
}

/**
 * The lines of the branch ending at the last message line (of the main chain when `main`), oldest
 * first. A transcript without `parentUuid` links (an older or hand-made one) is read in file order.
 */
function branch(lines: Line[], main: boolean): { line: Line; at: number }[] {
  const all = lines.map((line, at) => ({ line, at }));
  if (!lines.some((l) => typeof l.parentUuid === "string")) return all;
  const byUuid = new Map<string, { line: Line; at: number }>();
  for (const e of all) if (typeof e.line.uuid === "string") byUuid.set(e.line.uuid, e);
  let leaf = lines.length - 1;
  while (leaf >= 0 && !(isTurn(lines[leaf]) && (!main || lines[leaf].isSidechain !== true))) leaf--;
  const path: { line: Line; at: number }[] = [];
  const seen = new Set<string>();
  let cur: { line: Line; at: number } | undefined = leaf < 0 ? undefined : all[leaf];
  while (cur !== undefined) {
    path.push(cur);
    const l = cur.line;
    if (typeof l.uuid === "string") seen.add(l.uuid);
    const parent = typeof l.parentUuid === "string" ? l.parentUuid : isBoundary(l) && typeof l.logicalParentUuid === "string" ? l.logicalParentUuid : undefined;
    cur = parent === undefined ? undefined : byUuid.get(parent);
    // A cycle is cut where it closes.
    if (cur !== undefined && typeof cur.line.uuid === "string" && seen.has(cur.line.uuid)) break;
  }
  return path.reverse();
}

export function readClaudeCode(lines: Line[], file: string): Session {
  const hasMain = lines.some((l) => isTurn(l) && l.isSidechain !== true);
  const path = branch(lines, hasMain);
  let start = 0;
  for (let i = path.length - 1; i >= 0; i--) {
    if (isBoundary(path[i].line)) {
      start = i + 1;
      break;
    }
  }
  const messages: Record<string, unknown>[] = [];
  // The content list of the newest merged assistant message, owned by the reader: a split line is
  // appended to it in place, so merging n lines costs n, not n².
  let merged: unknown[] | null = null;
  let lastId: unknown;
  const times = new WeakMap<object, number>();
  let model: string | undefined;
  for (let i = start; i < path.length; i++) {
    const { line: l, at } = path[i];
    if ((l.type !== "user" && l.type !== "assistant") || (hasMain && l.isSidechain === true)) continue;
    if (!isObj(l.message)) fail(file, `line ${at + 1}`, `a "${String(l.type)}" line needs a "message" object`);
    const m = l.message;
    const content = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content : fail(file, `line ${at + 1}`, "message.content must be a string or a list");
    const prev = messages[messages.length - 1];
    if (typeof m.model === "string" && m.model !== "<synthetic>") model = m.model;
    const at_ = timeOf(l.timestamp);
    if (m.role === "assistant" && prev !== undefined && prev.role === "assistant" && m.id !== undefined && m.id === lastId && Array.isArray(prev.content) && Array.isArray(content)) {
      if (merged === null) merged = prev.content = (prev.content as unknown[]).slice();
      for (const block of content) merged.push(block);
      if (at_ !== undefined) times.set(prev, at_);
    } else {
      const message = { role: m.role ?? l.type, content };
      messages.push(message);
      if (at_ !== undefined) times.set(message, at_);
      merged = null;
    }
    lastId = m.id;
  }
  if (messages.length === 0) fail(file, "", "no user or assistant lines found in the transcript");
  const note = start > 0 ? `history from the compaction at line ${path[start - 1].at + 1}` : !hasMain ? "a subagent (sidechain) transcript" : undefined;
  return { format: "claude-code", dialect: "anthropic", messages, note, times, ...(model !== undefined ? { model } : {}) };
}

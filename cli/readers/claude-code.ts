/**
 * Claude Code transcripts (`~/.claude/projects/…/<session>.jsonl`, and subagent `agent-*.jsonl`):
 * one event a line. The model-facing history is the user and assistant lines: of the main chain
 * when the file has one (sidechain lines belong to subagents), else of the sidechain (a subagent's
 * own file). Assistant lines of one API message are merged, and a compaction is applied the way
 * Claude Code applies it: the history starts again at the last `compact_boundary`, with the summary
 * line after it.
 */
import { isObj } from "../../core/index.js";
import { fail, type Session } from "./common.js";

type Line = Record<string, unknown>;

const isTurn = (l: Line): boolean => (l.type === "user" || l.type === "assistant") && isObj(l.message);

export function looksLikeClaudeCode(lines: readonly Line[]): boolean {
  return lines.some((l) => isTurn(l) || (l.type === "system" && l.subtype === "compact_boundary"));
}

export function readClaudeCode(lines: Line[], file: string): Session {
  let start = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].type === "system" && lines[i].subtype === "compact_boundary") {
      start = i + 1;
      break;
    }
  }
  const hasMain = lines.some((l, i) => i >= start && isTurn(l) && l.isSidechain !== true);
  const messages: Record<string, unknown>[] = [];
  let lastId: unknown;
  for (let i = start; i < lines.length; i++) {
    const l = lines[i];
    if ((l.type !== "user" && l.type !== "assistant") || (hasMain && l.isSidechain === true)) continue;
    if (!isObj(l.message)) fail(file, `line ${i + 1}`, `a "${String(l.type)}" line needs a "message" object`);
    const m = l.message;
    const content = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content : fail(file, `line ${i + 1}`, "message.content must be a string or a list");
    const prev = messages[messages.length - 1];
    if (m.role === "assistant" && prev !== undefined && prev.role === "assistant" && m.id !== undefined && m.id === lastId && Array.isArray(prev.content) && Array.isArray(content)) {
      prev.content = [...prev.content, ...content];
    } else messages.push({ role: m.role ?? l.type, content });
    lastId = m.id;
  }
  if (messages.length === 0) fail(file, "", "no user or assistant lines found in the transcript");
  const note = start > 0 ? `history from the compaction at line ${start}` : !hasMain ? "a subagent (sidechain) transcript" : undefined;
  return { format: "claude-code", dialect: "anthropic", messages, note };
}

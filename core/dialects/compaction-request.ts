/**
 * A request that asks for a compaction, recognised from its body alone: one that asks the provider
 * to compact (Anthropic's top-level `compaction` field, beta `compact-2026-09-04`; a Responses
 * input ending in a `compaction_trigger` item) or a client's own summary request, in the exact
 * form its client sends it (Claude Code's framed compaction prompt as the last block of its last
 * user message; Codex's checkpoint compaction prompt as the one text of its last input item). Such a request is never cliffed: its answer replaces the
 * history it carries, so a cliff would summarise a summary's source and the client would keep a
 * summary of our summary. Hosts that see more than the body (headers, the path) add what they see
 * through `PrepareOptions.compactionRequest`.
 */
import { arr, isObj, obj, str } from "../guards.js";
import type { DialectName } from "./types.js";

export type CompactionRequestBy =
  /** Anthropic Messages with a top-level `compaction` field: the provider compacts. */
  | "anthropic-compaction"
  /** A Responses input whose last item is a `compaction_trigger`: the provider compacts (Codex remote compaction v2). */
  | "compaction-trigger"
  /** Claude Code's summary request (`/compact`, its auto, idle and background compaction). */
  | "claude-code"
  /** Codex's compaction turn: its checkpoint prompt last, or `request_kind` compaction in its turn metadata (seen by the proxy). */
  | "codex"
  /** Codex's `POST /responses/compact` (seen by the proxy from the path). */
  | "codex-compact-endpoint";

export interface CompactionRequest {
  by: CompactionRequestBy;
  /** `provider`: it asks the provider's own compaction; `client`: a summary the client asks a model to write. */
  asks: "provider" | "client";
  /**
   * Where the instruction is: the index of the message (or input item) that holds it, and of its
   * block when it is one block of a longer message (null when the whole message is the instruction).
   * Null when the request carries no instruction message (the `compaction` field, a path).
   */
  instruction: { message: number; block: number | null } | null;
}

/**
 * Claude Code's compaction prompt (2.1.332, its full, partial and custom forms alike) as it frames
 * every one: this preamble first, the prompt, then the reminder naming the same block. Claude Code
 * sends it as a message of its own after the history, which its API layer merges into the last
 * user message as that message's last text block. Only that exact frame in that place is the
 * client's compaction request: the same words pasted into a question, in an @-mentioned file or in
 * a system reminder are the user's text, sent on and cliffed as any other.
 */
const CLAUDE_CODE_PREAMBLE =
  /^CRITICAL: Respond with TEXT ONLY\. Do NOT call any tools\.\n\n- Do NOT use Read, Bash, Grep, Glob, Edit, Write, or ANY other tool\.\n- You already have all the context you need in the conversation above\.\n- Tool calls will be REJECTED and will waste your only turn \u2014 you will fail the task\.\n- Your entire response must be plain text: (an <analysis> block followed by a <summary> block|a <summary> block)\.\n\n/;
const claudeCodeReminder = (reply: string): string => `\n\nREMINDER: Do NOT call any tools. Respond with plain text only \u2014 ${reply}. Tool calls will be rejected and you will fail the task.`;

function isClaudeCodeInstruction(text: string): boolean {
  const m = CLAUDE_CODE_PREAMBLE.exec(text);
  return m !== null && text.indexOf(claudeCodeReminder(m[1]), m[0].length) >= 0;
}

/**
 * Codex's local compaction prompt (its `compact/prompt.md`), as its first line reads. Codex sends it
 * as the whole text of a user message of its own, the input's last item, one `input_text` and
 * nothing else: a message that carries more (the user's own words, a file) is not it.
 */
const CODEX_INSTRUCTION = "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.";

const isCodexInstruction = (text: string): boolean => text.startsWith(CODEX_INSTRUCTION);

function textOf(block: unknown): string {
  if (typeof block === "string") return block;
  const b = obj(block);
  return b.type === "text" || b.type === "input_text" ? str(b.text) : "";
}

/** The instruction in `message` where its client puts it: the whole string content, or its last block (its only one when `only`). */
function instructionIn(message: unknown, at: number, is: (text: string) => boolean, only: boolean): CompactionRequest["instruction"] {
  const content = obj(message).content;
  if (typeof content === "string") return is(content) ? { message: at, block: null } : null;
  const blocks = arr(content);
  const last = blocks.length - 1;
  if (last < 0 || (only && last > 0) || !is(textOf(blocks[last]))) return null;
  return { message: at, block: last === 0 ? null : last };
}

/** The last message of `role`, skipping trailing messages of `skip` roles (Claude Code 2.1.332 may end with a `system` message). */
function lastOfRole(messages: readonly unknown[], role: string, skip: readonly string[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const r = obj(messages[i]).role;
    if (r === role) return i;
    if (typeof r !== "string" || skip.indexOf(r) < 0) return -1;
  }
  return -1;
}

function anthropicRequest(body: Record<string, unknown>): CompactionRequest | null {
  if (isObj(body.compaction)) return { by: "anthropic-compaction", asks: "provider", instruction: null };
  const messages = arr(body.messages);
  const at = lastOfRole(messages, "user", ["system"]);
  const instruction = at < 0 ? null : instructionIn(messages[at], at, isClaudeCodeInstruction, false);
  return instruction === null ? null : { by: "claude-code", asks: "client", instruction };
}

function responsesRequest(body: Record<string, unknown>): CompactionRequest | null {
  const input = arr(body.input);
  const last = input.length - 1;
  if (last < 0) return null;
  if (obj(input[last]).type === "compaction_trigger") return { by: "compaction-trigger", asks: "provider", instruction: { message: last, block: null } };
  const item = obj(input[last]);
  if (item.role !== "user" || (item.type !== undefined && item.type !== "message")) return null;
  const instruction = instructionIn(item, last, isCodexInstruction, true);
  return instruction === null ? null : { by: "codex", asks: "client", instruction };
}

/** The compaction `body` asks for, in `dialect`'s wire format, or null when it asks for none. Never throws. */
export function compactionRequestOf(body: unknown, dialect: DialectName | string): CompactionRequest | null {
  if (!isObj(body)) return null;
  if (dialect === "anthropic") return anthropicRequest(body);
  if (dialect === "openai-responses") return responsesRequest(body);
  return null;
}

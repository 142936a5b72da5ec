/**
 * A request that asks for a compaction, recognised from its body alone: one that asks the provider
 * to compact (Anthropic's top-level `compaction` field, beta `compact-2026-09-04`; a Responses
 * input ending in a `compaction_trigger` item) or a client's own summary request (Claude Code's
 * compaction instruction in its last user message, tools still declared; Codex's checkpoint
 * compaction prompt as its last input). Such a request is never cliffed: its answer replaces the
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

/** Phrases of Claude Code's compaction prompts (full, partial "RECENT portion", and the SDK's). */
const CLAUDE_CODE_INSTRUCTION = /Your task is to create a detailed summary of (?:the conversation so far|the RECENT portion of the conversation|this conversation)/;
/** Codex's local compaction prompt (its `compact/prompt.md`), as its first line reads. */
const CODEX_INSTRUCTION = /^\s*You are performing a CONTEXT CHECKPOINT COMPACTION\b/;

function textOf(block: unknown): string {
  if (typeof block === "string") return block;
  const b = obj(block);
  return b.type === "text" || b.type === "input_text" ? str(b.text) : "";
}

/** The instruction in `message`: the whole string content, or the last of its text blocks that matches. */
function instructionIn(message: unknown, at: number, pattern: RegExp): CompactionRequest["instruction"] {
  const content = obj(message).content;
  if (typeof content === "string") return pattern.test(content) ? { message: at, block: null } : null;
  const blocks = arr(content);
  for (let k = blocks.length - 1; k >= 0; k--) {
    if (!pattern.test(textOf(blocks[k]))) continue;
    return { message: at, block: blocks.length === 1 ? null : k };
  }
  return null;
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
  const instruction = at < 0 ? null : instructionIn(messages[at], at, CLAUDE_CODE_INSTRUCTION);
  return instruction === null ? null : { by: "claude-code", asks: "client", instruction };
}

function responsesRequest(body: Record<string, unknown>): CompactionRequest | null {
  const input = arr(body.input);
  const last = input.length - 1;
  if (last < 0) return null;
  if (obj(input[last]).type === "compaction_trigger") return { by: "compaction-trigger", asks: "provider", instruction: { message: last, block: null } };
  const item = obj(input[last]);
  if (item.role !== "user" || (item.type !== undefined && item.type !== "message")) return null;
  const instruction = instructionIn(item, last, CODEX_INSTRUCTION);
  return instruction === null ? null : { by: "codex", asks: "client", instruction };
}

/** The compaction `body` asks for, in `dialect`'s wire format, or null when it asks for none. Never throws. */
export function compactionRequestOf(body: unknown, dialect: DialectName | string): CompactionRequest | null {
  if (!isObj(body)) return null;
  if (dialect === "anthropic") return anthropicRequest(body);
  if (dialect === "openai-responses") return responsesRequest(body);
  return null;
}

/** Dialect lookup by name, and detection from a request body or a message list. */
import type { Dialect, DialectName } from "./types";
import { anthropic } from "./anthropic";
import { openaiChat } from "./openai-chat";
import { openaiResponses } from "./openai-responses";
import { piDialect } from "../pi/dialect";
import { plain } from "./plain";
import { arr, obj } from "../guards";

const DIALECTS: Record<DialectName, Dialect> = {
  anthropic,
  "openai-chat": openaiChat,
  "openai-responses": openaiResponses,
  pi: piDialect,
  plain,
};

/** The names getDialect accepts. */
export const DIALECT_NAMES = Object.keys(DIALECTS) as DialectName[];

/** The dialect of that name (a Dialect object is returned as is); throws a clear error for an unknown name. */
export function getDialect(name: DialectName | Dialect | string): Dialect {
  if (typeof name === "object" && name !== null) return name;
  if (typeof name === "string" && Object.prototype.hasOwnProperty.call(DIALECTS, name)) return DIALECTS[name as DialectName];
  throw new TypeError(`unknown dialect ${JSON.stringify(name)}; expected one of: ${DIALECT_NAMES.join(", ")}`);
}

const PI_ROLES = new Set(["toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const ANTHROPIC_BLOCKS = new Set(["tool_use", "tool_result", "server_tool_use", "redacted_thinking", "mcp_tool_use"]);

/**
 * The dialect a body (`{messages}` or `{input}`) or a bare message list is written in. Signals, in
 * order: a Responses `input` list or typed items; Pi roles or toolCall blocks; Anthropic blocks or
 * a top-level `system`; Chat tool calls or tool roles; plain `{role, content: string}` otherwise.
 */
export function detectDialect(bodyOrMessages: unknown): DialectName {
  const body = obj(bodyOrMessages);
  if (!Array.isArray(bodyOrMessages) && Array.isArray(body.input) && !Array.isArray(body.messages)) return "openai-responses";
  const messages = Array.isArray(bodyOrMessages) ? bodyOrMessages : arr(body.messages);
  let chat = false;
  let anthropicHints = !Array.isArray(bodyOrMessages) && body.system !== undefined;
  let structured = false;
  for (const m of messages) {
    const msg = obj(m);
    if (typeof msg.role !== "string" && typeof msg.type === "string") return "openai-responses";
    if (typeof msg.role === "string" && PI_ROLES.has(msg.role)) return "pi";
    if (msg.tool_calls !== undefined || msg.tool_call_id !== undefined || msg.reasoning_content !== undefined) chat = true;
    if (msg.role === "tool" || msg.role === "developer") chat = true;
    if (Array.isArray(msg.content)) {
      structured = true;
      for (const b of msg.content) {
        const type = obj(b).type;
        if (type === "toolCall") return "pi";
        if (typeof type === "string" && ANTHROPIC_BLOCKS.has(type)) anthropicHints = true;
        if (type === "image_url" || type === "input_audio") chat = true;
      }
    }
  }
  if (anthropicHints && !chat) return "anthropic";
  if (chat) return "openai-chat";
  if (structured) return "anthropic";
  if (!Array.isArray(bodyOrMessages) && typeof body.model === "string") return "openai-chat";
  return "plain";
}

export type { Dialect, DialectName } from "./types";

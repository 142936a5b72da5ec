/** The six dialects registered by name, and detection from a request body or a message list. */
import type { DialectName } from "./types.js";
import { DIALECT_NAMES, getDialect, registerDialect, sendableList } from "./registry.js";
import { anthropic } from "./anthropic.js";
import { openaiChat } from "./openai-chat.js";
import { openaiResponses } from "./openai-responses.js";
import { gemini } from "./gemini.js";
import { piDialect } from "../pi/dialect.js";
import { plain } from "./plain.js";
import { arr, obj } from "../guards.js";

for (const d of [anthropic, openaiChat, openaiResponses, gemini, piDialect, plain]) registerDialect(d);

export { DIALECT_NAMES, getDialect, registerDialect, sendableList };

const PI_ROLES = new Set(["toolResult", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
const ANTHROPIC_BLOCKS = new Set(["tool_use", "tool_result", "server_tool_use", "redacted_thinking", "mcp_tool_use"]);

/** A Gemini content: a `parts` list and no `content`, its role (when it has one) user or model. */
function isGeminiContent(m: unknown): boolean {
  const msg = obj(m);
  return Array.isArray(msg.parts) && msg.content === undefined && (msg.role === undefined || msg.role === "user" || msg.role === "model");
}

/**
 * The dialect a body (`{messages}`, `{input}` or `{contents}`) or a bare message list is written in.
 * Signals, in order: a Gemini `contents` list or `{role, parts}` contents; a Responses `input` list or typed items; Pi roles or toolCall blocks; Anthropic blocks or
 * a top-level `system`; Chat tool calls or tool roles; plain `{role, content: string}` otherwise.
 */
export function detectDialect(bodyOrMessages: unknown): DialectName {
  const body = obj(bodyOrMessages);
  if (!Array.isArray(bodyOrMessages) && Array.isArray(body.contents) && !Array.isArray(body.messages)) return "gemini";
  if (Array.isArray(bodyOrMessages) && bodyOrMessages.length > 0 && bodyOrMessages.every(isGeminiContent)) return "gemini";
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

export type { Dialect, DialectName } from "./types.js";

/** Anthropic Messages: `messages[]` of `{role, content: string | blocks}`. */
import type { Dialect } from "./types.js";
import { compactionEnd } from "./provider-compaction.js";
import { one, AssistantPart, contentText, humanPart, isSummaryText, resultPart, type PartContext } from "../parts/index.js";
import { arr, obj, str } from "../guards.js";
import { canonicalJson } from "../estimate/json.js";
import { blocksForm, prim, textBlocksText, withoutKeys, type Form, type Hash } from "./form.js";

const SERVER_RESULT_TYPES = ["bash_code_execution_tool_result", "code_execution_tool_result", "text_editor_code_execution_tool_result"];
const SEARCH_RESULT_TYPES = ["web_search_tool_result", "web_fetch_tool_result", "tool_search_tool_result"];

function firstTextBlock(content: unknown): string | undefined {
  for (const b of arr(content)) {
    const block = obj(b);
    if (block.type === "text") return str(block.text);
  }
  return undefined;
}

/** Text of a tool_result-like block: its string content, or its text blocks (and nested search results) joined. */
export function toolResultText(block: Record<string, unknown>): string {
  const content = block.content;
  if (typeof content === "string") return content;
  const out: string[] = [];
  for (const b of arr(content)) {
    if (typeof b === "string") out.push(b);
    const inner = obj(b);
    if (inner.type === "text" && typeof inner.text === "string") out.push(inner.text);
    else if (inner.type === "search_result") out.push(contentText(inner.content));
  }
  return out.join("\n");
}

export function anthropicAssistantParts(content: unknown, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  if (typeof content === "string") {
    part.addText(content);
    return part.parts();
  }
  for (const b of arr(content)) {
    const block = obj(b);
    const type = str(block.type);
    if (type === "text") part.addText(block.text);
    else if (type === "thinking") part.addThinking(block.thinking);
    else if (type === "tool_use" || type === "server_tool_use" || type === "mcp_tool_use") part.addCall(block.name, block.input ?? {}, block.id);
    else if (type === "mcp_tool_result") part.addResult(toolResultText(block), { error: block.is_error === true, callId: block.tool_use_id });
    else if (SERVER_RESULT_TYPES.indexOf(type) >= 0) {
      const inner = obj(block.content);
      if (type === "text_editor_code_execution_tool_result" && inner.type === "text_editor_code_execution_view_result" && inner.file_type !== "text") continue;
      part.addResult(canonicalJson(block.content ?? null));
    } else if (SEARCH_RESULT_TYPES.indexOf(type) >= 0) {
      const inner = obj(block.content);
      if (str(inner.type).endsWith("_error")) part.addResult(canonicalJson(inner));
    }
  }
  return part.parts();
}

export function anthropicUserParts(content: unknown, ctx: PartContext): string[] {
  if (typeof content === "string") {
    const p = humanPart("user", content, ctx);
    return one(p);
  }
  const out: string[] = [];
  for (const b of arr(content)) {
    const block = obj(b);
    let p: string | null = null;
    if (block.type === "text") p = humanPart("user", str(block.text), ctx);
    else if (block.type === "tool_result") p = resultPart(toolResultText(block), ctx, { error: block.is_error === true, callId: block.tool_use_id });
    else if (block.type === "search_result") p = resultPart(toolResultText(block), ctx);
    if (p !== null) out.push(p);
  }
  return out;
}

function digestBlock(b: unknown, hash: Hash): Form {
  const block = obj(b);
  switch (block.type) {
    case "text":
      return ["text", str(block.text)];
    case "tool_use":
      return ["tool_use", prim(block.id), prim(block.name), canonicalJson(block.input ?? null)];
    case "tool_result": {
      const form: unknown[] = ["tool_result", prim(block.tool_use_id), textBlocksText(block.content), block.is_error === true];
      for (const a of arr(block.content)) {
        const t = obj(a).type;
        if (t !== "text" && typeof a !== "string") form.push(digestBlock(a, hash));
      }
      return form;
    }
    case "thinking":
      return ["thinking", str(block.thinking)];
    case "redacted_thinking":
      return ["redacted_thinking", str(block.data)];
    case "image":
    case "document": {
      const source = obj(block.source);
      if (block.type === "document" && source.type === "content") return ["document", "content", canonicalJson(source.content ?? null)];
      return [block.type, prim(source.type), hash(str(source.data) || str(source.url))];
    }
    default:
      return ["other", canonicalJson(withoutKeys(block, ["cache_control"]))];
  }
}

export const anthropic: Dialect = {
  name: "anthropic",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    if (msg.role !== "user") return false;
    return typeof msg.content === "string" ? isSummaryText(msg.content) : isSummaryText(firstTextBlock(msg.content));
  },
  providerCompactionEnd: (msgs) => compactionEnd(msgs, (m) => arr(obj(m).content).some((b) => obj(b).type === "compaction"), (m) => obj(m).role === "assistant", (m) => anthropic.isSummary(m)),
  trimFromHead: (m) => obj(m).role === "system",
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    if (msg.role === "assistant") return anthropicAssistantParts(msg.content, ctx);
    if (msg.role === "system") {
      const p = humanPart("system", contentText(msg.content), ctx, false);
      return one(p);
    }
    return anthropicUserParts(msg.content, ctx);
  },
  digestForm: (m, hash) => [prim(obj(m).role), blocksForm(obj(m).content, (b) => digestBlock(b, hash))],
  summaryMessage: (text) => ({ role: "user", content: text }),
};

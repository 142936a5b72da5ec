/** Pi AgentMessages: user / assistant / toolResult / bashExecution / custom / branchSummary / compactionSummary. */
import type { Dialect } from "../dialects/types.js";
import { one, AssistantPart, contentText, humanPart, resultPart, type PartContext } from "../parts/index.js";
import { arr, obj, str } from "../guards.js";
import { piBranchSummaryText, startsLikeSummary } from "./format.js";
import { blocksForm, prim, type Form, type Hash } from "../dialects/form.js";
import { canonicalJson } from "../estimate/json.js";

function assistantParts(content: unknown, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  if (typeof content === "string") part.addText(content);
  for (const b of arr(content)) {
    const block = obj(b);
    if (block.type === "text") part.addText(block.text);
    else if (block.type === "thinking" && block.redacted !== true) part.addThinking(block.thinking);
    else if (block.type === "toolCall") part.addCall(block.name, block.arguments ?? {}, block.id);
  }
  return part.parts();
}

function digestBlock(b: unknown, hash: Hash): Form {
  const block = obj(b);
  switch (block.type) {
    case "text":
      return ["text", str(block.text)];
    case "thinking":
      return ["thinking", str(block.thinking)];
    case "toolCall":
      return ["toolCall", prim(block.id), prim(block.name), canonicalJson(block.arguments ?? null)];
    case "image":
      return ["image", prim(block.mimeType), hash(str(block.data))];
    default:
      return ["other", canonicalJson(block)];
  }
}

function digestForm(message: unknown, hash: Hash): Form {
  const m = obj(message);
  const form: unknown[] = [prim(m.role), blocksForm(m.content, (b) => digestBlock(b, hash))];
  if (m.role === "toolResult") form.push(prim(m.toolCallId), m.isError === true);
  if (m.role === "bashExecution") form.push(str(m.command), str(m.output));
  if (m.role === "compactionSummary" || m.role === "branchSummary") form.push(str(m.summary));
  return form;
}

export const piDialect: Dialect = {
  name: "pi",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    if (msg.role === "compactionSummary") return true;
    return msg.role === "user" && startsLikeSummary(contentText(msg.content));
  },
  trimFromHead: () => false,
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    switch (msg.role) {
      case "assistant":
        return assistantParts(msg.content, ctx);
      case "toolResult":
        return one(resultPart(contentText(msg.content), ctx, { error: msg.isError === true, callId: msg.toolCallId, tool: msg.toolName }));
      case "bashExecution": {
        const part = new AssistantPart(ctx);
        part.addCall("bash", str(msg.command));
        part.addResult(str(msg.output), { exitCode: typeof msg.exitCode === "number" ? msg.exitCode : undefined, error: msg.cancelled === true });
        return part.parts();
      }
      case "compactionSummary":
        return [];
      case "branchSummary":
        return one(humanPart("user", piBranchSummaryText(str(msg.summary)), ctx));
      case "system":
        return one(humanPart("system", contentText(msg.content), ctx, false));
      case "user":
      case "custom":
        return startsLikeSummary(contentText(msg.content)) ? [] : one(humanPart("user", contentText(msg.content), ctx));
      default:
        return one(humanPart(str(msg.role) || "unknown", contentText(msg.content), ctx, false));
    }
  },
  digestForm,
  summaryMessage: (text) => ({ role: "user", content: text }),
};

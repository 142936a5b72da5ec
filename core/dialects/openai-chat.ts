/** OpenAI Chat Completions: `messages[]` of `{role, content, tool_calls?, …}`. */
import type { Dialect } from "./types";
import { arr, one, AssistantPart, contentText, humanPart, isSummaryText, obj, resultPart, str, type PartContext } from "../parts";

export function chatAssistantParts(msg: Record<string, unknown>, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  const reasoning = [msg.reasoning_content, msg.reasoning].find((r) => typeof r === "string" && r !== "");
  part.addThinking(reasoning);
  part.addText(contentText(msg.content));
  const refusals: string[] = [];
  if (typeof msg.refusal === "string") refusals.push(msg.refusal);
  for (const p of arr(msg.content)) {
    const block = obj(p);
    if (block.type === "refusal" && typeof block.refusal === "string") refusals.push(block.refusal);
  }
  for (const r of refusals) part.addText(r);
  for (const c of arr(msg.tool_calls)) {
    const call = obj(c);
    if (call.type === "custom") {
      const custom = obj(call.custom);
      part.addCall(custom.name, custom.input ?? "");
    } else {
      const fn = obj(call.function);
      part.addCall(fn.name, fn.arguments ?? "");
    }
  }
  if (msg.function_call !== null && typeof msg.function_call === "object") {
    const fn = obj(msg.function_call);
    part.addCall(fn.name, fn.arguments ?? "");
  }
  return part.parts();
}

export const openaiChat: Dialect = {
  name: "openai-chat",
  messagesKey: "messages",
  isAssistant: (m) => obj(m).role === "assistant",
  isSummary(m) {
    const msg = obj(m);
    return msg.role === "user" && isSummaryText(contentText(msg.content));
  },
  trimFromHead: () => false,
  startsTurn: (m) => obj(m).role === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    const role = str(msg.role);
    let p: string | null;
    if (role === "assistant") return chatAssistantParts(msg, ctx);
    if (role === "tool" || role === "function") p = resultPart(contentText(msg.content), ctx);
    else if (role === "user") p = humanPart("user", contentText(msg.content), ctx);
    else p = humanPart(role || "unknown", contentText(msg.content), ctx, false);
    return one(p);
  },
  summaryMessage: (text) => ({ role: "user", content: text }),
};

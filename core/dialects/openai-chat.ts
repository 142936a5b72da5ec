/** OpenAI Chat Completions: `messages[]` of `{role, content, tool_calls?, …}`. */
import type { Dialect } from "./types.js";
import { one, AssistantPart, contentText, humanPart, isSummaryText, resultPart, type PartContext } from "../parts/index.js";
import { arr, obj, str } from "../guards.js";
import { blocksForm, prim, type Form, type Hash } from "./form.js";
import { canonicalJson } from "../estimate/json.js";

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
      part.addCall(custom.name, custom.input ?? "", call.id);
    } else {
      const fn = obj(call.function);
      part.addCall(fn.name, fn.arguments ?? "", call.id);
    }
  }
  if (msg.function_call !== null && typeof msg.function_call === "object") {
    const fn = obj(msg.function_call);
    part.addCall(fn.name, fn.arguments ?? "");
  }
  return part.parts();
}

function digestPart(p: unknown, hash: Hash): Form {
  if (typeof p === "string") return ["text", p];
  const part = obj(p);
  if (part.type === "text") return ["text", str(part.text)];
  if (part.type === "refusal") return ["refusal", str(part.refusal)];
  if (part.type === "image_url") {
    const url = typeof part.image_url === "string" ? part.image_url : str(obj(part.image_url).url);
    return ["image_url", hash(url)];
  }
  return ["other", canonicalJson(part)];
}

const argsForm = (args: unknown): string => (typeof args === "string" ? args : canonicalJson(args ?? null));

function digestForm(message: unknown, hash: Hash): Form {
  const m = obj(message);
  const calls = arr(m.tool_calls).map((c) => {
    const call = obj(c);
    if (call.type === "custom") return [prim(call.id), "custom", str(obj(call.custom).name), canonicalJson(obj(call.custom).input ?? null)];
    const fn = obj(call.function);
    return [prim(call.id), prim(fn.name), argsForm(fn.arguments)];
  });
  if (m.function_call !== null && typeof m.function_call === "object") {
    const fn = obj(m.function_call);
    calls.push([null, prim(fn.name), argsForm(fn.arguments)]);
  }
  const form: unknown[] = [prim(m.role), blocksForm(m.content, (p) => digestPart(p, hash)), calls, prim(m.tool_call_id), prim(m.name)];
  // Redacting reasoning must invalidate a cached summary that quoted it.
  const reasoning = [m.reasoning_content, m.reasoning].find((r) => typeof r === "string");
  if (reasoning !== undefined) form.push(reasoning);
  if (typeof m.refusal === "string") form.push(["refusal", m.refusal]);
  return form;
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
    if (role === "tool" || role === "function") p = resultPart(contentText(msg.content), ctx, { callId: msg.tool_call_id, tool: msg.name });
    else if (role === "user") p = humanPart("user", contentText(msg.content), ctx);
    else p = humanPart(role || "unknown", contentText(msg.content), ctx, false);
    return one(p);
  },
  digestForm,
  summaryMessage: (text) => ({ role: "user", content: text }),
};

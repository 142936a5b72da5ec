/** OpenAI Responses: `input[]` of typed items (messages, reasoning, calls and their outputs). */
import type { Dialect } from "./types.js";
import { compactionEnd } from "./provider-compaction.js";
import { one, AssistantPart, contentText, humanPart, isSummaryText, resultPart, type PartContext } from "../parts/index.js";
import { arr, obj, str } from "../guards.js";
import { canonicalJson } from "../estimate/json.js";
import { imagePayload } from "../estimate/images.js";
import { prim, withoutKeys, type Form } from "./form.js";

const MODEL_OUTPUT = new Set([
  "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call",
  "image_generation_call", "apply_patch_call", "computer_call", "code_interpreter_call", "mcp_call",
  "mcp_list_tools", "mcp_approval_request", "shell_call", "file_search_call",
]);
const TEXT_PARTS = ["input_text", "output_text", "text"];

/** The argument field each call type carries (the generic one is `arguments`). */
const CALL_ARGS: Record<string, string[]> = {
  custom_tool_call: ["input"],
  apply_patch_call: ["operation"],
  computer_call: ["actions", "action"],
  local_shell_call: ["action"],
  shell_call: ["action"],
  web_search_call: ["action"],
  file_search_call: ["queries"],
  code_interpreter_call: ["code"],
  image_generation_call: ["revised_prompt"],
};

function itemType(item: Record<string, unknown>): string {
  if (typeof item.type === "string") return item.type;
  return item.role !== undefined ? "message" : "other";
}

function isModelOutput(m: unknown): boolean {
  const item = obj(m);
  const type = itemType(item);
  if (type === "message") return item.role === "assistant";
  if (type === "tool_search_output") return item.execution === "server";
  return MODEL_OUTPUT.has(type);
}

function messageText(item: Record<string, unknown>): string {
  const refusals = arr(item.content).map((p) => obj(p)).filter((p) => p.type === "refusal" && typeof p.refusal === "string");
  const text = contentText(item.content, TEXT_PARTS);
  return refusals.length === 0 ? text : [text, ...refusals.map((p) => p.refusal as string)].filter((t) => t !== "").join("\n");
}

/** Text of a *_output item's `output`: a string as is, text parts joined, other values as canonical JSON. */
function outputText(output: unknown): string | null {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) {
    const texts = output.map((p) => obj(p)).filter((p) => TEXT_PARTS.indexOf(str(p.type)) >= 0 && typeof p.text === "string");
    if (texts.length > 0) return texts.map((p) => p.text as string).join("\n");
    // Attachments only (an image, a file): nothing textual to keep.
    if (output.length > 0 && output.every((p) => typeof obj(p).type === "string")) return null;
  }
  // A lone image (a computer screenshot) is an attachment too.
  if (output !== null && typeof output === "object" && !Array.isArray(output) && imagePayload(output as Record<string, unknown>) !== undefined) return null;
  return output === undefined ? null : canonicalJson(output);
}

/** The first non-zero exit code a shell call's outcomes state (else 0 when one states it). */
function shellExitCode(output: unknown): number | undefined {
  let code: number | undefined;
  for (const o of arr(output)) {
    const outcome = obj(obj(o).outcome);
    if (outcome.type === "exit" && typeof outcome.exit_code === "number" && (code === undefined || code === 0)) code = outcome.exit_code;
  }
  return code;
}

function callParts(item: Record<string, unknown>, type: string, ctx: PartContext): string[] {
  const part = new AssistantPart(ctx);
  let args: unknown = item.arguments;
  for (const field of CALL_ARGS[type] ?? []) {
    if (item[field] !== undefined) {
      args = item[field];
      break;
    }
  }
  part.addCall(item.name ?? item.server_label ?? type, args ?? "", item.call_id);
  if (type === "mcp_call") {
    if (typeof item.output === "string") part.addResult(item.output);
    if (typeof item.error === "string") part.addResult(item.error);
  } else if (type === "code_interpreter_call") {
    for (const o of arr(item.outputs)) if (typeof obj(o).logs === "string") part.addResult(obj(o).logs as string);
  } else if (type === "file_search_call") {
    for (const r of arr(item.results)) if (typeof obj(r).text === "string") part.addResult(obj(r).text as string);
  }
  return part.parts();
}

function summarizeItem(item: Record<string, unknown>, ctx: PartContext): string[] {
  const type = itemType(item);
  if (type === "message") {
    const role = str(item.role) || "unknown";
    const text = messageText(item);
    if (role === "assistant") {
      const part = new AssistantPart(ctx);
      part.addText(text);
      return part.parts();
    }
    const p = humanPart(role, text, ctx, true);
    return one(p);
  }
  if (type === "reasoning") {
    if (!ctx.cfg.keepThinking) return [];
    const texts = [...arr(item.summary), ...arr(item.content)].map((s) => obj(s).text).filter((t) => typeof t === "string");
    const part = new AssistantPart(ctx);
    part.addThinking(texts.join("\n"));
    return part.parts();
  }
  if (type === "shell_call_output") {
    const p = resultPart(canonicalJson(item.output ?? null), ctx, { callId: item.call_id, exitCode: shellExitCode(item.output) });
    return one(p);
  }
  if (type.endsWith("_output")) {
    const text = outputText(item.output);
    const p = text === null ? null : resultPart(text, ctx, { callId: item.call_id });
    return one(p);
  }
  if (type.endsWith("_call") || MODEL_OUTPUT.has(type)) return callParts(item, type, ctx);
  return [];
}

function digestForm(message: unknown): Form {
  const item = obj(message);
  const type = itemType(item);
  if (type === "message") {
    const parts = typeof item.content === "string" ? [["text", item.content]] : arr(item.content).map((p) => canonicalJson(withoutKeys(obj(p), ["id", "status"])));
    return ["message", prim(item.role), parts];
  }
  if (type === "reasoning") return ["reasoning", prim(item.encrypted_content), canonicalJson(item.summary ?? null), canonicalJson(item.content ?? null)];
  if (type.endsWith("_output")) {
    const out = item.output;
    return [type, prim(item.call_id), typeof out === "string" ? out : canonicalJson(out ?? null), typeof out === "string"];
  }
  if (type.endsWith("_call")) {
    const rest = withoutKeys(item, ["id", "status", "type", "call_id", "name", "arguments"]);
    const args = typeof item.arguments === "string" ? item.arguments : canonicalJson(item.arguments ?? null);
    return [type, prim(item.call_id), prim(item.name), args, canonicalJson(rest)];
  }
  return ["other", canonicalJson(withoutKeys(item, ["id", "status"]))];
}

const startsTurn = (m: unknown, prev: unknown): boolean => isModelOutput(m) && !isModelOutput(prev);

export const openaiResponses: Dialect = {
  name: "openai-responses",
  messagesKey: "input",
  isAssistant: isModelOutput,
  isSummary(m) {
    const item = obj(m);
    return itemType(item) === "message" && item.role === "user" && isSummaryText(messageText(item));
  },
  providerCompactionEnd: (msgs) => compactionEnd(msgs, (m) => obj(m).type === "compaction", startsTurn, (m) => openaiResponses.isSummary(m)),
  trimFromHead: () => false,
  startsTurn,
  summarize: (m, ctx) => summarizeItem(obj(m), ctx),
  digestForm,
  summaryMessage: (text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] }),
};

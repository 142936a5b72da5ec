/**
 * Per-message digests and the hash chain (spec §10). A digest covers what a message says, not
 * fields that change between requests (ids, status, cache_control, signatures), so a resent
 * history hashes the same and `chain[i]` identifies the prefix `messages[0..i]`.
 */
import { canonicalJson } from "../json";
import { arr, contentText, obj, str } from "../parts";
import type { DialectName } from "../dialects/types";
import { sha256Hex } from "./sha256";

type Form = unknown;

/** A primitive as it is; anything else as its canonical JSON, so a form never holds an object. */
function prim(v: unknown): unknown {
  if (v === undefined) return null;
  return v === null || typeof v !== "object" ? v : canonicalJson(v);
}

function withoutKeys(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  // A null prototype keeps a "__proto__" key as data instead of setting the prototype.
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(o)) if (keys.indexOf(k) < 0) out[k] = o[k];
  return out;
}

function textBlocksText(content: unknown): string {
  return typeof content === "string" ? content : contentText(content);
}

function anthropicBlock(b: unknown): Form {
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
        if (t !== "text" && typeof a !== "string") form.push(anthropicBlock(a));
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
      return [block.type, prim(source.type), sha256Hex(str(source.data) || str(source.url))];
    }
    default:
      return ["other", canonicalJson(withoutKeys(block, ["cache_control"]))];
  }
}

function anthropicForm(m: Record<string, unknown>): Form {
  const blocks = typeof m.content === "string" ? [["text", m.content]] : arr(m.content).map(anthropicBlock);
  return [prim(m.role), blocks];
}

function chatPart(p: unknown): Form {
  if (typeof p === "string") return ["text", p];
  const part = obj(p);
  if (part.type === "text") return ["text", str(part.text)];
  if (part.type === "refusal") return ["refusal", str(part.refusal)];
  if (part.type === "image_url") {
    const url = typeof part.image_url === "string" ? part.image_url : str(obj(part.image_url).url);
    return ["image_url", sha256Hex(url)];
  }
  return ["other", canonicalJson(part)];
}

function chatForm(m: Record<string, unknown>): Form {
  const blocks = typeof m.content === "string" ? [["text", m.content]] : arr(m.content).map(chatPart);
  const calls = arr(m.tool_calls).map((c) => {
    const call = obj(c);
    if (call.type === "custom") return [prim(call.id), "custom", str(obj(call.custom).name), canonicalJson(obj(call.custom).input ?? null)];
    const fn = obj(call.function);
    return [prim(call.id), prim(fn.name), typeof fn.arguments === "string" ? fn.arguments : canonicalJson(fn.arguments ?? null)];
  });
  if (m.function_call !== null && typeof m.function_call === "object") {
    const fn = obj(m.function_call);
    calls.push([null, prim(fn.name), typeof fn.arguments === "string" ? fn.arguments : canonicalJson(fn.arguments ?? null)]);
  }
  const form: unknown[] = [prim(m.role), blocks, calls, prim(m.tool_call_id), prim(m.name)];
  // Redacting reasoning must invalidate a cached summary that quoted it.
  const reasoning = [m.reasoning_content, m.reasoning].find((r) => typeof r === "string");
  if (reasoning !== undefined) form.push(reasoning);
  if (typeof m.refusal === "string") form.push(["refusal", m.refusal]);
  return form;
}

function responsesForm(item: Record<string, unknown>): Form {
  const type = typeof item.type === "string" ? item.type : item.role !== undefined ? "message" : "other";
  if (type === "message") return ["message", prim(item.role), typeof item.content === "string" ? [["text", item.content]] : arr(item.content).map((p) => canonicalJson(withoutKeys(obj(p), ["id", "status"])))];
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

function piBlock(b: unknown): Form {
  const block = obj(b);
  switch (block.type) {
    case "text":
      return ["text", str(block.text)];
    case "thinking":
      return ["thinking", str(block.thinking)];
    case "toolCall":
      return ["toolCall", prim(block.id), prim(block.name), canonicalJson(block.arguments ?? null)];
    case "image":
      return ["image", prim(block.mimeType), sha256Hex(str(block.data))];
    default:
      return ["other", canonicalJson(block)];
  }
}

function piForm(m: Record<string, unknown>): Form {
  const blocks = typeof m.content === "string" ? [["text", m.content]] : arr(m.content).map(piBlock);
  const form: unknown[] = [prim(m.role), blocks];
  if (m.role === "toolResult") form.push(prim(m.toolCallId), m.isError === true);
  if (m.role === "bashExecution") form.push(str(m.command), str(m.output));
  if (m.role === "compactionSummary" || m.role === "branchSummary") form.push(str(m.summary));
  return form;
}

/** The canonical form a message's digest is computed from, for each dialect. */
export function canonicalForm(message: unknown, dialect: DialectName): Form {
  const m = obj(message);
  switch (dialect) {
    case "anthropic":
      return anthropicForm(m);
    case "openai-chat":
      return chatForm(m);
    case "openai-responses":
      return responsesForm(m);
    case "pi":
      return piForm(m);
    default:
      return [prim(m.role), typeof m.content === "string" ? m.content : canonicalJson(m.content ?? null)];
  }
}

/** The canonical text a message's digest hashes. */
export function canonicalText(message: unknown, dialect: DialectName): string {
  // Forms hold only arrays, strings, numbers, booleans and null (nested objects are already
  // canonical strings), so the built-in serialiser gives the canonical text.
  return JSON.stringify(canonicalForm(message, dialect));
}

/** `sha256_hex(canonical_json(canonical_form(message)))`. */
export function messageDigest(message: unknown, dialect: DialectName): string {
  return sha256Hex(canonicalText(message, dialect));
}

/** `chain[0] = sha256(d0)`, `chain[i] = sha256(chain[i-1] + d_i)`: chain[i] names the prefix messages[0..i]. */
export function chainHashes(digests: readonly string[]): string[] {
  const out: string[] = [];
  let prev = "";
  for (const d of digests) {
    prev = sha256Hex(prev + d);
    out.push(prev);
  }
  return out;
}

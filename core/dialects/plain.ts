/**
 * Flat `{role, content: string}` messages (AgentParley). Role names vary by platform, so they are
 * mapped to classes; a content string that is itself JSON in a known provider shape (an Anthropic
 * block list, an OpenAI message with tool_calls) is read by that shape's rules.
 */
import type { Dialect } from "./types.js";
import { humanPart, one, isSummaryText, NOT_SEEN, resultPart, type PartContext } from "../parts/index.js";
import { obj, str, jsonParse } from "../guards.js";
import { anthropicAssistantParts, anthropicUserParts } from "./anthropic.js";
import { chatAssistantParts } from "./openai-chat.js";
import { prim, type Form } from "./form.js";
import { canonicalJson } from "../estimate/json.js";

declare const __CLIFF_SANDBOX__: boolean | undefined;

export type PlainClass = "system" | "human" | "assistant" | "tool" | "other";

const CLASSES: Record<string, PlainClass> = {
  system: "system", developer: "system",
  user: "human", human: "human",
  assistant: "assistant", model: "assistant", ai: "assistant",
  tool: "tool", toolresult: "tool", tool_result: "tool", function: "tool", observation: "tool",
};

/** The class of a role name (case-insensitive); unknown names are "other". */
export function plainClass(role: unknown): PlainClass {
  return typeof role === "string" ? CLASSES[role.toLowerCase()] ?? "other" : "other";
}

/** Nesting a provider shape never needs; deeper text is read as text, never decoded. */
const MAX_EMBEDDED_DEPTH = 64;

/**
 * Whether a content string may hold a provider shape worth decoding: a list of typed blocks or an
 * object with tool calls, nested at most MAX_EMBEDDED_DEPTH deep. One pass, no recursion, so a
 * bracket bomb cannot overflow a recursive JSON parser (QuickJS's overflows the host stack).
 */
function worthDecoding(content: string): boolean {
  if (content.charCodeAt(0) === 0x5b ? !/^\[\s*\{/.test(content) : content.indexOf('"tool_calls"') < 0) return false;
  return shallow(content);
}

// A JSON string literal (escapes included), and a run of anything but brackets.
const STRING_LITERAL = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"/g;
const NOT_BRACKETS = /[^[\]{}]+/g;

/**
 * JSON text nested at most MAX_EMBEDDED_DEPTH deep, without recursion. String literals and then
 * everything but brackets are removed by the regex engine (native code, and in QuickJS several
 * times faster than a loop over every character); only the brackets left are walked.
 */
function shallow(content: string): boolean {
  const brackets = content.replace(STRING_LITERAL, "").replace(NOT_BRACKETS, "");
  let depth = 0;
  for (let i = 0; i < brackets.length; i++) {
    const c = brackets.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_EMBEDDED_DEPTH) return false;
    } else depth--;
  }
  return true;
}

/** The JSON a content string holds when it is an object or an array worth decoding, else undefined. */
function embeddedJson(content: string, ctx: PartContext): unknown {
  const c = content.charCodeAt(0);
  if (c !== 0x5b && c !== 0x7b) return undefined; // [ or {
  // The ladder's passes read the same strings again: each is judged and decoded once.
  const known = ctx.decoded === undefined ? NOT_SEEN : ctx.decoded.get(content);
  if (known !== NOT_SEEN) return known;
  let data: unknown;
  if (worthDecoding(content)) {
    try {
      data = jsonParse(content);
    } catch {
      data = undefined;
    }
  }
  ctx.decoded?.set(content, data);
  return data;
}

function isBlockList(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every((b) => typeof obj(b).type === "string");
}

// A host that writes a tool call into the text as a signature line: `[name] {"json":"args"}`.
const SIGNATURE_LINE = /^\[([^\]\n]{1,100})\] (\{.*\})$/;

/**
 * Tells `ctx.onCall` of the signature lines in assistant text (the text itself is summarised as
 * text). Lines are found with indexOf and only a line that opens with "[" is matched: a regex over
 * the whole text is slow in QuickJS.
 */
function reportSignatureCalls(content: string, ctx: PartContext): void {
  if (ctx.onCall === undefined || content.indexOf("] {") < 0) return;
  for (let start = 0; start < content.length; ) {
    const nl = content.indexOf("\n", start);
    const end = nl < 0 ? content.length : nl;
    const m = content.charCodeAt(start) === 0x5b ? SIGNATURE_LINE.exec(content.slice(start, end)) : null;
    if (m !== null && shallow(m[2])) {
      try {
        ctx.onCall(m[1], jsonParse(m[2]));
      } catch {
        // not JSON after all: not a call
      }
    }
    start = end + 1;
  }
}

function assistantParts(content: string, ctx: PartContext): string[] {
  const data = embeddedJson(content, ctx);
  if (isBlockList(data)) return anthropicAssistantParts(data, ctx);
  const msg = obj(data);
  if (Array.isArray(msg.tool_calls)) return chatAssistantParts(msg, ctx);
  reportSignatureCalls(content, ctx);
  return anthropicAssistantParts(content, ctx);
}

function digestForm(message: unknown): Form {
  const m = obj(message);
  return [prim(m.role), typeof m.content === "string" ? m.content : canonicalJson(m.content ?? null)];
}

export const plain: Dialect = {
  name: "plain",
  messagesKey: "messages",
  isAssistant: (m) => plainClass(obj(m).role) === "assistant",
  isSummary(m) {
    const msg = obj(m);
    return plainClass(msg.role) !== "assistant" && isSummaryText(msg.content);
  },
  trimFromHead: () => false,
  startsTurn: (m) => plainClass(obj(m).role) === "assistant",
  summarize(m, ctx) {
    const msg = obj(m);
    const content = str(msg.content);
    // Never compact a compaction, whoever carries it: a model may echo our summary, a host resend it as a note.
    if (isSummaryText(content)) return [];
    switch (plainClass(msg.role)) {
      case "assistant":
        return assistantParts(content, ctx);
      case "tool": {
        const data = embeddedJson(content, ctx);
        return isBlockList(data) ? anthropicUserParts(data, ctx) : one(resultPart(content, ctx));
      }
      case "human": {
        const data = embeddedJson(content, ctx);
        return isBlockList(data) ? anthropicUserParts(data, ctx) : one(humanPart("user", content, ctx));
      }
      case "system":
        return one(humanPart("system", content, ctx, false));
      default:
        return one(humanPart(typeof msg.role === "string" && msg.role !== "" ? msg.role : "unknown", content, ctx));
    }
  },
  // Digests are the proxy's (core/engine/digest.ts): the sandbox's bundle never asks for one and leaves the form out.
  digestForm: typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? (undefined as never) : digestForm,
  summaryMessage: (text) => ({ role: "user", content: text }),
};

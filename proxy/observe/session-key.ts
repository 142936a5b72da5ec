/**
 * Which session a request belongs to, and what kind of request it is. The key is the client's own
 * session identifier where it sends one (Claude Code: the `x-claude-code-session-id` header, or
 * `session_id` in the JSON of `metadata.user_id`; Codex: its `session_id` / `conversation_id`
 * headers, or `prompt_cache_key`), else the digest of the history's first message (the root of
 * the hash chain every later request of the session shares). Keys are kept only as hashes: a
 * session's display id is the first hex digits of the key's SHA-256, never the key.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isObj, type Dialect } from "../../core/index.js";
import { ownCopy } from "./kept.js";

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === "string" && s !== "" ? s : undefined;
};

/** Claude Code's `metadata.user_id`: a JSON object with `session_id`, or (older) `user_…_session_<uuid>`. */
function claudeSessionOfUserId(userId: unknown): string | undefined {
  if (typeof userId !== "string") return undefined;
  if (userId.startsWith("{")) {
    try {
      const v = JSON.parse(userId) as unknown;
      if (isObj(v) && typeof v.session_id === "string" && v.session_id !== "") return v.session_id;
    } catch {
      return undefined;
    }
    return undefined;
  }
  const m = /_session_([0-9A-Za-z-]+)$/.exec(userId);
  return m === null ? undefined : m[1];
}

/** The client's session key, or the chain's root (`root()` is only called when the client sent none). */
export function sessionKey(headers: IncomingHttpHeaders, body: Record<string, unknown> | null, root: () => string | null): string | null {
  const claude = header(headers, "x-claude-code-session-id") ?? (body !== null && isObj(body.metadata) ? claudeSessionOfUserId(body.metadata.user_id) : undefined);
  if (claude !== undefined) return "claude\u0000" + claude;
  const codex = header(headers, "session_id") ?? header(headers, "session-id") ?? header(headers, "conversation_id") ?? header(headers, "conversation-id");
  if (codex !== undefined) return "codex\u0000" + codex;
  if (body !== null && typeof body.prompt_cache_key === "string" && body.prompt_cache_key !== "") return "cache-key\u0000" + body.prompt_cache_key;
  const r = root();
  return r === null ? null : "chain\u0000" + r;
}

/**
 * What a request is for its session: a probe (`max_tokens` ≤ 1: a quota or reachability check), a
 * turn, or a side call (Claude Code's permission classifier, a title: the session's cost, not its turn).
 */
export type RequestKind = "probe" | "side" | "turn";

/** What the request alone says; `unturned` (no model turn, not a side call by its shape) is its session's opening turn when the session has had no turn, else a side call. */
export type RequestShape = RequestKind | "unturned";

const LIMIT_KEYS = ["max_tokens", "max_completion_tokens", "max_output_tokens"] as const;

/** The texts a client puts first in a session's opening message: Claude Code's reminders, Codex's environment and instructions. */
const DIRECTIVES = ["<system-reminder>", "<environment_context>", "<user_instructions>"];

/** A content value's first text (a string, or the first part of a list when it is text), or null. */
function firstText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content) || content.length === 0 || !isObj(content[0])) return null;
  const t = content[0].text;
  return typeof t === "string" ? t : null;
}

/** A user message whose first content is a system directive (a session's opening, as Claude Code and Codex send it). */
export function isOpening(message: unknown): boolean {
  if (!isObj(message) || message.role !== "user") return false;
  const text = firstText(message.content)?.trimStart();
  return text !== undefined && text !== null && DIRECTIVES.some((d) => text.startsWith(d));
}

export function requestShape(body: Record<string, unknown>, messages: readonly unknown[], dialect: Dialect): RequestShape {
  for (const k of LIMIT_KEYS) if (typeof body[k] === "number" && (body[k] as number) <= 1) return "probe";
  let plain = 0;
  for (const m of messages) {
    if (dialect.isAssistant(m)) return "turn";
    if (isObj(m) && m.role === "user" && !isOpening(m)) plain++;
  }
  // Two user messages and no answer yet: a fixed instruction and a transcript (Claude Code's permission classifier).
  return plain >= 2 ? "side" : "unturned";
}

/**
 * A model name fit to show. It comes from a body, which may say anything: only the names of known
 * model families are shown, anything else is "other".
 */
const MODEL = /^(claude|gpt|chatgpt|codex|o[1-9]|gemini|gemma|grok|mistral|mixtral|codestral|llama|deepseek|qwen|kimi|glm)([._:@/-][A-Za-z0-9._:@/-]{0,72})?$/i;

export function modelName(body: Record<string, unknown> | null): string {
  const m = body?.model;
  return typeof m === "string" && MODEL.test(m) ? ownCopy(m) : "other";
}

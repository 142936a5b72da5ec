/**
 * Anthropic's message threads (beta `message-threads-2026-08-12`). A request with `thread` either
 * creates a thread the provider keeps (`{"type":"create"}`, the whole conversation) or continues
 * one (`{"type":"continue","previous_message_id":…}`, only the new messages). A proxy that cuts the
 * history cannot serve either: a continue holds nothing to cut and nothing to recall, and a cliff
 * in a created thread would leave the provider holding a history the client never sent.
 *
 * By default the proxy answers what the API answers for a request it will not serve in a thread:
 * 400 `invalid_request_error` with `error.details.error_code` `thread_unsupported_request`. Each
 * client recovers from that one and from no other answer without a loop: Pi 1.6 resends the turn
 * in full without `thread` and turns threads off for the session (a 404 `thread_not_found` would
 * have it create a new thread, refused again, and the turn fail); Claude Code 2.1.332 resends the
 * turn stateless and keeps the thread stateless for the session (a 404 would have it replay under
 * a new thread every turn); the Anthropic SDK's thread stops threading when asked to continue
 * unthreaded (its tool runner's setting). From then on every request carries the whole
 * conversation, which the proxy compacts as any other. `--pass-threads` sends them on untouched.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RequestRecord } from "./record.js";

export const THREADS_BETA = "message-threads-2026-08-12";
export const THREAD_UNSUPPORTED = "thread_unsupported_request";

export interface ThreadRequest {
  /** `create` or `continue` as the client wrote it; any other type is told as it came, cut short. */
  kind: string;
  /** Whether `anthropic-beta` names the threads beta (without it the API refuses the field itself). */
  beta: boolean;
  /** The parsed body, for the session key of a create (a continue's first message is not the conversation's). */
  body: Record<string, unknown>;
}

const betas = (headers: IncomingHttpHeaders): string[] => {
  const v = headers["anthropic-beta"];
  return (Array.isArray(v) ? v.join(",") : v ?? "").split(",").map((b) => b.trim());
};

/**
 * The thread a Messages request asks for, or null. Most bodies never hold the key, so the bytes
 * are searched before any parse: an escaped quote inside a message cannot match it.
 */
export function threadRequest(raw: Buffer, headers: IncomingHttpHeaders): ThreadRequest | null {
  if (raw.indexOf('"thread"') < 0) return null;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return null;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return null;
  const thread = (body as Record<string, unknown>).thread;
  if (thread === null || typeof thread !== "object" || Array.isArray(thread)) return null;
  const type = (thread as Record<string, unknown>).type;
  const kind = type === "create" || type === "continue" ? type : `other:${String(type).slice(0, 16)}`;
  return { kind, beta: betas(headers).some((b) => b.startsWith("message-threads-")), body: body as Record<string, unknown> };
}

/** The API's answer to a request it will not serve in a thread, as its SDKs and Claude Code read it. */
export function threadDeclinedBody(): string {
  const message = "cliffcompaction: this proxy compacts each request from the whole conversation, which a message thread keeps on the provider instead; send the full conversation without `thread` (or start the proxy with --pass-threads to send threads on untouched, never compacted)";
  return JSON.stringify({ type: "error", error: { type: "invalid_request_error", message, details: { error_code: THREAD_UNSUPPORTED } } });
}

/** What one thread request is recorded as: no tokens estimated (a continue's are not the context), declined or passed. */
export function threadRecord(t: ThreadRequest, passed: boolean, status: number): RequestRecord {
  const messages = Array.isArray(t.body.messages) ? t.body.messages.length : 0;
  return { api: "anthropic", messagesIn: messages, messagesOut: passed ? messages : 0, tokensIn: 0, tokensOut: 0, action: passed ? "thread-passed" : "thread-declined", escalations: 0, addedMs: 0, status, thread: t.kind };
}

/** The line serve and run start with. */
export function threadsLine(passThreads: boolean): string {
  return passThreads
    ? "message threads: sent on untouched, never compacted (--pass-threads): a thread's requests get no cliff"
    : "message threads: declined as the API declines an unsupported thread (400 thread_unsupported_request), so the client sends the whole conversation and it is compacted (--pass-threads sends them on untouched)";
}

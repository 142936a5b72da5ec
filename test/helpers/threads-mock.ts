/**
 * An Anthropic Messages upstream on 127.0.0.1 that keeps message threads as the docs describe them
 * (beta `message-threads-2026-08-12`): a request with `thread: {type: "create"}` and the whole
 * conversation stores it, with the answer, under the answer's `id`; `{type: "continue",
 * previous_message_id}` carries only the new messages, and the model sees the thread's messages
 * and the new ones. It refuses what the API refuses: `thread` without the beta (the field is
 * unknown then), a continue whose id it does not hold (404 `thread_not_found`), a reply continued
 * twice (`thread_already_continued`), a continue that repeats `system` or `tools`, or changes the
 * model or thinking (`thread_fingerprint_mismatch`), a thread with `context_management` or
 * `fallbacks` (`thread_unsupported_request`), and any history whose tool results do not answer the
 * calls just before them. Each answer, from the model asked for, is a tool call of `bash` (or text once `calls` are used);
 * every request is recorded with the whole history the model saw. It stops by itself.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import { listenLoopback } from "./mock-upstream.js";

export const THREADS_BETA = "message-threads-2026-08-12";

type Obj = Record<string, any>;

export interface ThreadExchange {
  headers: IncomingHttpHeaders;
  body: Obj;
  status: number;
  /** The thread type the request carried, if any. */
  thread?: string;
  /** The error code of a refusal (`details.error_code`, else the error type). */
  error?: string;
  /** Every message the model saw (a continue's thread and its new messages), for an answered request. */
  seen?: Obj[];
}

export interface ThreadsMock {
  url: string;
  exchanges: ThreadExchange[];
  /** Threads it holds, by the id of their newest answer. */
  held: Map<string, { messages: Obj[]; fixed: string; continued: boolean }>;
  close(): Promise<void>;
}

const fixedOf = (b: Obj): string => JSON.stringify([b.model, b.thinking ?? null, b.output_config ?? null, b.tool_choice ?? null]);
const withoutCache = (m: Obj): Obj => JSON.parse(JSON.stringify(m, (k, v) => (k === "cache_control" ? undefined : v)));

function refusal(status: number, type: string, message: string, code?: string): { status: number; body: Obj; error: string } {
  return { status, error: code ?? type, body: { type: "error", error: { type, message, ...(code !== undefined ? { details: { error_code: code } } : {}) } } };
}

/** The answer to the conversation's `turn`-th request (its assistant messages and one): a call of `bash`, or text once `calls` are used. */
function answer(id: string, model: string, turn: number, calls: number, inputTokens: number, stream: boolean): { type: string; text: string } {
  const content = turn <= calls ? [{ type: "tool_use", id: `toolu_${id}`, name: "bash", input: { command: `seq 1 ${200 + turn}` } }] : [{ type: "text", text: "ALL DONE" }];
  const message = { id, type: "message", role: "assistant", model, content, stop_reason: turn <= calls ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 12 } };
  if (!stream) return { type: "application/json", text: JSON.stringify(message) };
  const block = content[0] as Obj;
  const start = block.type === "tool_use" ? { ...block, input: {} } : { type: "text", text: "" };
  const delta = block.type === "tool_use" ? { type: "input_json_delta", partial_json: JSON.stringify(block.input) } : { type: "text_delta", text: block.text };
  const events = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { input_tokens: inputTokens, output_tokens: 0 } } },
    { type: "content_block_start", index: 0, content_block: start },
    { type: "content_block_delta", index: 0, delta },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 12 } },
    { type: "message_stop" },
  ];
  return { type: "text/event-stream", text: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("") };
}

/** A tool result that does not answer a call of the message just before it, as the API refuses it; null when none. */
function pairingProblem(messages: Obj[]): string | null {
  if (messages[0]?.role !== "user") return "messages.0: the first message must be a user message";
  for (let i = 1; i < messages.length; i++) {
    const prev = messages[i - 1];
    const calls = (Array.isArray(prev.content) ? prev.content : []).filter((c: Obj) => c.type === "tool_use").map((c: Obj) => c.id);
    const answered = new Set((Array.isArray(messages[i].content) ? messages[i].content : []).filter((c: Obj) => c.type === "tool_result").map((c: Obj) => c.tool_use_id));
    const missing = calls.find((id: string) => !answered.has(id));
    if (missing !== undefined) return `messages.${i}: tool_use ids were found without tool_result blocks immediately after: ${missing}`;
    const ids = new Set((Array.isArray(prev.content) ? prev.content : []).filter((c: Obj) => c.type === "tool_use").map((c: Obj) => c.id));
    for (const c of Array.isArray(messages[i].content) ? messages[i].content : []) {
      if (c.type === "tool_result" && (prev.role !== "assistant" || !ids.has(c.tool_use_id))) return `messages.${i}: unexpected tool_use_id found in tool_result blocks: ${c.tool_use_id}. Each tool_result block must have a corresponding tool_use block in the previous message.`;
    }
  }
  return null;
}

/** The history the model sees for `b`, or the API's refusal. */
function history(m: ThreadsMock, b: Obj, headers: IncomingHttpHeaders): { seen: Obj[] } | ReturnType<typeof refusal> {
  const t = b.thread;
  if (t === undefined || t === null) return { seen: b.messages };
  const beta = String(headers["anthropic-beta"] ?? "").split(",").map((s) => s.trim()).includes(THREADS_BETA);
  if (!beta) return refusal(400, "invalid_request_error", "thread: Extra inputs are not permitted");
  const unsupported = ["context_management", "fallbacks"].filter((k) => b[k] !== undefined);
  if (unsupported.length > 0) return { ...refusal(400, "invalid_request_error", `thread is not supported with ${unsupported.join(", ")}`, "thread_unsupported_request"), body: { type: "error", error: { type: "invalid_request_error", message: "thread is not supported with this request", details: { error_code: "thread_unsupported_request", unsupported } } } };
  if (t.type === "create") return { seen: b.messages };
  if (t.type !== "continue") return refusal(400, "invalid_request_error", "thread.type: must be create or continue");
  if (b.system !== undefined || b.tools !== undefined) return refusal(400, "invalid_request_error", "system, tools: not allowed on a thread continue; the thread keeps its own");
  const held = m.held.get(String(t.previous_message_id));
  if (held === undefined) return refusal(404, "not_found_error", `thread_not_found: no thread state for previous_message_id ${t.previous_message_id}`, "thread_not_found");
  if (held.continued) return refusal(400, "invalid_request_error", "this message has already been continued", "thread_already_continued");
  if (held.fixed !== fixedOf(b)) return refusal(400, "invalid_request_error", "the request has a differing field from the thread", "thread_fingerprint_mismatch");
  held.continued = true;
  return { seen: [...held.messages, ...b.messages] };
}

export async function threadsMock(calls = 1_000, lifetimeMs = 120_000): Promise<ThreadsMock> {
  const m: ThreadsMock = { url: "", exchanges: [], held: new Map(), close: async () => {} };
  let n = 0;
  const turnOf = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const b = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Obj;
      const x: ThreadExchange = { headers: req.headers, body: b, status: 0, ...(b.thread ? { thread: String(b.thread.type) } : {}) };
      m.exchanges.push(x);
      const h = history(m, b, req.headers);
      const problem = "seen" in h ? pairingProblem(h.seen) : null;
      const refused = "seen" in h ? (problem === null ? null : refusal(400, "invalid_request_error", problem)) : h;
      if (refused !== null) {
        x.status = refused.status;
        x.error = refused.error;
        const text = JSON.stringify(refused.body);
        res.writeHead(refused.status, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) });
        return void res.end(text);
      }
      const seen = (h as { seen: Obj[] }).seen;
      const id = `msg_${++n}`;
      // The newest tool result answers the mock's own call, which names its turn: a cliff that replaced the middle changes nothing here.
      const last = seen[seen.length - 1];
      const result = (Array.isArray(last?.content) ? last.content : []).find((c: Obj) => c.type === "tool_result");
      const turn = (result === undefined ? 0 : turnOf.get(String(result.tool_use_id)) ?? 0) + 1;
      turnOf.set(`toolu_${id}`, turn);
      const a = answer(id, String(b.model), turn, calls, Math.ceil(JSON.stringify(seen).length / 4), b.stream === true);
      x.status = 200;
      x.seen = seen;
      if (b.thread) m.held.set(id, { messages: [...seen.map(withoutCache), { role: "assistant", content: JSON.parse(a.type === "application/json" ? a.text : answer(id, String(b.model), turn, calls, 0, false).text).content }], fixed: fixedOf(b), continued: false });
      res.writeHead(200, { "content-type": a.type, "content-length": String(Buffer.byteLength(a.text)) });
      res.end(a.text);
    });
  });
  return Object.assign(m, await listenLoopback(server, lifetimeMs));
}

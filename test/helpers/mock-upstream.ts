/**
 * A model API on 127.0.0.1 for tests: Anthropic Messages, OpenAI Chat Completions and Responses,
 * streaming (SSE) or not, as the request asks. It records every request it receives and the
 * exact bytes it answered, and can be told to answer otherwise (a context-length error, say).
 * It stops by itself after `lifetimeMs`.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body: string | Buffer;
}

export interface MockUpstream {
  url: string;
  received: Received[];
  /** The bytes of each answer, in order. */
  answered: Buffer[];
  /** Return an answer to override the default one. */
  override: ((r: Received) => Answer | undefined) | undefined;
  close(): Promise<void>;
}

const sse = (events: unknown[], named: boolean, done = false): string =>
  events.map((e) => `${named ? `event: ${(e as { type: string }).type}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");

function anthropicAnswer(stream: boolean, text: string): Answer {
  const message = { id: "msg_mock", type: "message", role: "assistant", model: "mock", content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 3 } };
  if (!stream) return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(message) };
  const events = [
    { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ...text.split(" ").map((w, i) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: (i ? " " : "") + w } })),
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } },
    { type: "message_stop" },
  ];
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: sse(events, true) };
}

function chatAnswer(stream: boolean, text: string): Answer {
  const base = { id: "chatcmpl-mock", created: 1, model: "mock" };
  if (!stream) return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 } }) };
  const chunk = (delta: unknown, finish: string | null) => ({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = [chunk({ role: "assistant", content: "" }, null), ...text.split(" ").map((w, i) => chunk({ content: (i ? " " : "") + w }, null)), chunk({}, "stop")];
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: sse(events, false, true) };
}

function responsesAnswer(stream: boolean, text: string): Answer {
  const item = { type: "message", id: "msg_mock", status: "completed", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] };
  const response = { id: "resp_mock", object: "response", created_at: 1, status: "completed", model: "mock", output: [item], usage: { input_tokens: 10, output_tokens: 3, total_tokens: 13 } };
  if (!stream) return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify(response) };
  const events = [
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    ...text.split(" ").map((w, i) => ({ type: "response.output_text.delta", sequence_number: i + 1, item_id: "msg_mock", output_index: 0, content_index: 0, delta: (i ? " " : "") + w })),
    { type: "response.completed", sequence_number: 99, response },
  ];
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: sse(events, true) };
}

function defaultAnswer(r: Received): Answer {
  let stream = false;
  try {
    stream = JSON.parse(r.body.toString("utf8")).stream === true;
  } catch {
    // not JSON: answer as if not streaming
  }
  const path = r.path.split("?")[0];
  const text = `mock answer to ${path}`;
  // By the path's end, as the proxy routes: any prefix (none, /v1, /openai/v1, /backend-api/codex) is the same API.
  if (/\/messages(\/|$)/.test(path)) return anthropicAnswer(stream, text);
  if (path.endsWith("/chat/completions")) return chatAnswer(stream, text);
  if (path.endsWith("/responses")) return responsesAnswer(stream, text);
  return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { message: `no route ${r.method} ${r.path}` } }) };
}

export async function mockUpstream(lifetimeMs = 120_000): Promise<MockUpstream> {
  const mock: MockUpstream = { url: "", received: [], answered: [], override: undefined, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      mock.received.push(r);
      const a = mock.override?.(r) ?? defaultAnswer(r);
      const body = Buffer.isBuffer(a.body) ? a.body : Buffer.from(a.body, "utf8");
      mock.answered.push(body);
      res.writeHead(a.status, { ...a.headers, "content-length": String(body.length) });
      res.end(body);
    });
  });
  return Object.assign(mock, await listenLoopback(server, lifetimeMs));
}

/** Starts `server` on a free loopback port for at most `lifetimeMs`: its url, and a close that ends open connections too. */
export async function listenLoopback(server: http.Server, lifetimeMs: number): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

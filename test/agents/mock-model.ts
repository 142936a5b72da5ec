/**
 * A scripted model API on 127.0.0.1 for the agent end-to-end tests: it answers every agent turn with
 * one shell tool call whose output is large, `calls` times (it counts what it issued: once the proxy
 * compacts, the history no longer shows every earlier result), then with a final text. Anthropic
 * Messages (what Claude Code speaks) and OpenAI Responses (what Codex speaks, on `/v1` or on the
 * ChatGPT backend's `/backend-api/codex`), streamed as the agents ask. It reports usage as a provider
 * would, input tokens from the size of the body it received, and with a `window` it refuses a body
 * over it as the provider does. It records every request (path, headers, body) and the usage it
 * reported, and can hold its final answer while a test looks at the proxy. It stops by itself.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The input tokens reported for it (its size / 4), and whether it was refused as over the window. */
  tokens: number;
  refused: boolean;
}

export interface MockModel {
  url: string;
  seen: Seen[];
  /** The usage its answers reported so far, in the proxy's terms (input not read from a cache). */
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number };
  close(): void;
}

export interface MockOptions {
  /** Tool calls to issue before the final text. */
  calls: number;
  /** The shell command each call runs. */
  command?: string;
  /** A context window: a body whose tokens exceed it is refused with the provider's context-length error. */
  window?: number;
  lifetimeMs?: number;
  /** Called before the final answer (the one with ALL DONE) is sent; it waits for this to finish. */
  beforeFinal?: () => Promise<void>;
}

/** An answer: its bytes, whether it is the final one, and the usage it reports. */
interface Answer {
  text: string;
  final: boolean;
  input: number;
  output: number;
}

/** What a summarisation request from an agent's own compaction asks for (the mock answers it with a summary). */
export const SUMMARISING = /create a detailed summary of the conversation|summarize the conversation|context checkpoint compaction/i;

const sse = (events: Record<string, unknown>[]): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
let ids = 0;

interface Turn {
  calls: number;
  command: string;
  issued: { count: number };
  tokens: number;
}

function anthropicTurn(body: any, t: Turn, summarising: boolean): Answer {
  const tool = summarising ? undefined : (body.tools ?? []).find((x: any) => ["Bash", "bash", "_bash"].includes(x.name));
  const bash = tool !== undefined;
  const results = bash && t.issued.count < t.calls ? t.issued.count++ : t.calls;
  // Usage as a real API reports it: hosts such as Pi and Claude Code decide when to compact from it.
  const msg = { id: `msg_${++ids}`, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: t.tokens, output_tokens: 1 } };
  const events: Record<string, unknown>[] = [{ type: "message_start", message: msg }];
  if (bash && results < t.calls) {
    const input = JSON.stringify({ command: t.command, description: "print numbers" });
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${ids}`, name: tool.name, input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: input } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    );
  } else {
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: summarising ? SUMMARY : bash ? "ALL DONE" : "ok" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
    );
  }
  events.push({ type: "message_stop" });
  const calling = bash && results < t.calls;
  return { text: sse(events), final: bash && !calling, input: t.tokens, output: calling ? 20 : 2 };
}

const SUMMARY = "<summary>The user asked for the numbers printed with seq several times; they were printed. Next: print them again, then say ALL DONE.</summary>";

function responsesItem(body: any, t: Turn, summarising: boolean): Record<string, unknown> {
  if (summarising) return { type: "message", id: `msg_${ids}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: SUMMARY, annotations: [] }] };
  // Codex declares its tools in the request or, lately, in an `additional_tools` input item of namespaces.
  const declared: any[] = [...(body.tools ?? []), ...(body.input ?? []).filter((i: any) => i?.type === "additional_tools").flatMap((i: any) => i.tools ?? [])];
  const tools: any[] = declared.flatMap((x) => (x.type === "namespace" ? x.tools ?? [] : [x]));
  const shell = tools.find((x) => ["shell", "exec_command", "shell_command", "exec"].includes(x.name));
  const results = shell !== undefined && t.issued.count < t.calls ? t.issued.count++ : t.calls;
  if (shell !== undefined && results < t.calls && shell.type === "custom") {
    // Code mode: the shell is reached from JavaScript through the nested tools.
    const input = `const r = await tools.exec_command({ cmd: ${JSON.stringify(t.command)} });\ntext(r);`;
    return { type: "custom_tool_call", id: `ctc_${ids}`, status: "completed", call_id: `call_${ids}`, name: shell.name, input };
  }
  if (shell !== undefined && results < t.calls) {
    const args = shell.name === "exec_command" ? { cmd: t.command } : shell.name === "shell_command" ? { command: t.command } : { command: ["bash", "-lc", t.command] };
    return { type: "function_call", id: `fc_${ids}`, status: "completed", call_id: `call_${ids}`, name: shell.name, arguments: JSON.stringify(args) };
  }
  return { type: "message", id: `msg_${ids}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: shell !== undefined ? "ALL DONE" : "ok", annotations: [] }] };
}

function responsesTurn(body: any, t: Turn, summarising: boolean): Answer {
  const id = `resp_${++ids}`;
  const item = responsesItem(body, t, summarising);
  const usage = { input_tokens: t.tokens, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: t.tokens + 10 };
  const response = { id, object: "response", created_at: 1, status: "completed", model: body.model, output: [item], usage };
  const text = sse([
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...item, status: "in_progress" } },
    { type: "response.output_item.done", sequence_number: 2, output_index: 0, item },
    { type: "response.completed", sequence_number: 3, response },
  ]);
  const final = item.type === "message" && !summarising && JSON.stringify(item).includes("ALL DONE");
  return { text, final, input: t.tokens, output: 10 };
}

/** The provider's refusal of a body over the window, in each API's shape. */
function refusal(anthropic: boolean, tokens: number, window: number): string {
  if (anthropic) return JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: `prompt is too long: ${tokens} tokens > ${window} maximum` } });
  return JSON.stringify({ error: { message: `Your input exceeds the context window of this model (${tokens} > ${window}).`, type: "invalid_request_error", param: "input", code: "context_length_exceeded" } });
}

export async function mockModel(o: MockOptions): Promise<MockModel> {
  const seen: Seen[] = [];
  const issued = { count: 0 };
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  /** Sends an answer, after the hook when it is the final one; its usage counts once it is sent. */
  const answer = (res: http.ServerResponse, a: Answer): void => {
    const hold = a.final && o.beforeFinal !== undefined ? o.beforeFinal() : Promise.resolve();
    void hold.then(() => {
      usage.input += a.input;
      usage.output += a.output;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(a.text);
    });
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      const tokens = Math.ceil(raw.length / 4);
      const messages = req.method === "POST" && path.endsWith("/messages");
      const responses = req.method === "POST" && path.endsWith("/responses");
      const refused = (messages || responses) && o.window !== undefined && tokens > o.window;
      seen.push({ path: req.url ?? "", headers: req.headers, body: raw, tokens, refused });
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // not JSON: answered below like any other path
      }
      const turn: Turn = { calls: o.calls, command: o.command ?? "seq 1 6000", issued, tokens };
      if (refused) {
        res.writeHead(400, { "content-type": "application/json" });
        return void res.end(refusal(messages, tokens, o.window!));
      }
      if (messages) return answer(res, anthropicTurn(body, turn, SUMMARISING.test(raw)));
      if (req.method === "POST" && path.endsWith("/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ input_tokens: tokens }));
      }
      if (responses) return answer(res, responsesTurn(body, turn, SUMMARISING.test(raw)));
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"message":"not here"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), o.lifetimeMs ?? 600_000);
  timer.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, usage, close: () => server.close() };
}

/**
 * A scripted model API on 127.0.0.1 for the agent end-to-end tests: it answers every agent turn with
 * one shell tool call whose output is large, `calls` times (it counts what it issued: once the proxy
 * compacts, the history no longer shows every earlier result), then with a final text. Anthropic Messages (what Claude Code speaks) and OpenAI Responses (what Codex
 * speaks), streamed as the agents ask. It records every request body and the usage it reported, and
 * can hold its final answer while a test looks at the proxy. It stops by itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  path: string;
  body: string;
}

export interface MockModel {
  url: string;
  seen: Seen[];
  /** The usage its answers reported so far, in the proxy's terms (input not read from a cache). */
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number };
  close(): void;
}

export interface MockOptions {
  /** Called before the final answer (the one with ALL DONE) is sent; it waits for this to finish. */
  beforeFinal?: () => Promise<void>;
}

const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
/** The answer being made: whether it is the final one, and the usage it reports (counted once it is sent). */
let final = false;
const pending = { input: 0, output: 0 };

const sse = (events: Record<string, unknown>[]): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
const COMMAND = "seq 1 6000";
let ids = 0;

const issued = { count: 0 };

function anthropicTurn(body: any, calls: number, rawLength: number): string {
  const tool = (body.tools ?? []).find((t: any) => ["Bash", "bash", "_bash"].includes(t.name));
  const bash = tool !== undefined;
  const results = bash && issued.count < calls ? issued.count++ : calls;
  // Usage as a real API reports it: hosts such as Pi decide when to compact from it.
  const msg = { id: `msg_${++ids}`, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: Math.ceil(rawLength / 4), output_tokens: 1 } };
  Object.assign(pending, { input: msg.usage.input_tokens, output: bash && results < calls ? 20 : 2 });
  final = bash && results >= calls;
  const events: Record<string, unknown>[] = [{ type: "message_start", message: msg }];
  if (bash && results < calls) {
    const input = JSON.stringify({ command: COMMAND, description: "print numbers" });
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${ids}`, name: tool.name, input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: input } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    );
  } else {
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: bash ? "ALL DONE" : "ok" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
    );
  }
  events.push({ type: "message_stop" });
  return sse(events);
}

function responsesTurn(body: any, calls: number): string {
  // Codex declares its tools in the request or, lately, in an `additional_tools` input item of namespaces.
  const declared: any[] = [...(body.tools ?? []), ...(body.input ?? []).filter((i: any) => i?.type === "additional_tools").flatMap((i: any) => i.tools ?? [])];
  const tools: any[] = declared.flatMap((t) => (t.type === "namespace" ? t.tools ?? [] : [t]));
  const shell = tools.find((t) => ["shell", "exec_command", "shell_command", "exec"].includes(t.name));
  const results = shell !== undefined && issued.count < calls ? issued.count++ : calls;
  const id = `resp_${++ids}`;
  const reported = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  Object.assign(pending, { input: 100, output: 10 });
  final = shell !== undefined && results >= calls;
  let item: Record<string, unknown>;
  if (shell !== undefined && results < calls && shell.type === "custom") {
    // Code mode: the shell is reached from JavaScript through the nested tools.
    const input = `const r = await tools.exec_command({ cmd: ${JSON.stringify(COMMAND)} });\ntext(r);`;
    item = { type: "custom_tool_call", id: `ctc_${ids}`, status: "completed", call_id: `call_${ids}`, name: shell.name, input };
  } else if (shell !== undefined && results < calls) {
    const args = shell.name === "exec_command" ? { cmd: COMMAND } : shell.name === "shell_command" ? { command: COMMAND } : { command: ["bash", "-lc", COMMAND] };
    item = { type: "function_call", id: `fc_${ids}`, status: "completed", call_id: `call_${ids}`, name: shell.name, arguments: JSON.stringify(args) };
  } else {
    item = { type: "message", id: `msg_${ids}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: "ALL DONE", annotations: [] }] };
  }
  const response = { id, object: "response", created_at: 1, status: "completed", model: body.model, output: [item], usage: reported };
  return sse([
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...item, status: "in_progress" } },
    { type: "response.output_item.done", sequence_number: 2, output_index: 0, item },
    { type: "response.completed", sequence_number: 3, response },
  ]);
}

export async function mockModel(calls: number, options: MockOptions = {}, lifetimeMs = 600_000): Promise<MockModel> {
  const seen: Seen[] = [];
  issued.count = 0;
  Object.assign(usage, { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });
  /** Sends an answer, after the hook when it is the final one. */
  const answer = (res: http.ServerResponse, text: string): void => {
    const hold = final && options.beforeFinal !== undefined ? options.beforeFinal() : Promise.resolve();
    const counted = { ...pending };
    final = false;
    void hold.then(() => {
      usage.input += counted.input;
      usage.output += counted.output;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(text);
    });
  };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      seen.push({ path: req.url ?? "", body: raw });
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {
        // not JSON: answered below like any other path
      }
      if (req.method === "POST" && path.endsWith("/messages")) return answer(res, anthropicTurn(body, calls, raw.length));
      if (req.method === "POST" && path.endsWith("/messages/count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        return void res.end('{"input_tokens":100}');
      }
      if (req.method === "POST" && path.endsWith("/responses")) return answer(res, responsesTurn(body, calls));
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":{"message":"not here"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, usage, close: () => server.close() };
}

/**
 * A scripted model on 127.0.0.1 that holds every request to its API's pairing rules, for the
 * OpenCode and Copilot CLI runs. It speaks Anthropic Messages (`…/messages`), OpenAI Chat
 * Completions (`…/chat/completions`), streamed or not, and OpenAI Responses (`…/responses`, streamed). An agent turn (a request that offers a
 * shell tool) is answered with the next shell call of the script, then with a final text; the
 * script's place is read from the request itself (one past the newest of this model's calls whose
 * result it holds), so a retried or compacted request is answered alike. A request that breaks
 * the pairing rules is refused with a 400 in the API's shape, as the provider would. Usage is
 * reported from the body's size. It records every request and stops by itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Api = "anthropic" | "chat" | "responses";

export interface PairedSeen {
  path: string;
  api: Api | null;
  headers: http.IncomingHttpHeaders;
  body: string;
  tokens: number;
  /** The pairing rule it broke (the mock refused it), or null. */
  broken: string | null;
  /** The script step answered (-1: not an agent turn; calls: the final text). */
  step: number;
}

export interface PairedModel {
  url: string;
  seen: PairedSeen[];
  usage: { input: number; cacheRead: number; cacheWrite: number; output: number };
  close(): void;
}

export interface PairedOptions {
  /** Shell calls before the final text. */
  calls: number;
  /** The command each call runs (given the step: calls that differ make summaries that differ). */
  command?: string | ((step: number) => string);
  /** A call of another tool at some steps (its name must be offered), instead of the shell. */
  script?: (step: number) => { name: string; input: Record<string, unknown> } | undefined;
  /** The final text. */
  final?: string;
  /** Called before the final text is sent; it waits for this to finish. */
  beforeFinal?: () => Promise<void>;
  lifetimeMs?: number;
  /** Other answers by path (stand-ins for a sign-in server's endpoints). */
  extra?: Record<string, unknown>;
  /** What `GET …/models` lists (the Copilot API's model catalog, for Copilot CLI signed in with GitHub). */
  models?: unknown[];
}

const SHELLS = ["bash", "Bash", "shell", "powershell", "run_shell_command"];
const idOf = (step: number): string => `call_script_${String(step).padStart(3, "0")}`;
const stepOfId = (id: unknown): number => {
  const m = /^call_script_(\d+)$/.exec(String(id));
  return m === null ? -1 : Number(m[1]);
};

/** The first Anthropic pairing rule a message list breaks, or null. */
export function anthropicBroken(messages: unknown): string | null {
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  if (messages[0]?.role !== "user") return "messages.0: the first message must use the user role";
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const blocks: any[] = Array.isArray(m?.content) ? m.content : [];
    if (m?.role === "assistant") {
      const uses = blocks.filter((b) => b?.type === "tool_use").map((b) => b.id);
      if (uses.length === 0) continue;
      const next = messages[i + 1];
      const answered = new Set((Array.isArray(next?.content) ? next.content : []).filter((b: any) => b?.type === "tool_result").map((b: any) => b.tool_use_id));
      const missing = uses.filter((id) => !answered.has(id));
      if (next?.role !== "user" || missing.length > 0) return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    } else {
      const results = blocks.filter((b) => b?.type === "tool_result");
      if (results.length === 0) continue;
      const prev = messages[i - 1];
      const issued = new Set((prev?.role === "assistant" && Array.isArray(prev.content) ? prev.content : []).filter((b: any) => b?.type === "tool_use").map((b: any) => b.id));
      const stray = results.find((b) => !issued.has(b.tool_use_id));
      if (stray !== undefined) return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
  }
  return null;
}

/** The first Chat Completions pairing rule a message list breaks, or null. */
export function chatBroken(messages: unknown): string | null {
  if (!Array.isArray(messages) || messages.length === 0) return "messages: at least one message is required";
  let pending = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m?.role === "tool") {
      if (!pending.delete(m.tool_call_id)) return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages.[${i}])`;
      continue;
    }
    if (pending.size > 0) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")} (messages.[${i}])`;
    pending = new Set(m?.role === "assistant" && Array.isArray(m.tool_calls) ? m.tool_calls.map((c: any) => c.id) : []);
  }
  if (pending.size > 0) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")}`;
  return null;
}

/** The first Responses pairing rule an input list breaks, or null: each call's output after its call, and every call answered. */
export function responsesBroken(input: unknown): string | null {
  if (!Array.isArray(input)) return "input: must be a list";
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const item of input) {
    if (item?.type === "function_call") called.add(item.call_id);
    else if (item?.type === "function_call_output") {
      if (!called.has(item.call_id)) return `No tool call found for function call output with call_id ${item.call_id}.`;
      answered.add(item.call_id);
    }
  }
  const open = [...called].find((id) => !answered.has(id));
  return open === undefined ? null : `No tool output found for function call ${open}.`;
}

/** The next step: one past the newest of this model's calls whose result the request holds. */
function stepOf(api: Api, body: any): number {
  let next = 0;
  if (api === "responses") {
    for (const item of Array.isArray(body.input) ? body.input : []) if (item?.type === "function_call_output") next = Math.max(next, stepOfId(item.call_id) + 1);
    return next;
  }
  for (const m of body.messages ?? []) {
    if (api === "chat") {
      if (m?.role === "tool") next = Math.max(next, stepOfId(m.tool_call_id) + 1);
      continue;
    }
    for (const b of Array.isArray(m?.content) ? m.content : []) if (b?.type === "tool_result") next = Math.max(next, stepOfId(b.tool_use_id) + 1);
  }
  return next;
}

function toolNames(api: Api, body: any): string[] {
  return (body.tools ?? []).map((t: any) => (api === "chat" ? t?.function?.name : t?.name)).filter((n: unknown): n is string => typeof n === "string");
}

const sse = (events: Record<string, unknown>[], named: boolean): string => events.map((e) => `${named ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("");

/** An answer in the API's shape: a shell call (`call` set) or a text; streamed when the request asked for it. */
function answerOf(api: Api, body: any, o: { text: string; call?: { id: string; name: string; input: Record<string, unknown> }; input: number }): { type: string; text: string } {
  const stream = body.stream === true;
  if (api === "responses") {
    const item = o.call !== undefined
      ? { type: "function_call", id: `fc_${o.call.id}`, status: "completed", call_id: o.call.id, name: o.call.name, arguments: JSON.stringify(o.call.input) }
      : { type: "message", id: "msg_text", status: "completed", role: "assistant", content: [{ type: "output_text", text: o.text, annotations: [] }] };
    const usage = { input_tokens: o.input, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: o.input + 20 };
    const response = { id: `resp_${o.call?.id ?? "text"}`, object: "response", created_at: 1, status: "completed", model: body.model, output: [item], usage };
    // A text streams as deltas (clients print those), a call arrives whole.
    const text = o.call !== undefined ? [] : [
      { type: "response.content_part.added", output_index: 0, content_index: 0, item_id: item.id, part: { type: "output_text", text: "", annotations: [] } },
      { type: "response.output_text.delta", output_index: 0, content_index: 0, item_id: item.id, delta: o.text },
      { type: "response.output_text.done", output_index: 0, content_index: 0, item_id: item.id, text: o.text },
      { type: "response.content_part.done", output_index: 0, content_index: 0, item_id: item.id, part: { type: "output_text", text: o.text, annotations: [] } },
    ];
    const events = [
      { type: "response.created", response: { ...response, status: "in_progress", output: [] } },
      { type: "response.output_item.added", output_index: 0, item: o.call !== undefined ? { ...item, status: "in_progress" } : { ...item, status: "in_progress", content: [] } },
      ...text,
      { type: "response.output_item.done", output_index: 0, item },
      { type: "response.completed", response },
    ].map((e, i) => ({ ...e, sequence_number: i }));
    return { type: "text/event-stream", text: sse(events, true) };
  }
  if (api === "anthropic") {
    const content = o.call !== undefined ? [{ type: "tool_use", id: o.call.id, name: o.call.name, input: o.call.input }] : [{ type: "text", text: o.text }];
    const stop = o.call !== undefined ? "tool_use" : "end_turn";
    const usage = { input_tokens: o.input, output_tokens: 20 };
    const msg = { id: `msg_${o.call?.id ?? "text"}`, type: "message", role: "assistant", model: body.model, stop_reason: null, stop_sequence: null };
    if (!stream) return { type: "application/json", text: JSON.stringify({ ...msg, content, stop_reason: stop, usage }) };
    const block = o.call !== undefined
      ? [{ type: "content_block_start", index: 0, content_block: { ...content[0], input: {} } }, { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(o.call.input) } }]
      : [{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: o.text } }];
    const events = [{ type: "message_start", message: { ...msg, content: [], usage: { input_tokens: o.input, output_tokens: 1 } } }, ...block, { type: "content_block_stop", index: 0 }, { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } }, { type: "message_stop" }];
    return { type: "text/event-stream", text: sse(events, true) };
  }
  const id = `chatcmpl-${o.call?.id ?? "text"}`;
  const call = o.call !== undefined ? [{ index: 0, id: o.call.id, type: "function", function: { name: o.call.name, arguments: JSON.stringify(o.call.input) } }] : undefined;
  const finish = o.call !== undefined ? "tool_calls" : "stop";
  const usage = { prompt_tokens: o.input, completion_tokens: 20, total_tokens: o.input + 20, prompt_tokens_details: { cached_tokens: 0 } };
  const message = { role: "assistant", content: o.call !== undefined ? null : o.text, ...(call ? { tool_calls: call.map(({ index: _i, ...c }) => c) } : {}) };
  if (!stream) return { type: "application/json", text: JSON.stringify({ id, object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage }) };
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null, extra: Record<string, unknown> = {}) => ({ id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [{ index: 0, delta, finish_reason }], ...extra });
  const chunks = [chunk({ role: "assistant", content: o.call !== undefined ? null : "" }, null), chunk(call ? { tool_calls: call } : { content: o.text }, null), chunk({}, finish)];
  if (body.stream_options?.include_usage === true) chunks.push({ id, object: "chat.completion.chunk", created: 1, model: body.model, choices: [], usage } as any);
  return { type: "text/event-stream", text: sse(chunks, false) + "data: [DONE]\n\n" };
}

function refusal(api: Api, message: string): string {
  if (api === "anthropic") return JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } });
  return JSON.stringify({ error: { message, type: "invalid_request_error", param: api === "responses" ? "input" : "messages", code: null } });
}

const SUMMARY = "Summary: the numbers were printed with seq several times. Next: print them again, then say ALL DONE.";

export async function pairedModel(o: PairedOptions): Promise<PairedModel> {
  const seen: PairedSeen[] = [];
  const usage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  const command = (step: number): string => (typeof o.command === "function" ? o.command(step) : o.command ?? "seq 1 6000");
  const final = o.final ?? "ALL DONE";
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "").split("?")[0];
      const api: Api | null = req.method !== "POST" ? null : path.endsWith("/messages") ? "anthropic" : path.endsWith("/chat/completions") ? "chat" : path.endsWith("/responses") ? "responses" : null;
      const tokens = Math.ceil(raw.length / 4);
      const record: PairedSeen = { path: req.url ?? "", api, headers: req.headers, body: raw, tokens, broken: null, step: -1 };
      seen.push(record);
      if (api === null) {
        if (o.extra !== undefined && path in o.extra) {
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end(JSON.stringify(o.extra[path]));
        }
        if (path.endsWith("/models")) {
          res.writeHead(200, { "content-type": "application/json" });
          return void res.end(JSON.stringify({ object: "list", data: o.models ?? [] }));
        }
        res.writeHead(404, { "content-type": "application/json" });
        return void res.end('{"error":{"message":"not here"}}');
      }
      let body: any = {};
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { "content-type": "application/json" });
        return void res.end(refusal(api, "the request body is not valid JSON"));
      }
      record.broken = api === "anthropic" ? anthropicBroken(body.messages) : api === "chat" ? chatBroken(body.messages) : responsesBroken(body.input);
      if (record.broken !== null) {
        res.writeHead(400, { "content-type": "application/json" });
        return void res.end(refusal(api, record.broken));
      }
      const shell = toolNames(api, body).find((n) => SHELLS.includes(n));
      const step = shell === undefined ? -1 : Math.min(stepOf(api, body), o.calls);
      record.step = step;
      const calling = shell !== undefined && step < o.calls;
      const text = shell === undefined ? (/summar/i.test(raw.slice(-4000)) ? SUMMARY : "Printing numbers") : final;
      const call = calling ? o.script?.(step) ?? { name: shell!, input: { command: command(step), description: "print numbers" } } : undefined;
      const a = answerOf(api, body, { text, input: tokens, ...(call !== undefined ? { call: { id: idOf(step), ...call } } : {}) });
      const hold = shell !== undefined && !calling && o.beforeFinal !== undefined ? o.beforeFinal() : Promise.resolve();
      void hold.then(() => {
        usage.input += tokens;
        usage.output += 20;
        res.writeHead(200, { "content-type": a.type });
        res.end(a.text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), o.lifetimeMs ?? 600_000);
  timer.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, usage, close: () => server.close() };
}

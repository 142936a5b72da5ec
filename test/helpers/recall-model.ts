/**
 * A scripted model behind the four APIs, for the recall loop's tests: it checks each request
 * against the provider's rules a recall round could break (turn order, every call answered by the
 * next turn and nothing else, thinking signatures and reasoning items sent back as issued, every
 * called tool declared), refuses a request that breaks one with a 400 naming the rule, and answers
 * what the test's script says, whole or streamed as the request asks.
 */
import http from "node:http";
import { createHash } from "node:crypto";
import { listenLoopback } from "./mock-upstream.js";
import { codeAssistViolation } from "./gemini-model.js";

/** What the script answers: thinking (signed by the mock), text, then calls. */
export interface Reply {
  thinking?: string;
  text?: string;
  calls?: { name: string; input: Record<string, unknown> }[];
}

export interface Seen {
  api: "anthropic" | "openai-chat" | "openai-responses" | "gemini";
  body: Record<string, any>;
  /** The tools the request declares, by name. */
  tools: string[];
  /** The answers the request carries to the model's last calls (their text), by call name. */
  results: { name: string; text: string; isError: boolean }[];
  /** Code Assist: the body around the request (`body` is the request under its `request`). */
  envelope?: Record<string, any>;
}

/** The counts of an Anthropic answer's `usage`. */
export interface AnthropicUsage {
  input_tokens: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  output_tokens: number;
}

/** An error answer: its status, the provider's error type and message. */
export interface Refusal {
  status: number;
  type: string;
  message: string;
}

export interface RecallModel {
  url: string;
  seen: Seen[];
  /** Bodies refused, with the rule they broke. */
  refused: string[];
  script: (s: Seen) => Reply;
  /** A refusal the test makes the provider give a request that breaks no rule (a rule the mock does not know, a rate limit). */
  refuse?: (s: Seen) => Refusal | undefined;
  /** Anthropic: the usage an answer reports (a prompt cache's reads and writes, say); without it, the input tokens and 10 out. */
  anthropicUsage?: (s: Seen, reply: Reply) => AnthropicUsage;
  close(): Promise<void>;
}

export const signatureOf = (thinking: string): string => "sig-" + createHash("sha256").update(thinking).digest("hex").slice(0, 24);

class RuleBroken extends Error {}
const rule = (ok: boolean, what: string): void => {
  if (!ok) throw new RuleBroken(what);
};

/** Anthropic Messages: the rules and the last turn's results. */
function anthropicSeen(body: Record<string, any>): Seen {
  const msgs = body.messages as any[];
  rule(Array.isArray(msgs) && msgs.length > 0 && msgs[0].role === "user", "messages: first must be user");
  const tools = (body.tools ?? []).map((t: any) => t.name);
  rule(new Set(tools).size === tools.length, "tools: names must be unique");
  const names = new Map<string, string>();
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    // Consecutive turns of one role are one turn to the API; a call's results must be the very next message.
    rule(m.role === "user" || m.role === "assistant", `messages.${i}: unknown role`);
    const blocks = Array.isArray(m.content) ? m.content : [];
    const uses = blocks.filter((b: any) => b.type === "tool_use");
    for (const u of uses) names.set(u.id, u.name);
    if (m.role === "assistant") {
      for (const b of blocks) if (b.type === "thinking") rule(b.signature === signatureOf(b.thinking), `messages.${i}: thinking signature invalid`);
      if (uses.length > 0) {
        const next = msgs[i + 1];
        rule(next !== undefined && next.role === "user", `messages.${i}: tool_use without tool_result`);
        const results = (Array.isArray(next.content) ? next.content : []).filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id);
        rule(JSON.stringify([...results].sort()) === JSON.stringify(uses.map((u: any) => u.id).sort()), `messages.${i + 1}: each tool_use needs exactly one tool_result`);
        if (body.thinking?.type === "enabled" && i === msgs.length - 2) rule(blocks[0]?.type === "thinking", `messages.${i}: the last assistant turn with tool_use must start with thinking`);
      }
    } else if (i > 0) {
      const prevUses = msgs[i - 1].role !== "assistant" ? [] : (Array.isArray(msgs[i - 1].content) ? msgs[i - 1].content : []).filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
      for (const b of blocks) if (b.type === "tool_result") rule(prevUses.includes(b.tool_use_id), `messages.${i}: tool_result for an unknown tool_use`);
    }
  }
  const last = msgs[msgs.length - 1];
  rule(last.role === "user", "messages: last must be user");
  const results = (Array.isArray(last.content) ? last.content : []).filter((b: any) => b.type === "tool_result").map((b: any) => ({ name: names.get(b.tool_use_id) ?? "?", text: typeof b.content === "string" ? b.content : JSON.stringify(b.content), isError: b.is_error === true }));
  const lastAssistant = msgs[msgs.length - 2];
  for (const b of Array.isArray(lastAssistant?.content) ? lastAssistant.content : []) if (b.type === "tool_use") rule(tools.includes(b.name), `tool_use of an undeclared tool ${b.name}`);
  return { api: "anthropic", body, tools, results };
}

const sse = (events: any[]): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

function anthropicAnswer(reply: Reply, stream: boolean, seed: string, input: number, counts: AnthropicUsage = { input_tokens: input, output_tokens: 10 }): { type: string; body: string } {
  let n = 0;
  const id = (kind: string): string => `${kind}_${seed}_${n++}`;
  const content: any[] = [];
  if (reply.thinking !== undefined) content.push({ type: "thinking", thinking: reply.thinking, signature: signatureOf(reply.thinking) });
  if (reply.text !== undefined) content.push({ type: "text", text: reply.text });
  for (const c of reply.calls ?? []) content.push({ type: "tool_use", id: id("toolu"), name: c.name, input: c.input });
  const stop = (reply.calls ?? []).length > 0 ? "tool_use" : "end_turn";
  const message = { id: id("msg"), type: "message", role: "assistant", model: "mock", content, stop_reason: stop, stop_sequence: null, usage: counts };
  if (!stream) return { type: "application/json", body: JSON.stringify(message) };
  const events: any[] = [{ type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...counts, output_tokens: 1 } } }, { type: "ping" }];
  content.forEach((b, index) => {
    if (b.type === "thinking") {
      events.push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const part of b.thinking.match(/.{1,7}/gs) ?? []) events.push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: part } });
      events.push({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: b.signature } });
    } else if (b.type === "text") {
      events.push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const part of b.text.match(/.{1,5}/gs) ?? []) events.push({ type: "content_block_delta", index, delta: { type: "text_delta", text: part } });
    } else {
      events.push({ type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      const json = JSON.stringify(b.input);
      for (let i = 0; i < json.length; i += 6) events.push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: json.slice(i, i + 6) } });
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push({ type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: counts.output_tokens } }, { type: "message_stop" });
  return { type: "text/event-stream", body: sse(events) };
}

/** Reasoning issued with each call, by call id: the call must go back after it. */
const issuedWith = new Map<string, string>();

/** OpenAI Responses: the rules and the last turn's results. */
function responsesSeen(body: Record<string, any>): Seen {
  const input = typeof body.input === "string" ? [{ role: "user", content: body.input }] : (body.input as any[]);
  rule(Array.isArray(input), "input: must be a list or a string");
  const tools = (body.tools ?? []).filter((t: any) => t.type === "function").map((t: any) => t.name);
  rule(new Set(tools).size === tools.length, "tools: names must be unique");
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  let reasoningSince: string[] = [];
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (body.store === false) rule(typeof item.id !== "string" || !/^(rs|fc|msg)_mock/.test(item.id), `input[${i}]: item ids are not found when store is false`);
    if (item.type === "reasoning") {
      rule(typeof item.encrypted_content === "string", `input[${i}]: reasoning needs its encrypted_content`);
      reasoningSince.push(item.encrypted_content);
    } else if (item.type === "function_call") {
      calls.set(item.call_id, item.name);
      const needed = issuedWith.get(item.call_id);
      if (needed !== undefined) rule(reasoningSince.includes(needed), `input[${i}]: function_call was provided without its required reasoning item`);
    } else if (item.type === "function_call_output") {
      rule(calls.has(item.call_id), `input[${i}]: no tool call found for function call output with call_id ${item.call_id}`);
      answered.add(item.call_id);
    } else reasoningSince = [];
  }
  for (const id of calls.keys()) rule(answered.has(id), `input: no tool output found for function call ${id}`);
  const results: Seen["results"] = [];
  for (let i = input.length - 1; i >= 0 && input[i].type === "function_call_output"; i--) results.unshift({ name: calls.get(input[i].call_id) ?? "?", text: input[i].output, isError: /^(Error: |Not run)/.test(input[i].output) });
  return { api: "openai-responses", body, tools, results };
}

function responsesAnswer(reply: Reply, stream: boolean, seed: string, input: number): { type: string; body: string } {
  let n = 0;
  const id = (kind: string): string => `${kind}_mock_${seed}_${n++}`;
  const output: any[] = [];
  let enc: string | undefined;
  if (reply.thinking !== undefined) {
    enc = "enc-" + signatureOf(reply.thinking + seed);
    output.push({ type: "reasoning", id: id("rs"), summary: [{ type: "summary_text", text: reply.thinking }], encrypted_content: enc });
  }
  if (reply.text !== undefined) output.push({ type: "message", id: id("msg"), status: "completed", role: "assistant", content: [{ type: "output_text", text: reply.text, annotations: [] }] });
  for (const c of reply.calls ?? []) {
    const call = { type: "function_call", id: id("fc"), call_id: id("call"), name: c.name, arguments: JSON.stringify(c.input), status: "completed" };
    if (enc !== undefined) issuedWith.set(call.call_id, enc);
    output.push(call);
  }
  const response = { id: id("resp"), object: "response", status: "completed", model: "mock", output, usage: { input_tokens: input, output_tokens: 10, total_tokens: input + 10 } };
  if (!stream) return { type: "application/json", body: JSON.stringify(response) };
  let seq = 0;
  const events: any[] = [{ type: "response.created", response: { ...response, status: "in_progress", output: [] } }, { type: "response.in_progress", response: { ...response, status: "in_progress", output: [] } }];
  output.forEach((item, output_index) => {
    if (item.type === "message") {
      events.push({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress", content: [] } });
      for (const part of item.content[0].text.match(/.{1,5}/gs) ?? []) events.push({ type: "response.output_text.delta", item_id: item.id, output_index, content_index: 0, delta: part });
    } else if (item.type === "function_call") {
      events.push({ type: "response.output_item.added", output_index, item: { ...item, arguments: "" } });
      events.push({ type: "response.function_call_arguments.delta", item_id: item.id, output_index, delta: item.arguments });
      events.push({ type: "response.function_call_arguments.done", item_id: item.id, output_index, arguments: item.arguments });
    } else events.push({ type: "response.output_item.added", output_index, item });
    events.push({ type: "response.output_item.done", output_index, item });
  });
  events.push({ type: "response.completed", response });
  return { type: "text/event-stream", body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify({ ...e, sequence_number: seq++ })}\n\n`).join("") };
}

/** OpenAI Chat Completions: the rules and the last turn's results. */
function chatSeen(body: Record<string, any>): Seen {
  const msgs = body.messages as any[];
  rule(Array.isArray(msgs) && msgs.length > 0, "messages: required");
  const tools = (body.tools ?? []).map((t: any) => t.function?.name);
  rule(new Set(tools).size === tools.length, "tools: names must be unique");
  const names = new Map<string, string>();
  let open: string[] = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (m.role === "tool") {
      rule(open.includes(m.tool_call_id), `messages.${i}: a tool message must respond to a preceding tool_calls id`);
      open = open.filter((id) => id !== m.tool_call_id);
      continue;
    }
    rule(open.length === 0, `messages.${i}: an assistant message with tool_calls must be followed by tool messages responding to each tool_call_id`);
    if (m.role === "assistant") for (const c of m.tool_calls ?? []) {
      rule(typeof c.function?.arguments === "string", `messages.${i}: arguments must be a string`);
      names.set(c.id, c.function.name);
      open.push(c.id);
    }
  }
  rule(open.length === 0, "messages: tool_calls left without tool messages");
  const results: Seen["results"] = [];
  for (let i = msgs.length - 1; i >= 0 && msgs[i].role === "tool"; i--) results.unshift({ name: names.get(msgs[i].tool_call_id) ?? "?", text: msgs[i].content, isError: /^(Error: |Not run)/.test(msgs[i].content) });
  return { api: "openai-chat", body, tools, results };
}

function chatAnswer(reply: Reply, stream: boolean, seed: string, input: number): { type: string; body: string } {
  let n = 0;
  const id = (kind: string): string => `${kind}_mock_${seed}_${n++}`;
  const calls = (reply.calls ?? []).map((c) => ({ id: id("call"), type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } }));
  const message: any = { role: "assistant", content: reply.text ?? null, ...(reply.thinking !== undefined ? { reasoning_content: reply.thinking } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const base = { id: id("chatcmpl"), created: 1, model: "mock" };
  const usage = { prompt_tokens: input, completion_tokens: 10, total_tokens: input + 10 };
  if (!stream) return { type: "application/json", body: JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage }) };
  const chunk = (delta: any, finish_reason: string | null = null): any => ({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] });
  const chunks: any[] = [chunk({ role: "assistant", content: "" })];
  if (reply.thinking !== undefined) chunks.push(chunk({ reasoning_content: reply.thinking }));
  for (const part of reply.text?.match(/.{1,5}/gs) ?? []) chunks.push(chunk({ content: part }));
  calls.forEach((c, index) => {
    chunks.push(chunk({ tool_calls: [{ index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } }] }));
    for (let i = 0; i < c.function.arguments.length; i += 4) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments.slice(i, i + 4) } }] }));
  });
  chunks.push(chunk({}, finish), { ...base, object: "chat.completion.chunk", choices: [], usage });
  return { type: "text/event-stream", body: chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n" };
}

/** Thought signatures issued on each call, by call id: the part must come back with it. */
const signedCalls = new Map<string, string>();

/** The Gemini API: the rules and the last turn's results. */
function geminiSeen(body: Record<string, any>): Seen {
  const contents = body.contents as any[];
  rule(Array.isArray(contents) && contents.length > 0, "contents: required");
  const tools = (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name));
  rule(new Set(tools).size === tools.length, "tools: duplicate function declaration");
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i];
    rule(c.role === "user" || c.role === "model", `contents[${i}]: role must be user or model`);
    rule(i === 0 || c.role !== contents[i - 1].role, "Please ensure that multiturn requests alternate between user and model.");
    for (const p of c.parts ?? []) rule(!(p.text === "" && Object.keys(p).length === 1), `contents[${i}]: Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.`);
    const calls = (c.parts ?? []).filter((p: any) => p.functionCall !== undefined);
    for (const p of calls) {
      const sig = signedCalls.get(p.functionCall.id);
      if (sig !== undefined) rule(p.thoughtSignature === sig, `contents[${i}]: function call is missing a thought_signature`);
    }
    if (c.role === "model" && calls.length > 0) {
      const next = contents[i + 1];
      const responses = (next?.parts ?? []).filter((p: any) => p.functionResponse !== undefined);
      rule(next?.role === "user" && responses.length === calls.length, `contents[${i + 1}]: the number of function response parts must equal the number of function call parts`);
      responses.forEach((r: any, k: number) => rule(r.functionResponse.name === calls[k].functionCall.name, `contents[${i + 1}]: function response name must match its call`));
    }
  }
  const last = contents[contents.length - 1];
  rule(last.role === "user", "contents: the last turn must be the user's");
  const results = (last.parts ?? []).filter((p: any) => p.functionResponse !== undefined).map((p: any) => ({ name: p.functionResponse.name, text: p.functionResponse.response.output ?? p.functionResponse.response.error, isError: p.functionResponse.response.error !== undefined }));
  return { api: "gemini", body, tools, results };
}

/** Code Assist's request, under its envelope, which must break none of its rules. */
function codeAssistRequest(body: Record<string, any>): Record<string, any> {
  const bad = codeAssistViolation(body);
  rule(bad === null, bad ?? "");
  return body.request;
}

/** How a Gemini answer goes out: whole, streamed (as SSE events or one JSON array), each answer in Code Assist's envelope or not. */
interface GeminiForm {
  stream: boolean;
  sse: boolean;
  codeAssist: boolean;
}

function geminiAnswer(reply: Reply, form: GeminiForm, seed: string, input: number): { type: string; body: string } {
  let n = 0;
  const parts: any[] = [];
  if (reply.thinking !== undefined) parts.push({ text: reply.thinking, thought: true });
  if (reply.text !== undefined) parts.push({ text: reply.text });
  for (const c of reply.calls ?? []) {
    const id = `call_${seed}_${n++}`;
    const sig = signatureOf(id);
    signedCalls.set(id, sig);
    parts.push({ functionCall: { id, name: c.name, args: c.input }, thoughtSignature: sig });
  }
  const usageMetadata = { promptTokenCount: input, candidatesTokenCount: 10, totalTokenCount: input + 10 };
  const wrap = (c: object): string => JSON.stringify(form.codeAssist ? { response: c, traceId: `trace_${seed}` } : c);
  const whole = { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: "mock", responseId: `resp_${seed}` };
  if (!form.stream) return { type: "application/json", body: wrap(whole) };
  const chunks = parts.map((p) => ({ candidates: [{ content: { role: "model", parts: [p] }, index: 0 }], modelVersion: "mock", responseId: `resp_${seed}` }));
  chunks.push({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: "mock", responseId: `resp_${seed}` } as any);
  if (!form.sse) return { type: "application/json", body: `[${chunks.map(wrap).join(",\r\n")}]` };
  return { type: "text/event-stream", body: chunks.map((c) => `data: ${wrap(c)}\r\n\r\n`).join("") };
}

/** A body written in a few pieces, cut anywhere (in a string, in a character), as a stream arrives. */
async function writePieces(res: http.ServerResponse, body: string): Promise<void> {
  const bytes = Buffer.from(body, "utf8");
  const cuts = [0, Math.floor(bytes.length / 3), Math.floor((bytes.length * 2) / 3) + 1, bytes.length];
  for (let i = 1; i < cuts.length; i++) {
    res.write(bytes.subarray(cuts[i - 1], cuts[i]));
    await new Promise((r) => setTimeout(r, 5));
  }
  res.end();
}

/**
 * `inputTokens`: the input tokens each answer reports for the request's body. A host that decides
 * when to compact from the usage its provider reports (Pi, OMP) needs them to grow with the body,
 * as a provider's do.
 */
export async function recallModel(script: (s: Seen) => Reply, lifetimeMs = 120_000, inputTokens: (raw: string) => number = () => 100): Promise<RecallModel> {
  const model: RecallModel = { url: "", seen: [], refused: [], script, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let out: { type: string; body: string };
      let status = 200;
      try {
        const raw = Buffer.concat(chunks).toString("utf8");
        const body = JSON.parse(raw);
        const input = inputTokens(raw);
        const url = new URL(req.url ?? "/", "http://x");
        const path = url.pathname;
        // Ids are a function of the request, so two proxies that send the same request get the same answer.
        const seed = createHash("sha256").update(JSON.stringify(body)).digest("hex").slice(0, 10);
        const gemini = /(\/v\d+[a-z]*internal)?:(stream)?[gG]enerateContent$/.exec(path);
        if (gemini !== null) {
          const codeAssist = gemini[1] !== undefined;
          const seen = { ...geminiSeen(codeAssist ? codeAssistRequest(body) : body), ...(codeAssist ? { envelope: body } : {}) };
          model.seen.push(seen);
          const refusal = model.refuse?.(seen);
          if (refusal !== undefined) {
            res.writeHead(refusal.status, { "content-type": "application/json" });
            return void res.end(JSON.stringify({ error: { code: refusal.status, message: refusal.message, status: refusal.type } }));
          }
          out = geminiAnswer(model.script(seen), { stream: gemini[2] !== undefined, sse: url.searchParams.get("alt") === "sse", codeAssist }, seed, input);
          res.writeHead(status, { "content-type": out.type });
          return void writePieces(res, out.body);
        }
        const api = path.endsWith("/chat/completions") ? "openai-chat" : /\/messages$/.test(path) ? "anthropic" : path.endsWith("/responses") ? "openai-responses" : null;
        if (api === null) throw new RuleBroken(`no route ${path}`);
        const seen = api === "anthropic" ? anthropicSeen(body) : api === "openai-chat" ? chatSeen(body) : responsesSeen(body);
        model.seen.push(seen);
        const refusal = model.refuse?.(seen);
        if (refusal !== undefined) {
          res.writeHead(refusal.status, { "content-type": "application/json" });
          return void res.end(JSON.stringify({ type: "error", error: { type: refusal.type, message: refusal.message } }));
        }
        const reply = model.script(seen);
        if (api === "anthropic") out = anthropicAnswer(reply, body.stream === true, seed, input, model.anthropicUsage?.(seen, reply));
        else out = (api === "openai-chat" ? chatAnswer : responsesAnswer)(reply, body.stream === true, seed, input);
      } catch (e) {
        if (!(e instanceof RuleBroken)) throw e;
        model.refused.push(e.message);
        status = 400;
        out = { type: "application/json", body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: e.message } }) };
      }
      res.writeHead(status, { "content-type": out.type });
      res.end(out.body);
    });
  });
  return Object.assign(model, await listenLoopback(server, lifetimeMs));
}

/** The answers a request carries to the model's recall calls. */
export const recallsIn = (s: Seen): Seen["results"] => s.results.filter((r) => r.name === "cliff_recall");

/** A fresh script: `first` until the request carries a recall's answer, then `then`; what was seen and refused cleared. */
export function scriptRecall(model: RecallModel, first: (s: Seen) => Reply, then: (s: Seen) => Reply): void {
  model.refused.length = 0;
  model.seen.length = 0;
  model.refuse = undefined;
  model.script = (s) => (recallsIn(s).length > 0 ? then(s) : first(s));
}

/**
 * A scripted model on 127.0.0.1 that recalls a dropped text after two cliffs, for the agents' recall
 * runs: Anthropic Messages (Claude Code, OpenCode), OpenAI Responses (Codex), Chat Completions
 * (Copilot CLI) and the Gemini API (Gemini CLI; recall-script-gemini.ts, which refuses a body the
 * real API refuses), streamed when asked. It
 * answers each agent turn with a shell call whose output is large and distinct, and remembers every
 * tool result the first time a request shows it whole. Once it has seen two different cliff
 * summaries on requests that offer `cliff_recall`, it takes a ref the current summary names whose
 * text it holds (the oldest), calls the tool with it, and compares the answer with its own copy
 * byte for byte. Then one more shell call, so that the client's next request shows what the client
 * received of that turn, and a final text. It records every request and stops by itself.
 */
import http from "node:http";
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { codeAssistMethod, codeAssistOther, geminiAnswer, geminiError, geminiRefusal, geminiTurn, isSideRequest, requestIn, sideAnswer } from "./recall-script-gemini.js";

export const SUMMARY_HEADER = "The following is a summary of your previous actions";
export const RECALL = "cliff_recall";
const DROPPED_REF = /result: dropped [\d,]+ chars, ref ([0-9a-f]{12})/g;

export interface Recalled {
  ref: string;
  expected: string;
  /** The distinct cliff summaries the model had seen when it called. */
  afterCliffs: number;
  /** The text put together from the pages received. */
  got: string;
  pages: number;
  isError: boolean;
}

export interface RecallScript {
  url: string;
  /** Every POST to the model API: path and body. */
  seen: { path: string; body: string }[];
  /** The distinct cliff summaries seen, in order. */
  summaries: string[];
  recalls: Recalled[];
  /** The client's requests after the recall round (the history as the client holds it). */
  after: string[];
  /** Bodies refused, with the rule each broke (the Gemini API's rules). */
  refused: string[];
  close(): void;
}

export const refOf = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);
const sse = (events: Record<string, any>[]): string => events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");

/** A tool result's content as the agent sent it, and the texts a ref could be over. */
function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [JSON.stringify(content)];
  const parts = content.filter((c: any) => typeof c?.text === "string").map((c: any) => c.text as string);
  return [...parts, parts.join("\n"), parts.join(""), JSON.stringify(content)];
}

/** What the script needs of a request, in any API. */
export interface ScriptTurn {
  shell: { name: string; type?: string } | undefined;
  offersRecall: boolean;
  /** The results of the model's last calls (by call name) and every result the request holds. */
  last: { name: string; content: unknown; isError: boolean }[];
  all: unknown[];
  /** Calls of `cliff_recall` the history holds. */
  recallCalls: number;
}

function anthropicTurn(body: any): ScriptTurn {
  const tools: any[] = body.tools ?? [];
  const names = new Map<string, string>();
  const all: unknown[] = [];
  let recallCalls = 0;
  for (const m of body.messages ?? []) for (const b of Array.isArray(m.content) ? m.content : []) {
    if (b.type === "tool_use") names.set(b.id, b.name), (recallCalls += b.name === RECALL ? 1 : 0);
    if (b.type === "tool_result") all.push(b.content);
  }
  const lastMsg = body.messages?.[body.messages.length - 1];
  const last = (Array.isArray(lastMsg?.content) ? lastMsg.content : []).filter((b: any) => b.type === "tool_result").map((b: any) => ({ name: names.get(b.tool_use_id) ?? "?", content: b.content, isError: b.is_error === true }));
  return { shell: tools.find((t) => t.name === "Bash" || t.name === "bash"), offersRecall: tools.some((t) => t.name === RECALL), last, all, recallCalls };
}

function responsesTurn(body: any): ScriptTurn {
  const input: any[] = Array.isArray(body.input) ? body.input : [];
  const declared: any[] = [...(body.tools ?? []), ...input.filter((i) => i?.type === "additional_tools").flatMap((i) => i.tools ?? [])];
  const tools = declared.flatMap((x) => (x.type === "namespace" ? x.tools ?? [] : [x]));
  const names = new Map<string, string>();
  const all: unknown[] = [];
  let recallCalls = 0;
  for (const i of input) {
    if (i.type === "function_call" || i.type === "custom_tool_call") names.set(i.call_id, i.name), (recallCalls += i.name === RECALL ? 1 : 0);
    if (i.type === "function_call_output" || i.type === "custom_tool_call_output") all.push(i.output);
  }
  const last: ScriptTurn["last"] = [];
  for (let k = input.length - 1; k >= 0 && /_call_output$/.test(input[k].type); k--) {
    const o = input[k].output;
    last.unshift({ name: names.get(input[k].call_id) ?? "?", content: o, isError: typeof o === "string" && o.startsWith("Error: ") });
  }
  const shell = tools.find((x) => ["shell", "exec_command", "shell_command", "exec"].includes(x.name));
  return { shell, offersRecall: tools.some((t) => t.name === RECALL), last, all, recallCalls };
}

function chatTurn(body: any): ScriptTurn {
  const msgs: any[] = body.messages ?? [];
  const tools: any[] = (body.tools ?? []).map((t: any) => ({ name: t.function?.name }));
  const names = new Map<string, string>();
  const all: unknown[] = [];
  let recallCalls = 0;
  for (const m of msgs) {
    for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name), (recallCalls += c.function?.name === RECALL ? 1 : 0);
    if (m.role === "tool") all.push(m.content);
  }
  const last: ScriptTurn["last"] = [];
  for (let k = msgs.length - 1; k >= 0 && msgs[k].role === "tool"; k--) {
    const o = msgs[k].content;
    last.unshift({ name: names.get(msgs[k].tool_call_id) ?? "?", content: o, isError: typeof o === "string" && o.startsWith("Error: ") });
  }
  return { shell: tools.find((t) => t.name === "bash"), offersRecall: tools.some((t) => t.name === RECALL), last, all, recallCalls };
}

export function chatAnswer(body: any, r: ScriptReply): string {
  const id = ++ids;
  const calls = "call" in r ? [{ id: `call_${id}`, type: "function", function: { name: r.call, arguments: JSON.stringify(r.input) } }] : [];
  const message = { role: "assistant", content: "text" in r ? r.text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const base = { id: `chatcmpl_${id}`, created: 1, model: body.model };
  const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };
  if (body.stream !== true) return JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage });
  const chunk = (delta: any, finish_reason: string | null = null): any => ({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] });
  const chunks = [chunk({ role: "assistant", content: "text" in r ? r.text : "" }), ...calls.map((c, index) => chunk({ tool_calls: [{ index, ...c }] })), chunk({}, finish), { ...base, object: "chat.completion.chunk", choices: [], usage }];
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
}

type Api = "anthropic" | "responses" | "chat" | "gemini";
const apiOf = (path: string): Api | null =>
  path.endsWith("/messages") ? "anthropic" : path.endsWith("/responses") ? "responses" : path.endsWith("/chat/completions") ? "chat" : /:(stream)?[gG]enerateContent$/.test(path) ? "gemini" : null;
const turnOf = { anthropic: anthropicTurn, responses: responsesTurn, chat: chatTurn, gemini: geminiTurn };

/** How many `cliff_recall` calls a request's history holds (its messages or input items, never its tools). */
export function recallCallsIn(path: string, raw: string): number {
  const api = apiOf(path)!;
  return turnOf[api](api === "gemini" ? requestIn(JSON.parse(raw), path) : JSON.parse(raw)).recallCalls;
}

/** A final text, a function call, or (Codex's code mode) a custom tool call whose input is JavaScript. */
export type ScriptReply = { text: string } | { call: string; input: Record<string, unknown>; code?: string };

interface State {
  calls: number;
  maxCalls: number;
  /** Texts of results seen whole, by ref. */
  known: Map<string, string>;
  out: RecallScript;
  checkedAfter: boolean;
  lines: number;
}

// 1,300 lines of 21 characters: over a recall page (20,000), under Claude Code's 30,000-character
// and OpenCode's 2,000-line caps on a shell output kept in the request (an output over Claude Code's:
// recall-large.e2e.ts).
const command = (k: number, lines: number): string => `seq -f '%020g' ${k * 100_000} ${k * 100_000 + lines - 1}`;

function decide(raw: string, t: ScriptTurn, s: State): ScriptReply {
  if (t.shell === undefined) return { text: "ok" };
  const summary = summaryOf(raw);
  if (summary !== null && !s.out.summaries.includes(summary)) s.out.summaries.push(summary);
  const recalled = t.last.find((r) => r.name === RECALL);
  if (recalled !== undefined) {
    const want = s.out.recalls[s.out.recalls.length - 1];
    const text = typeof recalled.content === "string" ? recalled.content : JSON.stringify(recalled.content);
    want.isError ||= recalled.isError;
    want.pages++;
    // A long text comes in pages, each opening with a line that gives the next page's offset.
    const head = /^\[ref [0-9a-f]{12}: characters [\d,]+ to [\d,]+ of [\d,]+; (?:this is the end of the text|[\d,]+ remain: call again with \{"ref": "[0-9a-f]{12}", "offset": (\d+)\} for the next page)\]\n/.exec(text);
    want.got += head === null ? text : text.slice(head[0].length);
    if (head?.[1] !== undefined) return { call: RECALL, input: { ref: want.ref, offset: Number(head[1]) } };
    return shellCall(t, s, `seq 1 3`);
  }
  for (const c of t.all) for (const x of textsOf(c)) if (!s.known.has(refOf(x))) s.known.set(refOf(x), x);
  if (s.out.recalls.length > 0) {
    if (!s.checkedAfter) s.out.after.push(raw), (s.checkedAfter = true);
    const r = s.out.recalls[0];
    return { text: r.got === r.expected ? `ALL DONE: recalled ${r.ref}, ${r.got.length} chars, byte for byte` : `RECALL MISMATCH ${r.ref}` };
  }
  if (s.out.summaries.length >= 2 && t.offersRecall && summary !== null) {
    const named = [...summary.matchAll(DROPPED_REF)].map((m) => m[1]).filter((ref) => s.known.has(ref));
    if (named.length > 0) {
      s.out.recalls.push({ ref: named[0], expected: s.known.get(named[0])!, got: "", pages: 0, isError: false, afterCliffs: s.out.summaries.length });
      return { call: RECALL, input: { ref: named[0] } };
    }
  }
  if (s.calls >= s.maxCalls) return { text: "GAVE UP: no ref to recall" };
  return shellCall(t, s, command(++s.calls, s.lines));
}

function shellCall(t: ScriptTurn, _s: State, cmd: string): ScriptReply {
  const name = t.shell!.name;
  // Code mode: the shell is reached from JavaScript through the nested tools.
  if (t.shell!.type === "custom") return { call: name, input: {}, code: `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)} });\ntext(r);` };
  const input = /^bash$/i.test(name) || name === "run_shell_command" ? { command: cmd, description: "print numbers" } : name === "exec_command" ? { cmd } : name === "shell_command" ? { command: cmd } : { command: ["bash", "-lc", cmd] };
  return { call: name, input };
}

/** The cliff's summary text in the request (the string that holds the header), or null. */
export function summaryOf(raw: string): string | null {
  const at = raw.indexOf(SUMMARY_HEADER);
  if (at < 0) return null;
  // The JSON string that holds it: up to its closing quote.
  const end = /(?<!\\)(\\\\)*"/g;
  end.lastIndex = at;
  const m = end.exec(raw);
  return JSON.parse(`"${raw.slice(at, m === null ? raw.length : m.index + m[0].length - 1)}"`);
}

let ids = 0;

export function anthropicAnswer(body: any, r: ScriptReply): string {
  const msg = { id: `msg_${++ids}`, type: "message", role: "assistant", model: body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 100, output_tokens: 1 } };
  const events: Record<string, any>[] = [{ type: "message_start", message: msg }];
  if ("call" in r) {
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: `toolu_${ids}`, name: r.call, input: {} } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(r.input) } },
    );
  } else {
    events.push(
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: r.text } },
    );
  }
  events.push({ type: "content_block_stop", index: 0 }, { type: "message_delta", delta: { stop_reason: "call" in r ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 10 } }, { type: "message_stop" });
  if (body.stream === true) return sse(events);
  const content = "call" in r ? [{ type: "tool_use", id: `toolu_${ids}`, name: r.call, input: r.input }] : [{ type: "text", text: r.text }];
  return JSON.stringify({ ...msg, content, stop_reason: "call" in r ? "tool_use" : "end_turn" });
}

function responsesAnswer(body: any, r: ScriptReply): string {
  const id = ++ids;
  const item = "call" in r && r.code !== undefined
    ? { type: "custom_tool_call", id: `ctc_${id}`, status: "completed", call_id: `call_${id}`, name: r.call, input: r.code }
    : "call" in r
    ? { type: "function_call", id: `fc_${id}`, status: "completed", call_id: `call_${id}`, name: r.call, arguments: JSON.stringify(r.input) }
    : { type: "message", id: `msg_${id}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: r.text, annotations: [] }] };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110 };
  const response = { id: `resp_${id}`, object: "response", created_at: 1, status: "completed", model: body.model, output: [item], usage };
  if (body.stream !== true) return JSON.stringify(response);
  return sse([
    { type: "response.created", sequence_number: 0, response: { ...response, status: "in_progress", output: [] } },
    { type: "response.output_item.added", sequence_number: 1, output_index: 0, item: { ...item, status: "in_progress" } },
    { type: "response.output_item.done", sequence_number: 2, output_index: 0, item },
    { type: "response.completed", sequence_number: 3, response },
  ]);
}

/** A Gemini request: refused as the API refuses it, a side request answered with its JSON, the agent's turn as scripted. */
function geminiServe(res: http.ServerResponse, body: any, raw: string, url: URL, s: State): void {
  const refusal = geminiRefusal(body, url.pathname);
  if (refusal !== null) {
    const roles = (requestIn(body, url.pathname)?.contents ?? []).map((c: any) => `${c.role}(${(c.parts ?? []).map((p: any) => Object.keys(p).join("+")).join(",")})`);
    s.out.refused.push(`${refusal} [${raw.includes(SUMMARY_HEADER) ? "compacted" : "as the client sent it"}: ${roles.join(" ")}]`)
    res.writeHead(400, { "content-type": "application/json" });
    return void res.end(geminiError(refusal));
  }
  const request = requestIn(body, url.pathname);
  const reply = isSideRequest(request) ? sideAnswer(request) : decide(raw, geminiTurn(request), s);
  const answer = geminiAnswer(reply, url);
  res.writeHead(200, { "content-type": answer.type });
  res.end(answer.body);
}

/** `lines`: how long each shell output is (21 characters a line); `beforeFinal`: awaited before the final text goes (what the proxy shows then). */
export async function recallScript(lines = 1300, maxCalls = 12, lifetimeMs = 600_000, beforeFinal?: () => Promise<void>): Promise<RecallScript> {
  const out: RecallScript = { url: "", seen: [], summaries: [], recalls: [], after: [], refused: [], close: () => server.close() };
  const state: State = { calls: 0, maxCalls, known: new Map(), out, checkedAfter: false, lines };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const path = url.pathname;
      const api = req.method === "POST" ? apiOf(path) : null;
      if (api === null) {
        const method = codeAssistMethod(path);
        const count = path.endsWith("/count_tokens") ? { input_tokens: Math.ceil(raw.length / 4) } : path.endsWith(":countTokens") ? { totalTokens: Math.ceil(raw.length / 4) } : null;
        res.writeHead(count !== null || method !== null ? 200 : 404, { "content-type": "application/json" });
        return void res.end(method !== null ? codeAssistOther(method) : JSON.stringify(count ?? { error: { message: "not here" } }));
      }
      out.seen.push({ path, body: raw });
      const body = JSON.parse(raw);
      if (api === "gemini") return void geminiServe(res, body, raw, url, state);
      const reply = decide(raw, turnOf[api](body), state);
      const send = (): void => {
        res.writeHead(200, { "content-type": body.stream === true ? "text/event-stream" : "application/json" });
        res.end({ anthropic: anthropicAnswer, responses: responsesAnswer, chat: chatAnswer }[api](body, reply));
      };
      if (beforeFinal === undefined || !("text" in reply) || !reply.text.startsWith("ALL DONE")) return send();
      const look = beforeFinal;
      beforeFinal = undefined;
      void look().finally(send);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  out.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return out;
}

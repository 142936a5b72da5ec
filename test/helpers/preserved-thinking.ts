/**
 * An Anthropic Messages upstream on 127.0.0.1 that runs the documented prefix check of preserved
 * thinking ("Preserved thinking", "Prefix checks on thinking blocks"): every thinking block it
 * produces is signed over a hash of its prefix (the top-level `system` and `tools` and everything
 * before the block in `messages`, cache breakpoints aside), and a block sent back whose prefix
 * differs is invalid, as is every later thinking block. On a model that runs the check a request
 * with an invalid block is refused with the API's 400 (`… bound to a different conversation`),
 * unless its `thinking.block_binding.prefix_mismatch_behavior` is "drop_block", which needs the
 * `thinking-binding-controls-2026-08-01` beta; then the invalid blocks are dropped and the answer
 * lists them in `input_transformations` (`[]` when none, whenever the beta is sent). Each answer is
 * a new assistant turn: a signed thinking block and a tool call (or, once `calls` are used, text).
 * It records what it received and what it decided. It stops by itself. What the docs leave open it
 * takes from the real Claude Code's requests: a string content is the one text block it stands for,
 * and mid-conversation `system` messages are not part of a block's prefix.
 */
import { createHash, createHmac } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import { listenLoopback } from "./mock-upstream.js";

export const BETA = "thinking-binding-controls-2026-08-01";
/** The models the docs' supported-model list names (the mock checks these only). */
export const CHECKED = ["claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"];

export interface Exchange {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
  status: number;
  /** Paths (`messages.i.content.j`) of the blocks dropped, when the request asked to drop them. */
  dropped: string[];
  /** Paths of the invalid blocks (dropped or refused). */
  invalid: string[];
  /** The answer's error type, for a refusal. */
  error?: string;
  /** The answer's error message, for a refusal. */
  message?: string;
}

export interface PreservedThinkingMock {
  url: string;
  exchanges: Exchange[];
  /** Answer every request with this instead (a status and an error type), once per call to `refuseNext`. */
  refuseNext(status: number, type: string, message: string): void;
  close(): Promise<void>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const isThinking = (b: unknown): boolean => isObj(b) && (b.type === "thinking" || b.type === "redacted_thinking");

/** The value without cache breakpoints, keys sorted: what the check compares. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObj(v)) return v;
  const out: Obj = {};
  for (const k of Object.keys(v).sort()) if (k !== "cache_control") out[k] = canonical(v[k]);
  return out;
}

const SECRET = "mock-signing-key";

/** A message's or the system's content as blocks: a string is one text block, as the API reads it. */
const blocks = (c: unknown): unknown => (typeof c === "string" ? [{ type: "text", text: c }] : c);
const message = (m: unknown): unknown => (isObj(m) ? { ...m, content: blocks(m.content) } : m);

/** The hash of a block's prefix: system, tools, the messages before it, and the blocks before it in its message. */
function prefixHash(body: Obj, messages: unknown[], i: number, j: number): string {
  const m = messages[i];
  const before = isObj(m) && Array.isArray(m.content) ? m.content.slice(0, j) : [];
  const role = isObj(m) ? m.role : undefined;
  // Mid-conversation `system` messages are Claude Code's per-turn instructions, which it rewrites
  // from one request to the next (a trailing one loses a block once a turn follows it); the docs
  // say Claude Code's own requests pass the check, so the mock leaves them out of the prefix.
  const prefix = { system: blocks(body.system ?? null), tools: body.tools ?? null, messages: messages.slice(0, i).filter((x) => !isObj(x) || x.role !== "system").map(message), role, before };
  return createHash("sha256").update(JSON.stringify(canonical(prefix))).digest("hex");
}

const sign = (prefix: string, thinking: string): string => createHmac("sha256", SECRET).update(prefix + "\u0000" + thinking).digest("base64");

/** Paths of the invalid thinking blocks: the first whose signature does not match its prefix, and every later one. */
function invalidBlocks(body: Obj): string[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const out: string[] = [];
  let broken = false;
  messages.forEach((m, i) => {
    if (!isObj(m) || !Array.isArray(m.content)) return;
    m.content.forEach((b, j) => {
      if (!isThinking(b)) return;
      const text = String((b as Obj).thinking ?? (b as Obj).data ?? "");
      if (!broken && (b as Obj).signature !== sign(prefixHash(body, messages, i, j), text)) broken = true;
      if (broken) out.push(`messages.${i}.content.${j}`);
    });
  });
  return out;
}

const betas = (h: IncomingHttpHeaders): string[] => String(h["anthropic-beta"] ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");

function error(status: number, type: string, message: string): { status: number; body: string } {
  return { status, body: JSON.stringify({ type: "error", error: { type, message }, request_id: "req_mock" }) };
}

/** One past the newest of this mock's tool calls the request answers (its ids are `toolu_mock_<n>`), 0 when none. */
function stepOf(messages: unknown[]): number {
  let next = 0;
  for (const m of messages) {
    if (!isObj(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content) {
      const id = isObj(b) && b.type === "tool_result" ? /^toolu_mock_(\d+)$/.exec(String(b.tool_use_id)) : null;
      if (id !== null) next = Math.max(next, Number(id[1]) + 1);
    }
  }
  return next;
}

/** How the mock numbers its turns (see `PreservedThinkingOptions.steps`). */
interface Turns {
  calls: number;
  command: (n: number) => string;
  steps: boolean;
  /** The answer's message id. */
  messageId: (body: Obj) => string;
}

/** The assistant turn answering `body`: a thinking block signed over the request, then a tool call or text. */
function turn(body: Obj, t: Turns): unknown[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const n = t.steps ? stepOf(messages) : messages.length;
  const thinking = `Considering step ${n}: what the last result says and what to run next.`;
  const signature = sign(prefixHash(body, [...messages, { role: "assistant", content: [] }], messages.length, 0), thinking);
  const call = t.steps ? n < t.calls : messages.filter((m) => isObj(m) && m.role === "assistant").length < t.calls;
  return [{ type: "thinking", thinking, signature }, call ? { type: "tool_use", id: `toolu_mock_${n}`, name: "Bash", input: { command: t.command(n) } } : { type: "text", text: "ALL DONE" }];
}

function answer(body: Obj, content: unknown[], transformations: unknown[] | undefined, id: string): string {
  const message = { id, type: "message", role: "assistant", model: body.model, content, stop_reason: content.some((b) => isObj(b) && b.type === "tool_use") ? "tool_use" : "end_turn", stop_sequence: null, usage: { input_tokens: 100, output_tokens: 20 }, ...(transformations !== undefined ? { input_transformations: transformations } : {}) };
  if (body.stream !== true) return JSON.stringify(message);
  const ev = (e: Obj): string => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
  let out = ev({ type: "message_start", message: { ...message, content: [], stop_reason: null } });
  content.forEach((b, index) => {
    const block = b as Obj;
    if (block.type === "thinking") {
      out += ev({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
      out += ev({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: block.thinking } });
      out += ev({ type: "content_block_delta", index, delta: { type: "signature_delta", signature: block.signature } });
    } else if (block.type === "tool_use") {
      out += ev({ type: "content_block_start", index, content_block: { ...block, input: {} } });
      out += ev({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    } else {
      out += ev({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      out += ev({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    }
    out += ev({ type: "content_block_stop", index });
  });
  out += ev({ type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 20 } });
  return out + ev({ type: "message_stop" });
}

/** Decides one request as the API would. */
function decideRequest(headers: IncomingHttpHeaders, body: Obj, turns: Turns): { status: number; body: string; dropped: string[]; invalid: string[]; error?: string } {
  const thinking = isObj(body.thinking) ? body.thinking : undefined;
  const binding = thinking !== undefined && isObj(thinking.block_binding) ? thinking.block_binding : undefined;
  const behaviour = binding?.prefix_mismatch_behavior;
  const beta = betas(headers).includes(BETA);
  if (behaviour !== undefined && behaviour !== null && !beta) {
    return { ...error(400, "invalid_request_error", `thinking.block_binding: This setting requires the \`${BETA}\` value in the \`anthropic-beta\` header.`), dropped: [], invalid: [], error: "invalid_request_error" };
  }
  if (behaviour !== undefined && behaviour !== "drop_block" && behaviour !== "error" && behaviour !== null) {
    return { ...error(400, "invalid_request_error", "thinking.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'"), dropped: [], invalid: [], error: "invalid_request_error" };
  }
  const checked = CHECKED.some((m) => String(body.model ?? "").startsWith(m));
  const invalid = checked ? invalidBlocks(body) : [];
  if (invalid.length > 0 && behaviour !== "drop_block") {
    const message = `${invalid[0]}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`;
    return { ...error(400, "invalid_request_error", message), dropped: [], invalid, error: "invalid_request_error" };
  }
  const dropped = behaviour === "drop_block" ? invalid : [];
  const transformations = beta ? dropped.map((path) => ({ type: "thinking_dropped", path, reason: "prefix_binding_mismatch" })) : undefined;
  return { status: 200, body: answer(body, turn(body, turns), transformations, turns.messageId(body)), dropped, invalid };
}

export interface PreservedThinkingOptions {
  /** Tool calls to make before the final text (default: always a call). */
  calls?: number;
  /** The shell command of the call answering a request of `n` messages (with `steps`, the call numbered `n`). */
  command?: (n: number) => string;
  /**
   * Number the turns by the mock's own tool calls the request answers (one past the newest
   * `toolu_mock_<n>` result), not by the request's length: a real client driven by the mock moves
   * on after a cliff shortened its history, and a retried request gets the same answer (default false).
   */
  steps?: boolean;
  lifetimeMs?: number;
}

export async function preservedThinkingMock(options: PreservedThinkingOptions = {}): Promise<PreservedThinkingMock> {
  const command = options.command ?? ((n: number) => `cat part-${n}.log`);
  const refusals: { status: number; type: string; message: string }[] = [];
  let answered = 0;
  // Claude Code joins the blocks of one answer by the message id, so with `steps` every answer's id
  // is new (as the API's are): one that repeats after a cliff shortened the history is spliced
  // into the earlier answer's place.
  const messageId = (body: Obj): string => (options.steps === true ? `msg_mock_answer_${++answered}` : `msg_mock_${Array.isArray(body.messages) ? body.messages.length : 0}`);
  const turns: Turns = { calls: options.calls ?? 1000, command, steps: options.steps === true, messageId };
  const mock: PreservedThinkingMock = {
    url: "", exchanges: [], close: async () => {},
    refuseNext: (status, type, message) => void refusals.push({ status, type, message }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Obj = {};
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (isObj(parsed)) body = parsed;
      } catch {
        // answered below as a bad request
      }
      const refusal = refusals.shift();
      const d = refusal !== undefined ? { ...error(refusal.status, refusal.type, refusal.message), dropped: [], invalid: [], error: refusal.type } : decideRequest(req.headers, body, turns);
      mock.exchanges.push({ headers: req.headers, body, raw, status: d.status, dropped: d.dropped, invalid: d.invalid, ...(d.error !== undefined ? { error: d.error, message: (JSON.parse(d.body) as { error: { message: string } }).error.message } : {}) });
      const sse = d.status === 200 && body.stream === true;
      res.writeHead(d.status, { "content-type": sse ? "text/event-stream" : "application/json", "request-id": "req_mock" });
      res.end(d.body);
    });
  });
  return Object.assign(mock, await listenLoopback(server, options.lifetimeMs ?? 120_000));
}

/** The assistant message an answer (JSON or SSE) carries, as a client would append it to its history. */
export function assistantOf(answer: string): { role: "assistant"; content: unknown[] } {
  if (answer.trimStart().startsWith("{")) return { role: "assistant", content: (JSON.parse(answer) as { content: unknown[] }).content };
  const content: Obj[] = [];
  for (const line of answer.split("\n")) {
    if (!line.startsWith("data: ")) continue;
    const e = JSON.parse(line.slice(6)) as Obj;
    if (e.type === "content_block_start") content[e.index as number] = { ...(e.content_block as Obj) };
    if (e.type === "content_block_delta") {
      const b = content[e.index as number];
      const d = e.delta as Obj;
      if (d.type === "thinking_delta") b.thinking = String(b.thinking ?? "") + String(d.thinking);
      if (d.type === "signature_delta") b.signature = d.signature;
      if (d.type === "text_delta") b.text = String(b.text ?? "") + String(d.text);
      if (d.type === "input_json_delta") b.input = JSON.parse(String(d.partial_json));
    }
  }
  return { role: "assistant", content };
}

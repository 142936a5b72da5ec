/**
 * OpenCode session exports (`opencode export <sessionID>`: `{info, messages: [{info, parts}]}`),
 * turned into the messages OpenCode sends its model: a user message's text, file and compaction
 * parts; an assistant message's text and tool parts, each tool part a call and its result (an
 * error, an interrupted call, a result OpenCode cleared, as OpenCode words them). After a finished
 * compaction only what OpenCode still sends is read: the compaction request, its summary, the tail
 * it kept, and what came after. A session on Anthropic reads as Messages (consecutive user messages
 * joined, as the AI SDK sends them), any other as Chat.
 */
import { arr, isObj, obj, str, type DialectName } from "../../core/index.js";
import { fail, timeOf, type Session } from "./common.js";

type Entry = { info: Record<string, unknown>; parts: Record<string, unknown>[] };
type Message = Record<string, unknown>;

/** A call and its result as OpenCode sends them. */
interface Call {
  id: string;
  name: string;
  input: unknown;
  output: string;
  error: boolean;
  /** A read whose result said the path is a folder (kept even once OpenCode cleared the result). */
  folder?: boolean;
}

/** One model-facing turn, before it is written in a dialect. */
type Turn = { role: "user"; texts: string[]; images: { mime: string; data: string }[] } | { role: "assistant"; texts: string[]; calls: Call[] };

const COMPACTION_PROMPT = "What did we do so far?";
const SUBTASK_PROMPT = "The following tool was executed by the user";
const CLEARED = "[Old tool result content cleared]";
const INTERRUPTED = "[Tool execution was interrupted]";

/** An export: session info with an id, and messages each with `info` (a role) and `parts`. */
export function looksLikeOpenCode(v: unknown): boolean {
  if (!isObj(v) || !isObj(v.info) || !Array.isArray(v.messages)) return false;
  const first = v.messages[0];
  return typeof v.info.id === "string" && (first === undefined || (isObj(first) && isObj(first.info) && Array.isArray(first.parts)));
}

function entries(value: Record<string, unknown>, file: string): Entry[] {
  return arr(value.messages).map((m, i) => {
    if (!isObj(m) || !isObj(m.info) || !Array.isArray(m.parts)) fail(file, `key "messages[${i}]"`, 'an OpenCode message needs an "info" object and a "parts" list');
    if (m.info.role !== "user" && m.info.role !== "assistant") fail(file, `key "messages[${i}].info.role"`, 'must be "user" or "assistant"');
    m.parts.forEach((p, j) => {
      if (!isObj(p) || typeof p.type !== "string") fail(file, `key "messages[${i}].parts[${j}]"`, 'each part must be an object with a "type"');
    });
    return { info: m.info, parts: m.parts as Record<string, unknown>[] };
  });
}

const hasCompaction = (e: Entry): boolean => e.info.role === "user" && e.parts.some((p) => p.type === "compaction");
const finishedSummary = (e: Entry): boolean => e.info.role === "assistant" && e.info.summary === true && e.info.finish !== undefined && e.info.error === undefined;

/**
 * What OpenCode still sends after its newest finished compaction: the compaction request, its
 * summary, the kept tail (from `tail_start_id`, moved after the summary) and what followed.
 */
function afterCompaction(all: Entry[]): { kept: Entry[]; compacted: boolean } {
  const summarised = new Set(all.filter(finishedSummary).map((e) => e.info.parentID));
  let at = -1;
  for (let i = all.length - 1; i >= 0; i--) {
    if (hasCompaction(all[i]) && summarised.has(all[i].info.id)) {
      at = i;
      break;
    }
  }
  if (at < 0) return { kept: all, compacted: false };
  const request = all[at];
  const summary = all.findIndex((e, i) => i > at && finishedSummary(e) && e.info.parentID === request.info.id);
  const tailId = request.parts.find((p) => p.type === "compaction")?.tail_start_id;
  const tail = typeof tailId === "string" ? all.findIndex((e) => e.info.id === tailId) : -1;
  if (tail >= 0 && tail < at) return { kept: [...all.slice(at, summary + 1), ...all.slice(tail, at), ...all.slice(summary + 1)], compacted: true };
  return { kept: all.slice(at), compacted: true };
}

function userTurn(e: Entry): Turn {
  const turn: Turn = { role: "user", texts: [], images: [] };
  for (const p of e.parts) {
    if (p.type === "text" && p.ignored !== true && str(p.text) !== "") turn.texts.push(str(p.text));
    else if (p.type === "file" && p.mime !== "text/plain" && p.mime !== "application/x-directory") {
      const url = str(p.url);
      const comma = url.indexOf(",");
      if (str(p.mime).startsWith("image/") && url.startsWith("data:") && comma > 0) turn.images.push({ mime: str(p.mime), data: url.slice(comma + 1) });
      else turn.texts.push(`[Attached ${str(p.mime)}: ${str(p.filename) || "file"}]`);
    } else if (p.type === "compaction") turn.texts.push(COMPACTION_PROMPT);
    else if (p.type === "subtask") turn.texts.push(SUBTASK_PROMPT);
  }
  return turn;
}

// OpenCode's read tool opens a folder too, and says so at the top of its result.
const FOLDER_RESULT = /^<path>[^\n]*<\/path>\s*<type>directory<\/type>/;

function toolCall(p: Record<string, unknown>): Call {
  const state = obj(p.state);
  const base = { id: str(p.callID), name: str(p.tool), input: state.input ?? {} };
  if (state.status === "completed") {
    const output = obj(state.time).compacted !== undefined ? CLEARED : typeof state.output === "string" ? state.output : JSON.stringify(state.output ?? "");
    return { ...base, output, error: false, ...(base.name === "read" && typeof state.output === "string" && FOLDER_RESULT.test(state.output) ? { folder: true } : {}) };
  }
  if (state.status === "error") {
    const interrupted = obj(state.metadata).interrupted === true && typeof obj(state.metadata).output === "string";
    return { ...base, output: interrupted ? str(obj(state.metadata).output) : str(state.error), error: !interrupted };
  }
  return { ...base, output: INTERRUPTED, error: true };
}

/** An assistant message's turns: text and calls, split where a new step starts (each step is one model response). */
function assistantTurns(e: Entry): Turn[] {
  // A failed response is not sent again, unless it was aborted after it had said something.
  if (e.info.error !== undefined && !(obj(e.info.error).name === "MessageAbortedError" && e.parts.some((p) => p.type !== "step-start" && p.type !== "reasoning"))) return [];
  const turns: Turn[] = [];
  let turn: Turn & { role: "assistant" } = { role: "assistant", texts: [], calls: [] };
  const close = (): void => {
    if (turn.texts.length > 0 || turn.calls.length > 0) turns.push(turn);
    turn = { role: "assistant", texts: [], calls: [] };
  };
  for (const p of e.parts) {
    if (p.type === "step-start") close();
    else if (p.type === "text" && str(p.text) !== "") turn.texts.push(str(p.text));
    else if (p.type === "tool") turn.calls.push(toolCall(p));
  }
  close();
  return turns;
}

/** A call's arguments as Chat sends them; input too deep to write out is an input error, not a crash. */
function argumentsOf(c: Call, file: string): string {
  try {
    return JSON.stringify(c.input);
  } catch {
    return fail(file, `tool call "${c.id}"`, "its input is nested too deeply to read");
  }
}

function toChat(turns: Turn[], file: string): Message[] {
  const out: Message[] = [];
  for (const t of turns) {
    if (t.role === "user") {
      const text = t.texts.join("\n");
      out.push({ role: "user", content: t.images.length === 0 ? text : [...(text ? [{ type: "text", text }] : []), ...t.images.map((i) => ({ type: "image_url", image_url: { url: `data:${i.mime};base64,${i.data}` } }))] });
      continue;
    }
    const calls = t.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: argumentsOf(c, file) } }));
    out.push({ role: "assistant", content: t.texts.length > 0 ? t.texts.join("\n") : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    for (const c of t.calls) out.push({ role: "tool", tool_call_id: c.id, content: c.output });
  }
  return out;
}

function toAnthropic(turns: Turn[]): Message[] {
  const out: Message[] = [];
  for (const t of turns) {
    if (t.role === "user") {
      out.push({ role: "user", content: [...t.texts.map((text) => ({ type: "text", text })), ...t.images.map((i) => ({ type: "image", source: { type: "base64", media_type: i.mime, data: i.data } }))] });
      continue;
    }
    const content = [...t.texts.map((text) => ({ type: "text", text })), ...t.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: isObj(c.input) ? c.input : {} }))];
    out.push({ role: "assistant", content });
    if (t.calls.length > 0) out.push({ role: "user", content: t.calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.output, ...(c.error ? { is_error: true } : {}) })) });
  }
  return out;
}

/** The paths the session's read calls found to be folders (they are no file read). */
function foldersRead(turns: readonly { turn: Turn }[]): string[] {
  const out = new Set<string>();
  for (const { turn } of turns) {
    if (turn.role !== "assistant") continue;
    for (const c of turn.calls) if (c.folder === true && str(obj(c.input).filePath) !== "") out.add(str(obj(c.input).filePath));
  }
  return [...out];
}

export function readOpenCode(value: unknown, file: string): Session {
  if (!isObj(value) || !isObj(value.info) || !Array.isArray(value.messages)) return fail(file, "", 'an OpenCode export needs an "info" object and a "messages" list');
  const all = entries(value, file);
  const { kept, compacted } = afterCompaction(all);
  const times = new WeakMap<object, number>();
  const turns: { turn: Turn; at: number | undefined }[] = [];
  for (const e of kept) {
    const at = timeOf(obj(e.info.time).created);
    for (const turn of e.info.role === "user" ? [userTurn(e)] : assistantTurns(e)) {
      if (turn.role === "user" && turn.texts.length === 0 && turn.images.length === 0) continue;
      turns.push({ turn, at });
    }
  }
  if (turns.length === 0) fail(file, 'key "messages"', "no user or assistant text, and no tool calls, in the export");
  const last = [...all].reverse().find((e) => e.info.role === "assistant" && typeof e.info.modelID === "string");
  const provider = last !== undefined ? str(last.info.providerID) : str(obj(obj(value.info).model).providerID);
  const dialect: DialectName = provider === "anthropic" ? "anthropic" : "openai-chat";
  const messages: Message[] = [];
  for (const { turn, at } of turns) {
    const written = dialect === "anthropic" ? toAnthropic([turn]) : toChat([turn], file);
    for (const m of written) {
      // Consecutive user messages go as one on Anthropic (a tool result and the text after it).
      const prev = messages[messages.length - 1];
      if (dialect === "anthropic" && m.role === "user" && prev?.role === "user") {
        prev.content = [...(prev.content as unknown[]), ...(m.content as unknown[])];
        continue;
      }
      if (at !== undefined) times.set(m, at);
      messages.push(m);
    }
  }
  const model = last !== undefined ? str(last.info.modelID) : undefined;
  const folders = foldersRead(turns);
  return { format: "opencode", dialect, messages, times, ...(model ? { model } : {}), ...(folders.length > 0 ? { folders } : {}), ...(compacted ? { note: "history after OpenCode's newest compaction" } : {}) };
}

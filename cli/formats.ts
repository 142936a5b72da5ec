/**
 * Session readers: every file format the CLI accepts, detected from the content (or forced),
 * turned into one dialect's message list. Errors name the file, the line or key, and the formats.
 */
import { detectDialect, isObj, liveFromEntries, type DialectName } from "../core/index";
import { jsonErrorLine } from "./json-error";

export const FORMATS = ["pi", "claude-code", "anthropic", "openai-chat", "openai-responses", "traj", "agentparley"] as const;
export type Format = (typeof FORMATS)[number];

export interface Session {
  format: Format;
  dialect: DialectName;
  messages: unknown[];
  /** The request body the messages came from (for whole-body estimates), when the file was one. */
  body?: Record<string, unknown>;
  focus?: string;
}

/** A problem with the input file; the CLI prints it on one line and exits with code 2. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

const ACCEPTED = `accepted formats: ${FORMATS.join(", ")} (Pi session .jsonl, Claude Code transcript .jsonl, Anthropic / OpenAI Chat / OpenAI Responses request bodies, .traj/.traj.json trajectories, AgentParley {messages, focus})`;

function fail(file: string, where: string, what: string): never {
  throw new InputError(`${file}${where ? ":" + where : ""}: ${what}; ${ACCEPTED}`);
}

function parseJsonLines(text: string, file: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      fail(file, `line ${i + 1}`, `not valid JSON (${(e as Error).message})`);
    }
    if (!isObj(v)) fail(file, `line ${i + 1}`, "each line must be a JSON object");
    out.push(v);
  }
  if (out.length === 0) fail(file, "", "the file is empty");
  return out;
}

/** The entries on the active branch: from the last entry back to the root through parentId (v2+), or all of them (v1). */
function activeBranch(entries: Record<string, unknown>[]): Record<string, unknown>[] {
  if (!entries.some((e) => typeof e.id === "string")) return entries;
  const byId = new Map<string, Record<string, unknown>>();
  for (const e of entries) if (typeof e.id === "string") byId.set(e.id, e);
  const path: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  let cur: Record<string, unknown> | undefined = entries[entries.length - 1];
  while (cur !== undefined && typeof cur.id === "string" && !seen.has(cur.id)) {
    seen.add(cur.id);
    path.push(cur);
    cur = typeof cur.parentId === "string" ? byId.get(cur.parentId) : undefined;
  }
  return path.reverse();
}

/** Pi session file: header line, then entries; the live context as Pi builds it (original head + since the last compaction's kept entry). */
function readPi(lines: Record<string, unknown>[], file: string): Session {
  const entries = activeBranch(lines.slice(1));
  for (const e of entries) {
    if (e.type === "message" && (!isObj(e.message) || typeof e.message.role !== "string")) {
      fail(file, `entry ${String(e.id ?? entries.indexOf(e) + 2)}`, 'a "message" entry needs a message with a role');
    }
  }
  return { format: "pi", dialect: "pi", messages: liveFromEntries(entries).map((l) => l.message) };
}

/** Claude Code transcript: one line per event; assistant content blocks of one API message may span several lines. */
function readClaudeCode(lines: Record<string, unknown>[], file: string): Session {
  const messages: Record<string, unknown>[] = [];
  let lastId: unknown;
  lines.forEach((l, i) => {
    if ((l.type !== "user" && l.type !== "assistant") || l.isSidechain === true) return;
    if (!isObj(l.message)) fail(file, `line ${i + 1}`, `a "${String(l.type)}" line needs a "message" object`);
    const m = l.message;
    const content = typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content : fail(file, `line ${i + 1}`, "message.content must be a string or a list");
    const prev = messages[messages.length - 1];
    if (m.role === "assistant" && prev !== undefined && prev.role === "assistant" && m.id !== undefined && m.id === lastId && Array.isArray(prev.content) && Array.isArray(content)) {
      prev.content = [...prev.content, ...content];
    } else messages.push({ role: m.role ?? l.type, content });
    lastId = m.id;
  });
  if (messages.length === 0) fail(file, "", "no user or assistant lines found in the transcript");
  return { format: "claude-code", dialect: "anthropic", messages };
}

/** The message without the `extra` key trajectories add for their own bookkeeping. */
function withoutExtra(m: unknown): unknown {
  if (!isObj(m) || !("extra" in m)) return m;
  const { extra: _extra, ...rest } = m;
  return rest;
}

function messageList(v: unknown, file: string, key: string): unknown[] {
  if (!Array.isArray(v)) fail(file, `key "${key}"`, "must be a list of messages");
  v.forEach((m, i) => {
    if (!isObj(m)) fail(file, `key "${key}[${i}]"`, "each message must be an object");
  });
  return v;
}

function readJson(value: unknown, file: string, forced?: Format): Session {
  if (Array.isArray(value)) {
    const messages = messageList(value, file, "(top level)");
    return { format: forced ?? "agentparley", dialect: forced && forced !== "agentparley" && forced !== "traj" ? (forced as DialectName) : detectDialect(messages), messages };
  }
  if (!isObj(value)) fail(file, "", "expected a JSON object or a list of messages");
  const isTraj = forced === "traj" || (forced === undefined && (Array.isArray(value.history) || "trajectory_format" in value || /\.traj(\.json)?$/.test(file)));
  if (isTraj) {
    const key = Array.isArray(value.messages) ? "messages" : Array.isArray(value.history) ? "history" : fail(file, 'key "messages"', 'a trajectory needs a "messages" or "history" list');
    const messages = messageList(value[key], file, key).map(withoutExtra);
    return { format: "traj", dialect: "openai-chat", messages };
  }
  if (forced === "openai-responses" || (forced === undefined && Array.isArray(value.input) && !Array.isArray(value.messages))) {
    return { format: "openai-responses", dialect: "openai-responses", messages: messageList(value.input, file, "input"), body: value };
  }
  if (!("messages" in value)) fail(file, "", 'no "messages" (or Responses "input") list found');
  const messages = messageList(value.messages, file, "messages");
  const flat = messages.every((m) => isObj(m) && typeof m.content === "string" && Object.keys(m).every((k) => k === "role" || k === "content"));
  if (forced === "agentparley" || (forced === undefined && ("focus" in value || (flat && !("model" in value))))) {
    if (value.focus !== undefined && typeof value.focus !== "string") fail(file, 'key "focus"', "must be a string");
    return { format: "agentparley", dialect: "plain", messages, focus: value.focus as string | undefined };
  }
  const dialect = forced !== undefined ? (forced as DialectName) : detectDialect(value);
  const format: Format = dialect === "anthropic" ? "anthropic" : dialect === "openai-responses" ? "openai-responses" : "openai-chat";
  return { format, dialect, messages, body: value };
}

function firstLineIsObject(text: string): boolean {
  const nl = text.indexOf("\n");
  try {
    return isObj(JSON.parse(nl < 0 ? text : text.slice(0, nl)));
  } catch {
    return false;
  }
}

/** Reads a session from file text. `forced` skips detection. */
export function readSession(text: string, file: string, forced?: string): Session {
  if (forced !== undefined && !(FORMATS as readonly string[]).includes(forced)) {
    throw new InputError(`unknown --format "${forced}"; ${ACCEPTED}`);
  }
  const f = forced as Format | undefined;
  const trimmed = text.trimStart();
  if (trimmed === "") fail(file, "", "the file is empty");
  const jsonLines = f === "pi" || f === "claude-code" || (f === undefined && /\.jsonl$/i.test(file));
  if (!jsonLines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      if (f !== undefined || !firstLineIsObject(trimmed)) {
        const line = jsonErrorLine(text);
        fail(file, line ? `line ${line}` : "", `not valid JSON (${(e as Error).message.split("\n")[0]})`);
      }
    }
    if (value !== undefined) return readJson(value, file, f);
  }
  const lines = parseJsonLines(text, file);
  if (f === "pi" || (f === undefined && lines[0].type === "session")) return readPi(lines, file);
  if (f === "claude-code" || (f === undefined && lines.some((l) => (l.type === "user" || l.type === "assistant") && isObj(l.message)))) {
    return readClaudeCode(lines, file);
  }
  return fail(file, "line 1", 'unrecognised JSON-lines file: a Pi session starts with {"type":"session"}, a Claude Code transcript has {"type":"user"|"assistant","message":…} lines');
}

/**
 * Gemini CLI's saved sessions and checkpoints, as Gemini API contents (the `gemini` dialect).
 *
 * A session (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) is a header line (`sessionId`,
 * `projectHash`), then message records (`{id, type: user | gemini | info | error | warning,
 * content, thoughts?, toolCalls?}`; a record written again with the same id replaces the first, in
 * its place), `{$set: {messages}}` (the whole list replaced), `{$set: {…}}` (metadata) and
 * `{$rewindTo: id}` (that message and all after it dropped). Older versions wrote the same records
 * as one JSON object with a `messages` list. A model record's tool calls carry their results; newer
 * versions also record those results as a user record of function responses, read once.
 * A checkpoint (`/chat save`, `checkpoint-<tag>.json`) is `{history: contents}` or the bare list.
 */
import { arr, isObj, obj, str } from "../../core/index.js";
import { fail, timeOf, type Session } from "./common.js";

type Rec = Record<string, unknown>;
type Part = Record<string, unknown>;
interface Content {
  role: "user" | "model";
  parts: Part[];
}

const isHeader = (l: Rec): boolean => typeof l.sessionId === "string" && typeof l.projectHash === "string";
const MESSAGE_TYPES = new Set(["user", "gemini", "info", "error", "warning"]);
const isMessage = (l: Rec): boolean => typeof l.id === "string" && typeof l.type === "string" && MESSAGE_TYPES.has(l.type);

/** Lines of a Gemini CLI session: a header, or message and `$set` records. */
export function looksLikeGeminiCliLines(lines: readonly Rec[]): boolean {
  return isHeader(lines[0]) || lines.slice(0, 5).some((l) => isMessage(l) && (l.type === "gemini" || "toolCalls" in l));
}

/** A whole-JSON Gemini CLI file: an old session (`{sessionId, messages}`) or a checkpoint (`{history}` or a list of contents). */
export function looksLikeGeminiCliJson(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0 && value.every(isContent);
  const v = obj(value);
  if (isHeader(v) && Array.isArray(v.messages)) return true;
  return Array.isArray(v.history) && v.history.length > 0 && v.history.every(isContent);
}

function isContent(c: unknown): boolean {
  const x = obj(c);
  return (x.role === "user" || x.role === "model") && Array.isArray(x.parts);
}

/** A content value as parts: a string is one text part; other values are dropped. */
function partsOf(content: unknown): Part[] {
  if (typeof content === "string") return content === "" ? [] : [{ text: content }];
  return arr(content).flatMap((p) => (typeof p === "string" ? [{ text: p }] : isObj(p) ? [p] : []));
}

/** The records in effect at the end, in order. */
function replay(records: readonly Rec[]): Rec[] {
  const byId = new Map<string, Rec>();
  for (const r of records) {
    if (typeof r.$rewindTo === "string") {
      let found = false;
      for (const id of [...byId.keys()]) if ((found ||= id === r.$rewindTo)) byId.delete(id);
      if (!found) byId.clear();
    } else if (isObj(r.$set) && Array.isArray(r.$set.messages)) {
      byId.clear();
      for (const m of r.$set.messages) if (isObj(m) && isMessage(m)) byId.set(m.id as string, m);
    } else if (isMessage(r)) {
      // A record written again replaces the first in its place (a Map keeps the first insertion's order).
      byId.set(r.id as string, r);
    }
  }
  return [...byId.values()];
}

function modelContent(r: Rec): Content {
  const content = partsOf(r.content);
  const parts: Part[] = [];
  if (!content.some((p) => p.functionCall !== undefined || p.thought === true)) {
    for (const t of arr(r.thoughts)) {
      const th = obj(t);
      const text = [str(th.subject), str(th.description)].filter((s) => s !== "").join(": ");
      if (text !== "") parts.push({ text, thought: true });
    }
  }
  parts.push(...content);
  for (const c of arr(r.toolCalls)) {
    const call = obj(c);
    parts.push({ functionCall: { id: call.id, name: call.name, args: call.args ?? {} } });
  }
  return { role: "model", parts };
}

/** The function responses of a model record's tool calls, as one user content (null when none). */
function resultsOf(r: Rec): Content | null {
  const parts: Part[] = [];
  for (const c of arr(r.toolCalls)) {
    const call = obj(c);
    if (typeof call.result === "string") parts.push({ functionResponse: { id: call.id, name: call.name, response: { output: call.result } } });
    else if (Array.isArray(call.result)) parts.push(...partsOf(call.result));
    else if (isObj(call.result)) parts.push(call.result);
  }
  return parts.length > 0 ? { role: "user", parts } : null;
}

const ids = (c: Content): string => c.parts.map((p) => str(obj(p.functionResponse).id)).join("\u0000");
const onlyResponses = (parts: Part[]): boolean => parts.length > 0 && parts.every((p) => p.functionResponse !== undefined);

function contentsOf(records: readonly Rec[], times: WeakMap<object, number>): { contents: Content[]; model?: string } {
  const contents: Content[] = [];
  let model: string | undefined;
  let synthesized: Content | null = null;
  const push = (c: Content, r: Rec) => {
    contents.push(c);
    const t = timeOf(r.timestamp);
    if (t !== undefined) times.set(c, t);
  };
  for (const r of records) {
    if (r.type === "user") {
      const parts = partsOf(r.content);
      // The results the model record already gave: the same responses, recorded a second time.
      if (synthesized !== null && onlyResponses(parts) && ids({ role: "user", parts }) === ids(synthesized)) continue;
      if (parts.length > 0) push({ role: "user", parts }, r);
      synthesized = null;
    } else if (r.type === "gemini") {
      const m = modelContent(r);
      if (typeof r.model === "string" && r.model !== "") model = r.model;
      synthesized = null;
      if (m.parts.length === 0) continue;
      push(m, r);
      const results = resultsOf(r);
      if (results !== null) push((synthesized = results), r);
    }
  }
  return { contents, model };
}

export function readGeminiCliLines(lines: Rec[], file: string): Session {
  const records = replay(lines.filter((l) => !isHeader(l)));
  const times = new WeakMap<object, number>();
  const { contents, model } = contentsOf(records, times);
  if (contents.length === 0) fail(file, "", "a Gemini CLI session with no user or model messages");
  return { format: "gemini-cli", dialect: "gemini", messages: contents, times, ...(model === undefined ? {} : { model }) };
}

export function readGeminiCliJson(value: unknown, file: string): Session {
  const v = obj(value);
  if (!Array.isArray(value) && Array.isArray(v.messages)) return readGeminiCliLines(v.messages.filter(isObj), file);
  const history = Array.isArray(value) ? value : v.history;
  if (!Array.isArray(history)) fail(file, 'key "history"', 'a Gemini CLI checkpoint is {"history": [contents]} or a list of contents');
  const contents = history.filter(isContent);
  if (contents.length === 0) fail(file, Array.isArray(value) ? "" : 'key "history"', "a Gemini CLI checkpoint with no {role, parts} contents");
  return { format: "gemini-cli", dialect: "gemini", messages: contents };
}

/**
 * OpenHands event streams (a trajectory export, or one record of an evaluation `output.jsonl` with
 * a `history` list): actions and observations, mapped to the OpenAI Chat messages OpenHands sends.
 * An action made by a function call carries the model's raw response in `tool_call_metadata`: its
 * assistant message (with every tool call of that response) is sent once; each observation becomes
 * the tool result of the call it answers (its own metadata, or its `cause`'s). A condensation
 * drops the events it forgot and puts its summary where it says.
 */
import { arr, isObj, obj, str } from "../../core/index.js";
import { fail, type Session } from "./common.js";

type Event = Record<string, unknown>;
type Message = Record<string, unknown>;

const SKIPPED = new Set(["change_agent_state", "agent_state_changed", "recall", "null", "condensation", "condensation_request"]);

/** True when a list holds OpenHands events (objects with an `action` or an `observation`). */
export function looksLikeOpenHands(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 && v.some((e) => isObj(e) && (typeof e.action === "string" || typeof e.observation === "string"));
}

function forgottenIds(events: readonly Event[]): { ids: Set<unknown>; summary?: { text: string; offset: number } } {
  const ids = new Set<unknown>();
  let summary: { text: string; offset: number } | undefined;
  for (const e of events) {
    if (e.action !== "condensation") continue;
    const args = obj(e.args);
    for (const id of arr(args.forgotten_event_ids)) ids.add(id);
    const from = args.forgotten_events_start_id;
    const to = args.forgotten_events_end_id;
    if (typeof from === "number" && typeof to === "number") for (let id = from; id <= to; id++) ids.add(id);
    if (typeof args.summary === "string" && args.summary !== "") summary = { text: args.summary, offset: typeof args.summary_offset === "number" ? args.summary_offset : 0 };
  }
  return { ids, summary };
}

/** The assistant message of a function-calling action, once per model response. */
function assistantOf(meta: Event, seen: Set<unknown>): Message | null {
  const response = obj(meta.model_response);
  const key = response.id ?? meta.tool_call_id;
  if (key !== undefined && seen.has(key)) return null;
  seen.add(key);
  const message = obj(obj(arr(response.choices)[0]).message);
  if (Array.isArray(message.tool_calls)) return { role: "assistant", content: message.content ?? null, tool_calls: message.tool_calls };
  return { role: "assistant", content: null, tool_calls: [{ id: meta.tool_call_id, type: "function", function: { name: str(meta.function_name), arguments: "{}" } }] };
}

function actionMessage(e: Event, seen: Set<unknown>): Message | null {
  const args = obj(e.args);
  if (e.action === "system") return { role: "system", content: str(args.content) || str(e.message) };
  const meta = obj(e.tool_call_metadata);
  if (typeof meta.tool_call_id === "string" || isObj(meta.model_response)) return assistantOf(meta, seen);
  if (e.action === "message") return { role: e.source === "user" ? "user" : "assistant", content: str(args.content) || str(e.message) };
  const text = [str(args.thought), str(e.message) || str(args.command) || str(args.code)].filter((t) => t !== "").join("\n");
  return text === "" ? null : { role: "assistant", content: text };
}

function observationMessage(e: Event, byId: Map<unknown, Event>): Message {
  const meta = isObj(e.tool_call_metadata) ? e.tool_call_metadata : obj(obj(byId.get(e.cause)).tool_call_metadata);
  const content = typeof e.content === "string" ? e.content : JSON.stringify(e.content ?? "");
  if (typeof meta.tool_call_id === "string") return { role: "tool", tool_call_id: meta.tool_call_id, name: str(meta.function_name), content };
  return { role: "tool", content };
}

export function readOpenHands(events: unknown[], file: string, where: string, note?: string): Session {
  const list = events.filter(isObj);
  if (list.length === 0) fail(file, where, "no OpenHands events found");
  const { ids, summary } = forgottenIds(list);
  const byId = new Map<unknown, Event>();
  for (const e of list) if (e.id !== undefined) byId.set(e.id, e);
  const seen = new Set<unknown>();
  const messages: Message[] = [];
  for (const e of list) {
    const kind = str(e.action) || str(e.observation);
    if (SKIPPED.has(kind) || (e.id !== undefined && ids.has(e.id))) continue;
    const m = typeof e.action === "string" ? actionMessage(e, seen) : typeof e.observation === "string" ? observationMessage(e, byId) : null;
    if (m !== null) messages.push(m);
  }
  if (summary !== undefined) messages.splice(Math.min(summary.offset, messages.length), 0, { role: "user", content: summary.text });
  if (messages.length === 0) fail(file, where, "no messages in the OpenHands events");
  return { format: "openhands", dialect: "openai-chat", messages, note };
}

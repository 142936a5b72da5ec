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
import { openHandsModel } from "./recorded-model.js";

type Event = Record<string, unknown>;
type Message = Record<string, unknown>;

const SKIPPED = new Set(["change_agent_state", "agent_state_changed", "recall", "null", "condensation", "condensation_request"]);

/**
 * An OpenHands event: an `action` or an `observation` name, and no chat `role` (SWE-agent's
 * history messages carry an `action` string too, beside their role and content).
 */
const isEvent = (e: unknown): boolean => isObj(e) && (typeof e.action === "string" || typeof e.observation === "string") && !("role" in e);

/** True when a list holds OpenHands events and no chat messages. */
export function looksLikeOpenHands(v: unknown): boolean {
  return Array.isArray(v) && v.some(isEvent) && !v.some((e) => isObj(e) && typeof e.role === "string");
}

/**
 * The ids condensations forgot: listed ids, and ranges kept as intervals (a range of 0..1e15 is
 * two numbers, not a set of every id in it).
 */
class Forgotten {
  private readonly ids = new Set<unknown>();
  private readonly ranges: [number, number][] = [];

  addId(id: unknown): void {
    this.ids.add(id);
  }

  addRange(from: number, to: number): void {
    if (from <= to) this.ranges.push([from, to]);
  }

  /** Sorted and merged, so `has` is a binary search; call once every condensation is read. */
  seal(): void {
    this.ranges.sort((a, b) => a[0] - b[0]);
    let n = 0;
    for (const r of this.ranges) {
      if (n > 0 && r[0] <= this.ranges[n - 1][1]) this.ranges[n - 1][1] = Math.max(this.ranges[n - 1][1], r[1]);
      else this.ranges[n++] = r;
    }
    this.ranges.length = n;
  }

  has(id: unknown): boolean {
    if (this.ids.has(id)) return true;
    if (typeof id !== "number") return false;
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [from, to] = this.ranges[mid];
      if (id < from) hi = mid - 1;
      else if (id > to) lo = mid + 1;
      else return true;
    }
    return false;
  }
}

function forgottenIds(events: readonly Event[]): { forgotten: Forgotten; summary?: { text: string; offset: number } } {
  const forgotten = new Forgotten();
  let summary: { text: string; offset: number } | undefined;
  for (const e of events) {
    if (e.action !== "condensation") continue;
    const args = obj(e.args);
    for (const id of arr(args.forgotten_event_ids)) forgotten.addId(id);
    const from = args.forgotten_events_start_id;
    const to = args.forgotten_events_end_id;
    if (typeof from === "number" && typeof to === "number") forgotten.addRange(from, to);
    if (typeof args.summary === "string" && args.summary !== "") summary = { text: args.summary, offset: typeof args.summary_offset === "number" ? args.summary_offset : 0 };
  }
  forgotten.seal();
  return { forgotten, summary };
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
  const { forgotten, summary } = forgottenIds(list);
  const byId = new Map<unknown, Event>();
  for (const e of list) if (e.id !== undefined) byId.set(e.id, e);
  const seen = new Set<unknown>();
  const messages: Message[] = [];
  for (const e of list) {
    const kind = str(e.action) || str(e.observation);
    if (SKIPPED.has(kind) || (e.id !== undefined && forgotten.has(e.id))) continue;
    const m = typeof e.action === "string" ? actionMessage(e, seen) : typeof e.observation === "string" ? observationMessage(e, byId) : null;
    if (m !== null) messages.push(m);
  }
  if (summary !== undefined) messages.splice(Math.min(summary.offset, messages.length), 0, { role: "user", content: summary.text });
  if (messages.length === 0) fail(file, where, "no messages in the OpenHands events");
  const model = openHandsModel(list);
  return { format: "openhands", dialect: "openai-chat", messages, note, ...(model !== undefined ? { model } : {}) };
}

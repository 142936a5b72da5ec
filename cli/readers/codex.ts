/**
 * Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one `{timestamp, type,
 * payload}` a line. The model-facing history is the `response_item` payloads (OpenAI Responses
 * items), replayed as Codex replays them when it resumes: a `compacted` line replaces the history
 * with its `replacement_history`, or, without one, with the initial context, the user messages so
 * far and the summary as a user message; a `thread_rolled_back` event drops the last user turns.
 */
import { arr, isObj, obj, str } from "../../core/index.js";
import { fail, timeOf, type Session } from "./common.js";

type Item = Record<string, unknown>;
type Line = Record<string, unknown>;

export function looksLikeCodex(lines: readonly Line[]): boolean {
  return lines.some((l) => (l.type === "response_item" || l.type === "session_meta" || l.type === "compacted") && isObj(l.payload));
}

function itemText(item: Item): string {
  return arr(item.content).map((c) => str(obj(c).text)).join("\n");
}

// Context Codex injects as user messages; they do not start a user turn.
const CONTEXT_TAGS = ["<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<user_shell_command>"];

function isUserTurn(item: Item): boolean {
  if (item.type !== "message" || item.role !== "user") return false;
  const text = itemText(item).trimStart();
  return !CONTEXT_TAGS.some((t) => text.startsWith(t));
}

/**
 * The history being replayed, with where each user turn starts, kept as items arrive: a rollback
 * truncates at a known index instead of walking the history (n items and n rollbacks cost n, not n²).
 */
class History {
  items: Item[] = [];
  /** Indices of the items that start a user turn, ascending. */
  private starts: number[] = [];

  push(item: Item): void {
    if (isUserTurn(item)) this.starts.push(this.items.length);
    this.items.push(item);
  }

  replace(items: Item[]): void {
    this.items = [];
    this.starts = [];
    for (const item of items) this.push(item);
  }

  /** The items before the first user turn, and the user turns. */
  userTurns(): { initial: Item[]; users: Item[] } {
    const first = this.starts.length === 0 ? this.items.length : this.starts[0];
    return { initial: this.items.slice(0, first), users: this.starts.map((i) => this.items[i]) };
  }

  /** Drops the last `turns` user turns and everything after them. */
  rollBack(count: number): void {
    const turns = Math.floor(count);
    if (!(turns > 0) || this.starts.length === 0) return;
    const keep = turns >= this.starts.length ? 0 : this.starts.length - turns;
    this.items.length = this.starts[keep];
    this.starts.length = keep;
  }
}

function afterCompaction(history: History, payload: Item): Item[] {
  if (Array.isArray(payload.replacement_history)) return payload.replacement_history.filter(isObj);
  const { initial, users } = history.userTurns();
  const summary: Item = { type: "message", role: "user", content: [{ type: "input_text", text: str(payload.message) }] };
  return [...initial, ...users, summary];
}

export function readCodex(lines: Line[], file: string): Session {
  const history = new History();
  let compactions = 0;
  const times = new WeakMap<object, number>();
  let model: string | undefined;
  lines.forEach((l, i) => {
    const payload = l.payload;
    if (l.type === "turn_context" && typeof obj(payload).model === "string") model = obj(payload).model as string;
    if (l.type === "response_item") {
      if (!isObj(payload)) fail(file, `line ${i + 1}`, 'a "response_item" line needs a "payload" object');
      const at = timeOf(l.timestamp);
      if (at !== undefined) times.set(payload, at);
      history.push(payload);
    } else if (l.type === "compacted") {
      if (!isObj(payload)) fail(file, `line ${i + 1}`, 'a "compacted" line needs a "payload" object');
      history.replace(afterCompaction(history, payload));
      compactions++;
    } else if (l.type === "event_msg" && obj(payload).type === "thread_rolled_back") {
      history.rollBack(Number(obj(payload).num_turns) || 0);
    }
  });
  if (history.items.length === 0) fail(file, "", "no response_item lines found in the rollout");
  return { format: "codex", dialect: "openai-responses", messages: history.items, note: compactions > 0 ? `history after ${compactions} compaction(s) in the rollout` : undefined, times, ...(model !== undefined ? { model } : {}) };
}

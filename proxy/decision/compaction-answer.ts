/**
 * The summary the proxy answers a client's own compaction request with (`--answer-compaction`):
 * the cliff's summary of the history the request carries, the instruction left out, nothing kept
 * verbatim after it (the client replaces its whole history with the answer). No model is asked.
 * Claude Code reads the answer's `<summary>` block and starts again from it alone, so the task as
 * the user gave it (the head) opens it; Codex keeps its user messages itself, so its answer is the
 * summary alone. Of the requests that ask the provider to compact, only a `compaction_trigger`
 * bound for an upstream the user said cannot run remote compaction (`--no-remote-compaction`;
 * never OpenAI's or ChatGPT's own hosts) is answered (Codex's remote compaction v2). An upstream is
 * taken as able unless the user says otherwise: a gateway in front of OpenAI runs it, and a host
 * name cannot tell one from a model server of another kind. Such a trigger is answered with a
 * `compaction` item of ours, whose `encrypted_content` carries the summary; when Codex sends it back, `openOwnCompactions` turns it into the summary message the
 * upstream can read. Anthropic's `compaction` field needs the provider's own signed block.
 */
import { arr, compact, obj, summaryMessageText, truncate, type CompactionRequest, type Config, type PrepareContext } from "../../core/index.js";

/** How our own `compaction` item's `encrypted_content` starts (the summary follows, base64url). */
export const OWN_COMPACTION = "cliffcompaction-summary:";

/** How much of the head's text opens Claude Code's answer. */
const HEAD_MAX_CHARS = 8000;
const REMINDER_OPEN = "<system-reminder>";
const REMINDER_CLOSE = "</system-reminder>";

/**
 * `text` without its `<system-reminder>…</system-reminder>` blocks, each to the nearest closing. An
 * opening with no closing after it ends the search: none after it has one either (a lazy pattern
 * searched to the end from each such opening, quadratic in a head of many unclosed ones).
 */
function withoutReminders(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf(REMINDER_OPEN, from);
    const close = open < 0 ? -1 : text.indexOf(REMINDER_CLOSE, open + REMINDER_OPEN.length);
    if (close < 0) return from === 0 ? text : out + text.slice(from);
    out += text.slice(from, open);
    from = close + REMINDER_CLOSE.length;
  }
}

/** The history the request asks to have summarised: its messages without the instruction (and what follows it). */
export function historyOf(messages: readonly unknown[], request: CompactionRequest): unknown[] {
  const at = request.instruction;
  if (at === null) return messages.slice();
  const out = messages.slice(0, at.message);
  if (at.block === null) return out;
  const m = obj(messages[at.message]);
  const content = arr(m.content).filter((_, k) => k !== at.block);
  if (content.length > 0) out.push({ ...m, content });
  return out;
}

/** The text of the head's user messages, Claude Code's reminders left out. */
function headText(head: readonly unknown[]): string {
  const texts = head
    .filter((m) => obj(m).role === "user")
    .map((m) => withoutReminders(summaryMessageText(m)).trim())
    .filter((t) => t !== "");
  return truncate(texts.join("\n\n"), HEAD_MAX_CHARS);
}

/**
 * The answer's text for a compaction request, or null when the proxy leaves it to the upstream
 * (nothing to summarise, or not one it answers). `openaiUpstream` false: the route's upstream
 * cannot run remote compaction (the user said so), so a `compaction_trigger` is answered too.
 */
export function compactionAnswerText(prepared: PrepareContext, config: Config, openaiUpstream = true): string | null {
  const request = prepared.compactionRequest;
  if (request === null || (request.asks !== "client" && !(request.by === "compaction-trigger" && !openaiUpstream))) return null;
  const history = historyOf(prepared.messages, request);
  // The client replaces its history with the answer: no request of its will hold a ref's text again.
  const r = compact(history, prepared.dialect, { ...config, keepRecent: 0, refs: false });
  if (r === null) return null;
  if (request.by !== "claude-code") return r.summaryText;
  const task = headText(r.messages.slice(0, r.headLen));
  return `<summary>\n${task === "" ? "" : `The task, as the user gave it:\n${task}\n\n`}${r.summaryText}\n</summary>`;
}

/** Whether `url` is OpenAI's own API or ChatGPT's backend (the hosts that run remote compaction). */
export function isOpenAIHost(url: URL): boolean {
  const h = url.hostname.toLowerCase();
  return h === "openai.com" || h.endsWith(".openai.com") || h === "chatgpt.com" || h.endsWith(".chatgpt.com");
}

/** Our own `compaction` item carrying `summary`, as the answer to a `compaction_trigger`. */
export function ownCompactionItem(summary: string, id: string): Record<string, unknown> {
  return { type: "compaction", id, encrypted_content: OWN_COMPACTION + Buffer.from(summary, "utf8").toString("base64url") };
}

/**
 * A Responses body with each `compaction` item of ours turned into the user message holding its
 * summary, for an upstream that cannot read such items; null when it holds none (or is not JSON).
 */
export function openOwnCompactions(raw: Buffer): Buffer | null {
  if (raw.indexOf(OWN_COMPACTION) < 0) return null;
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch {
    return null;
  }
  const input = obj(body).input;
  if (!Array.isArray(input)) return null;
  let opened = false;
  const out = input.map((item) => {
    const it = obj(item);
    const enc = it.encrypted_content;
    if (it.type !== "compaction" || typeof enc !== "string" || !enc.startsWith(OWN_COMPACTION)) return item;
    opened = true;
    const text = Buffer.from(enc.slice(OWN_COMPACTION.length), "base64url").toString("utf8");
    return { type: "message", role: "user", content: [{ type: "input_text", text }] };
  });
  return opened ? Buffer.from(JSON.stringify({ ...obj(body), input: out }), "utf8") : null;
}

/**
 * The summary the proxy answers a client's own compaction request with (`--answer-compaction`):
 * the cliff's summary of the history the request carries, the instruction left out, nothing kept
 * verbatim after it (the client replaces its whole history with the answer). No model is asked.
 * Claude Code reads the answer's `<summary>` block and starts again from it alone, so the task as
 * the user gave it (the head) opens it; Codex keeps its user messages itself, so its answer is the
 * summary alone. Only the client summary requests are answered: one that asks the provider to
 * compact (its `compaction` field, a `compaction_trigger`) needs the provider's own signed result.
 */
import { arr, compact, obj, summaryMessageText, truncate, type CompactionRequest, type Config, type PrepareContext } from "../../core/index.js";

/** How much of the head's text opens Claude Code's answer. */
const HEAD_MAX_CHARS = 8000;
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

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
    .map((m) => summaryMessageText(m).replace(REMINDER, "").trim())
    .filter((t) => t !== "");
  return truncate(texts.join("\n\n"), HEAD_MAX_CHARS);
}

/** The answer's text for a client summary request, or null when the proxy leaves it to the model (nothing to summarise, or not one it answers). */
export function compactionAnswerText(prepared: PrepareContext, config: Config): string | null {
  const request = prepared.compactionRequest;
  if (request === null || request.asks !== "client") return null;
  const history = historyOf(prepared.messages, request);
  const r = compact(history, prepared.dialect, { ...config, keepRecent: 0 });
  if (r === null) return null;
  if (request.by !== "claude-code") return r.summaryText;
  const task = headText(r.messages.slice(0, r.headLen));
  return `<summary>\n${task === "" ? "" : `The task, as the user gave it:\n${task}\n\n`}${r.summaryText}\n</summary>`;
}

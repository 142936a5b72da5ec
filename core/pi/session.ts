/**
 * The live session of a Pi branch: what CliffCompaction compacts, for the Pi extension and the
 * CLI's Pi reader alike. The original head (everything before the first assistant message) is
 * always included; after a previous compaction, only the entries from its kept boundary on;
 * compaction entries themselves contribute nothing, so an earlier summary is never read again.
 * Messages are passed by reference: nothing here changes them.
 */
import { isObj } from "../guards.js";
import { piBranchSummaryText } from "./format.js";

export interface LiveMessage {
  entryId: string;
  message: Record<string, unknown>;
}

type Entry = Record<string, unknown>;

/** Entry → message as the model would see it (custom messages and branch summaries become user text), or null. */
function messageOf(e: Entry): Record<string, unknown> | null {
  if (e.type === "message" && isObj(e.message)) {
    if (e.message.role === "system") return null; // Pi's prompt checkpoint, kept by Pi itself
    return e.message;
  }
  if (e.type === "custom_message") return { role: "user", content: e.content ?? "" };
  if (e.type === "branch_summary" && typeof e.summary === "string" && e.summary !== "") {
    return { role: "user", content: piBranchSummaryText(e.summary) };
  }
  return null;
}

export function liveFromEntries(branchEntries: readonly unknown[]): LiveMessage[] {
  const entries = branchEntries.filter(isObj) as Entry[];
  // context_edit entries omit (replacement null) or rewrite a message's content, as Pi does for the model.
  const edits = new Map<unknown, Entry>();
  for (const e of entries) if (e.type === "context_edit") edits.set(e.targetId, e);
  let start = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i].type !== "compaction") continue;
    const kept = entries.findIndex((e) => e.id === entries[i].firstKeptEntryId);
    start = kept >= 0 && kept < i ? kept : i + 1;
    break;
  }
  const mapped: { index: number; live: LiveMessage }[] = [];
  entries.forEach((e, index) => {
    let message = messageOf(e);
    if (message === null) return;
    const edit = edits.get(e.id);
    if (edit !== undefined) {
      if (edit.replacement === null) return;
      if (isObj(edit.replacement) && "content" in edit.replacement) message = { ...message, content: edit.replacement.content };
    }
    mapped.push({ index, live: { entryId: String(e.id), message } });
  });
  const first = mapped.find((m) => m.live.message.role === "assistant");
  const headEnd = first === undefined ? Infinity : first.index;
  return mapped.filter((m) => m.index < headEnd || m.index >= start).map((m) => m.live);
}


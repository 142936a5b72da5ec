/** Pi session files: a header line, then entries on a tree of branches. */
import { isObj, liveFromEntries } from "../../core/index.js";
import { fail, timeOf, type Session } from "./common.js";

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
export function readPi(lines: Record<string, unknown>[], file: string): Session {
  const entries = activeBranch(lines.slice(1));
  for (const e of entries) {
    if (e.type === "message" && (!isObj(e.message) || typeof e.message.role !== "string")) {
      fail(file, `entry ${String(e.id ?? entries.indexOf(e) + 2)}`, 'a "message" entry needs a message with a role');
    }
  }
  const times = new WeakMap<object, number>();
  let model: string | undefined;
  for (const e of entries) {
    if (e.type === "model_change" && typeof e.model === "string") model = e.model;
    if (e.type !== "message" || !isObj(e.message)) continue;
    if (typeof e.message.model === "string") model = e.message.model;
    const at = timeOf(e.timestamp) ?? timeOf(e.message.timestamp);
    if (at !== undefined) times.set(e.message, at);
  }
  return { format: "pi", dialect: "pi", messages: liveFromEntries(entries).map((l) => l.message), times, ...(model !== undefined ? { model } : {}) };
}

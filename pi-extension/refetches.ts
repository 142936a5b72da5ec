/**
 * `/cliff status`'s re-fetches: on the branch as Pi keeps it (every message, compacted or not, and
 * each compaction entry with its summary and first kept entry), the calls made after each compaction
 * that repeat a call whose result it dropped (core/refetch.ts), up to the next compaction. Ours and
 * Pi's own compactions alike.
 */
import { getDialect, isObj, refetchesIn } from "../core/index.js";

export interface BranchRefetches {
  cliffs: number;
  count: number;
  tokens: number;
  /** Re-fetches after each compaction, oldest first. */
  perCliff: number[];
}

type Entry = Record<string, unknown>;

export function branchRefetches(branch: readonly unknown[]): BranchRefetches {
  const entries = branch.filter(isObj) as Entry[];
  const messages: unknown[] = [];
  /** For each entry, how many messages stand before it. */
  const before: number[] = [];
  for (const e of entries) {
    before.push(messages.length);
    if (e.type === "message" && isObj(e.message) && e.message.role !== "system") messages.push(e.message);
  }
  const d = getDialect("pi");
  const headLen = Math.max(0, messages.findIndex((m) => d.isAssistant(m)));
  const cliffs = entries.flatMap((e, i) => (e.type === "compaction" && typeof e.summary === "string" ? [i] : []));
  const out: BranchRefetches = { cliffs: cliffs.length, count: 0, tokens: 0, perCliff: [] };
  cliffs.forEach((i, k) => {
    const e = entries[i];
    const kept = entries.findIndex((x) => x.id === e.firstKeptEntryId);
    const cut = kept >= 0 && kept < i ? before[kept] : before[i];
    const from = before[i];
    const to = k + 1 < cliffs.length ? before[cliffs[k + 1]] : messages.length;
    const found = cut > headLen ? refetchesIn(messages, d, { headLen, cut, summaryText: e.summary as string }, from, to) : [];
    out.perCliff.push(found.length);
    out.count += found.length;
    for (const f of found) out.tokens += f.tokens;
  });
  return out;
}

/** The status line ("" when the branch has no compaction). */
export function refetchLine(r: BranchRefetches): string {
  if (r.cliffs === 0) return "";
  return `re-fetches: ${r.count} after ${r.cliffs} compaction(s), ${r.tokens} tokens brought back (per compaction: ${r.perCliff.join(", ")}): calls that repeat one whose result a compaction dropped`;
}

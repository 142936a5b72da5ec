/**
 * Core benchmarks: compact + estimateTokens against one JSON.stringify of the same messages, on a
 * plain-English history, a mixed one (quotes, backslashes, tabs, non-ASCII, emoji), the corpus
 * sessions and every dialect at 1 MB and 100 KB; near-linear growth to 50 MB; and the reference
 * port's micro scenario. Times are the fastest of several runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { compact, estimateTokens, pythonJsonLength, billableChars, canonicalJson, detectDialect } from "../core/index.js";
import { aBody, aSession } from "../test/helpers/sessions.js";
import { anthropicSession, asciiSession, inDialect } from "./sessions.js";
import { fmt, gc, heapMB, time } from "./util.js";

function row(label: string, messages: unknown[], dialect: string, target: number): void {
  const bytes = JSON.stringify(messages).length;
  const repeats = Math.max(7, Math.min(60, Math.round(4e7 / bytes)));
  const stringify = time(() => JSON.stringify(messages), repeats, 2, 300);
  // The compacted list is read, as a host reads it: a result renders its summary when first read.
  const run = (): void => {
    void compact(messages, dialect, { keepRecent: 3 })?.messages;
    estimateTokens({ messages });
  };
  const ms = time(run, repeats, 2, 300);
  gc();
  const base = heapMB();
  const kept = compact(messages, dialect, { keepRecent: 3 });
  const mid = heapMB() - base;
  estimateTokens({ messages });
  const peak = Math.max(mid, heapMB() - base);
  void kept;
  const mb = bytes / 1e6;
  const ratio = ms / stringify;
  console.log(
    `  ${label.padEnd(36)} ${mb.toFixed(2).padStart(6)} MB  compact+estimate ${fmt(ms).padStart(10)}  JSON.stringify ${fmt(stringify).padStart(10)}  ` +
      `ratio ${ratio.toFixed(2)} (target ≤ ${target}) ${ratio <= target ? "✔" : "✘"}  extra heap ${peak.toFixed(1)} MB (${(peak / mb).toFixed(2)}× input)`,
  );
}

/** The corpus sessions that are present, each read when its row runs. */
function corpus(): [string, () => [unknown[], string]][] {
  const dir = new URL("../../shared/corpus/", import.meta.url);
  const out: [string, () => [unknown[], string]][] = [];
  const pi = new URL("pi-large-session.jsonl", dir);
  if (existsSync(pi)) {
    out.push(["corpus pi-large-session.jsonl", () => [readFileSync(pi, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === "message").map((e) => e.message), "pi"]]);
  }
  const traj = new URL("minisweagent-marshmallow-1343.traj.json", dir);
  if (existsSync(traj)) {
    out.push(["corpus minisweagent trajectory", () => {
      const msgs = (JSON.parse(readFileSync(traj, "utf8")).messages as Record<string, unknown>[]).map(({ extra: _extra, ...m }) => m);
      return [msgs, detectDialect(msgs)];
    }]);
  }
  return out;
}

/** One row of the core table: a history made in the row's own process, its dialect and target ratio. */
interface CoreRow {
  label: string;
  make: () => [unknown[], string];
  target: number;
}

function coreRows(): CoreRow[] {
  const rows: CoreRow[] = [
    { label: "plain English, anthropic 10 MB", make: () => [asciiSession(1e7), "anthropic"], target: 0.5 },
    { label: "mixed text, anthropic 10 MB", make: () => [anthropicSession(1e7), "anthropic"], target: 0.7 },
  ];
  for (const [label, make] of corpus()) rows.push({ label, make, target: 0.8 });
  for (const dialect of ["anthropic", "openai-chat", "openai-responses", "pi", "plain"]) {
    rows.push({ label: `plain English, ${dialect} 1 MB`, make: () => [inDialect(asciiSession(1e6, 5), dialect), dialect], target: 0.8 });
    rows.push({ label: `plain English, ${dialect} 100 KB`, make: () => [inDialect(asciiSession(1e5, 6), dialect), dialect], target: 1.0 });
  }
  for (const mb of [1, 10, 50]) rows.push({ label: `growth: mixed anthropic ${mb} MB`, make: () => [anthropicSession(mb * 1e6), "anthropic"], target: 1.0 });
  return rows;
}

/** How many processes `benchCore` needs: the micro scenario, then one per row. */
export function coreParts(): number {
  return 1 + coreRows().length;
}

/**
 * Part 0 is the reference micro scenario; part k is row k − 1. Each part runs in a process of its
 * own (bench/run.ts), so no row runs on code the engine tuned for another dialect or history.
 */
export function benchCore(part: number): void {
  if (part > 0) {
    const r = coreRows()[part - 1];
    const [messages, dialect] = r.make();
    row(r.label, messages, dialect, r.target);
    return;
  }
  const body = aBody(aSession(80));
  const msgs = body.messages as unknown[];
  const r = compact(msgs, "anthropic", { keepRecent: 1, thresholdTokens: 2000 })!;
  console.log(`reference micro scenario (80 turns, ${msgs.length} messages, body length ${pythonJsonLength(body)}, keepRecent 1): outMsgs ${r.messages.length}, cut ${r.cut}, tokens ${estimateTokens(body)}`);
  const reps = 600;
  console.log(
    `  compact ${fmt(time(() => compact(msgs, "anthropic", { keepRecent: 1 })?.messages, reps, 100))} (port ≈0.16 ms, target ≤ 0.08)  ` +
      `estimateTokens ${fmt(time(() => estimateTokens(body), reps, 100))} (port ≈0.2 ms, target ≤ 0.1)  ` +
      `billableChars ${fmt(time(() => billableChars(body), reps, 100))}  dumpsLen ${fmt(time(() => pythonJsonLength(body), reps, 100))}  ` +
      `canonicalOne ${fmt(time(() => canonicalJson(msgs[1]), reps, 100))}`,
  );
  console.log("core: compact + estimateTokens, ratio = time / one JSON.stringify of the same messages (each row in its own process)");
}

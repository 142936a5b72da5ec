/** Core benchmarks: compact + estimateTokens against one JSON.stringify, and the reference port's micro scenario. */
import { existsSync, readFileSync } from "node:fs";
import { compact, estimateTokens, pythonJsonLength, billableChars, canonicalJson, detectDialect } from "../core/index.js";
import { aBody, aSession } from "../test/helpers/sessions.js";
import { anthropicSession } from "./sessions.js";
import { fmt, gc, heapMB, time } from "./util.js";

function row(label: string, messages: unknown[], dialect: string): void {
  const bytes = JSON.stringify(messages).length;
  const repeats = Math.max(5, Math.min(40, Math.round(2e7 / bytes)));
  const stringify = time(() => JSON.stringify(messages), repeats);
  const run = (): void => {
    compact(messages, dialect, { keepRecent: 3 });
    estimateTokens({ messages });
  };
  const ms = time(run, repeats, 2);
  // Memory: one more run after a collection; what it leaves on the heap is what it allocated.
  gc();
  const base = heapMB();
  const kept = compact(messages, dialect, { keepRecent: 3 });
  const mid = heapMB() - base;
  estimateTokens({ messages });
  const peak = Math.max(mid, heapMB() - base);
  void kept;
  const mb = bytes / 1e6;
  console.log(
    `  ${label.padEnd(34)} ${mb.toFixed(1).padStart(6)} MB  compact+estimate ${fmt(ms).padStart(10)}  ${(mb / (ms / 1000)).toFixed(0).padStart(5)} MB/s  ` +
      `JSON.stringify ${fmt(stringify).padStart(10)}  ratio ${(ms / stringify).toFixed(2)}  extra heap ${peak.toFixed(0)} MB (${(peak / mb).toFixed(2)}× input)`,
  );
}

export function benchCore(): void {
  const body = aBody(aSession(80));
  const msgs = body.messages as unknown[];
  const r = compact(msgs, "anthropic", { keepRecent: 1, thresholdTokens: 2000 })!;
  console.log(`reference micro scenario (80 turns, ${msgs.length} messages, body length ${pythonJsonLength(body)}, keepRecent 1): outMsgs ${r.messages.length}, cut ${r.cut}, tokens ${estimateTokens(body)}`);
  const reps = 400;
  console.log(
    `  compact ${fmt(time(() => compact(msgs, "anthropic", { keepRecent: 1 }), reps, 50))} (port ≈0.16 ms)  ` +
      `estimateTokens ${fmt(time(() => estimateTokens(body), reps, 50))} (port ≈0.2 ms)  ` +
      `billableChars ${fmt(time(() => billableChars(body), reps, 50))}  dumpsLen ${fmt(time(() => pythonJsonLength(body), reps, 50))}  ` +
      `canonicalOne ${fmt(time(() => canonicalJson(msgs[1]), reps, 50))}`,
  );
  console.log("core: compact + estimateTokens (ratio = time / one JSON.stringify of the same messages; target ≤ 1 at 10 MB)");
  for (const mb of [1, 10, 50]) row(`generated anthropic ${mb} MB`, anthropicSession(mb * 1e6), "anthropic");
  const corpus = new URL("../../shared/corpus/", import.meta.url);
  const pi = new URL("pi-large-session.jsonl", corpus);
  if (existsSync(pi)) {
    const msgs = readFileSync(pi, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === "message").map((e) => e.message);
    row("corpus pi-large-session.jsonl", msgs, "pi");
  }
  const traj = new URL("minisweagent-marshmallow-1343.traj.json", corpus);
  if (existsSync(traj)) {
    const msgs = (JSON.parse(readFileSync(traj, "utf8")).messages as Record<string, unknown>[]).map(({ extra: _extra, ...m }) => m);
    row(`corpus minisweagent traj (${detectDialect(msgs)})`, msgs, detectDialect(msgs));
  }

}

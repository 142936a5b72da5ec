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
  const stringify = time(() => JSON.stringify(messages), repeats, 2);
  // The compacted list is read, as a host reads it: a result renders its summary when first read.
  const run = (): void => {
    void compact(messages, dialect, { keepRecent: 3 })?.messages;
    estimateTokens({ messages });
  };
  const ms = time(run, repeats, 2);
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

function corpus(): [string, unknown[], string][] {
  const dir = new URL("../../shared/corpus/", import.meta.url);
  const out: [string, unknown[], string][] = [];
  const pi = new URL("pi-large-session.jsonl", dir);
  if (existsSync(pi)) {
    const msgs = readFileSync(pi, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.type === "message").map((e) => e.message);
    out.push(["corpus pi-large-session.jsonl", msgs, "pi"]);
  }
  const traj = new URL("minisweagent-marshmallow-1343.traj.json", dir);
  if (existsSync(traj)) {
    const msgs = (JSON.parse(readFileSync(traj, "utf8")).messages as Record<string, unknown>[]).map(({ extra: _extra, ...m }) => m);
    out.push([`corpus minisweagent traj (${detectDialect(msgs)})`, msgs, detectDialect(msgs)]);
  }
  return out;
}

export function benchCore(): void {
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
  console.log("core: compact + estimateTokens, ratio = time / one JSON.stringify of the same messages");
  row("plain English, anthropic 10 MB", asciiSession(1e7), "anthropic", 0.5);
  row("mixed text, anthropic 10 MB", anthropicSession(1e7), "anthropic", 0.7);
  for (const [label, m, d] of corpus()) row(label, m, d, 0.8);
  for (const dialect of ["anthropic", "openai-chat", "openai-responses", "pi", "plain"]) {
    row(`plain English, ${dialect} 1 MB`, inDialect(asciiSession(1e6, 5), dialect), dialect, 0.8);
    row(`plain English, ${dialect} 100 KB`, inDialect(asciiSession(1e5, 6), dialect), dialect, 1.0);
  }
  for (const mb of [1, 10, 50]) row(`growth: mixed anthropic ${mb} MB`, anthropicSession(mb * 1e6), "anthropic", 1.0);
}

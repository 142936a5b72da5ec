/**
 * Core benchmarks: compact + estimateTokens against one JSON.stringify of the same messages, under
 * the default (recall) profile and beside it the reference profile, on a plain-English history, a
 * mixed one (quotes, backslashes, tabs, non-ASCII, emoji), every corpus session file of 1 MB or
 * more and every dialect at 1 MB and 100 KB; near-linear growth to 50 MB; and the reference
 * port's micro scenario. Times are the fastest of several runs.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { compact, estimateTokens, pythonJsonLength, billableChars, canonicalJson, resolveConfig, type Config } from "../core/index.js";
import { readSession } from "../cli/readers/index.js";
import { corpusDir, corpusFiles } from "./retention-corpus.js";
import { aBody, aSession } from "../test/helpers/sessions.js";
import { anthropicSession, asciiSession, inDialect } from "./sessions.js";
import { fmt, gc, heapMB, time } from "./util.js";

/** One profile's compact + estimate on `messages`, in ms (fastest of `repeats` after a warm-up). */
function timed(messages: unknown[], dialect: string, cfg: Config, repeats: number): number {
  // The compacted list is read, as a host reads it: a result renders its summary when first read.
  return time(() => {
    void compact(messages, dialect, cfg)?.messages;
    estimateTokens({ messages });
  }, repeats, 2, 300);
}

const DEFAULT_CFG = resolveConfig({ keepRecent: 3 });
const REFERENCE_CFG = resolveConfig({ profile: "reference", keepRecent: 3 });

function row(label: string, messages: unknown[], dialect: string, target: Targets): void {
  const bytes = JSON.stringify(messages).length;
  const repeats = Math.max(7, Math.min(60, Math.round(4e7 / bytes)));
  const stringify = time(() => JSON.stringify(messages), repeats, 2, 300);
  const ms = timed(messages, dialect, DEFAULT_CFG, repeats);
  const ref = timed(messages, dialect, REFERENCE_CFG, repeats);
  gc();
  const base = heapMB();
  const kept = compact(messages, dialect, DEFAULT_CFG);
  const mid = heapMB() - base;
  estimateTokens({ messages });
  const peak = Math.max(mid, heapMB() - base);
  void kept;
  const mb = bytes / 1e6;
  const ratio = ms / stringify;
  const refRatio = ref / stringify;
  const mark = (r: number, t: number): string => `${r.toFixed(2)} (≤ ${t}) ${r <= t ? "✔" : "✘"}`;
  console.log(
    `  ${label.padEnd(44)} ${mb.toFixed(2).padStart(6)} MB  JSON.stringify ${fmt(stringify).padStart(9)}  default ${fmt(ms).padStart(9)} ratio ${mark(ratio, target.recall)}  ` +
      `reference ${fmt(ref).padStart(9)} ratio ${mark(refRatio, target.reference)}  extra heap ${peak.toFixed(1)} MB (${(peak / mb).toFixed(2)}× input)`,
  );
}

/** Every corpus session file of 1 MB or more, read as the CLI reads it, each when its row runs. */
function corpus(): [string, () => [unknown[], string]][] {
  const dir = corpusDir();
  const out: [string, () => [unknown[], string]][] = [];
  for (const name of corpusFiles(dir)) {
    if (statSync(join(dir, name)).size < 1e6) continue;
    out.push([`corpus ${name}`, () => {
      const s = readSession(readFileSync(join(dir, name), "utf8"), name);
      return [s.messages, s.dialect];
    }]);
  }
  return out;
}

/** A row's targets: compact + estimate over one JSON.stringify, under the default profile and the reference's. */
interface Targets {
  recall: number;
  reference: number;
}

/** One row of the core table: a history made in the row's own process, its dialect and target ratio. */
interface CoreRow {
  label: string;
  make: () => [unknown[], string];
  target: Targets;
}

function coreRows(): CoreRow[] {
  const rows: CoreRow[] = [
    { label: "plain English, anthropic 10 MB", make: () => [asciiSession(1e7), "anthropic"], target: { recall: 1.0, reference: 0.5 } },
    { label: "mixed text, anthropic 10 MB", make: () => [anthropicSession(1e7), "anthropic"], target: { recall: 1.5, reference: 0.7 } },
  ];
  for (const [label, make] of corpus()) rows.push({ label, make, target: { recall: 1.5, reference: 0.8 } });
  for (const dialect of ["anthropic", "openai-chat", "openai-responses", "pi", "plain"]) {
    rows.push({ label: `plain English, ${dialect} 1 MB`, make: () => [inDialect(asciiSession(1e6, 5), dialect), dialect], target: { recall: 1.5, reference: 0.8 } });
    rows.push({ label: `plain English, ${dialect} 100 KB`, make: () => [inDialect(asciiSession(1e5, 6), dialect), dialect], target: { recall: 1.5, reference: 1.0 } });
  }
  for (const mb of [1, 10, 50]) rows.push({ label: `growth: mixed anthropic ${mb} MB`, make: () => [anthropicSession(mb * 1e6), "anthropic"], target: { recall: 1.5, reference: 1.0 } });
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
  console.log("core: compact + estimateTokens under the default (recall) profile and the reference profile, ratio = time / one JSON.stringify of the same messages (each row in its own process; the corpus: every session file of 1 MB or more)");
}

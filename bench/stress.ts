/**
 * The platform's time limit against hostile histories (reliability items 8–10): the plugin in
 * node:vm and QuickJS, and the engine's memo against messages that share its cheap key.
 * `npm run bench` runs them at 10 MB; `npm run bench:stress` at the sizes the review used
 * (100–200 MB). Targets: 3 s per 100 MB in node:vm, 30 s in QuickJS, never past the 60 s guard.
 * `bench:stress` (or CLIFF_BENCH_BUILDS=1) also times the recall build (the default) against the reference build
 * on every row (bench/stress-builds.ts).
 */
import { performance } from "node:perf_hooks";
import { getQuickJS } from "quickjs-emscripten";
import { Engine } from "../core/index.js";
import { BUNDLE_PATH, bundleSource, REFERENCE_BUNDLE_PATH, vmSandbox } from "../test/helpers/sandboxes.js";
import { benchReaders } from "./stress-readers.js";
import { BUILDS_HEADING, compareBuilds } from "./stress-builds.js";
import { fmt, gc } from "./util.js";

// CLIFF_BENCH_PROFILE=reference times the reference profile's build instead of the default (recall) one.
const BUNDLE = process.env.CLIFF_BENCH_PROFILE === "reference" ? REFERENCE_BUNDLE_PATH : BUNDLE_PATH;

type Msg = { role: string; content: string };

function taskTooLarge(mb: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "T".repeat(mb * 1e6) }];
  for (let i = 0; i < 20_000; i++) msgs.push({ role: i % 2 ? "tool" : "assistant", content: `step ${i}` });
  return msgs;
}

function manySmallParts(mb: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "fix the parser" }];
  const calls = 5000;
  const perMessage = JSON.stringify(Array.from({ length: calls }, (_, k) => ({ type: "tool_use", id: `c${k}`, name: "read", input: { path: `src/f${k}.ts` } }))).length;
  for (let i = 0; i * perMessage < mb * 1e6; i++) {
    msgs.push({ role: "assistant", content: JSON.stringify(Array.from({ length: calls }, (_, k) => ({ type: "tool_use", id: `c${i}_${k}`, name: "read", input: { path: `src/f${k}.ts` } }))) });
    msgs.push({ role: "tool", content: `ok ${i}` });
  }
  return msgs;
}

function tinyMessages(count: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < count; i++) msgs.push({ role: i % 2 ? "tool" : "assistant", content: `s${i}` });
  return msgs;
}

function assistantText(mb: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  const chunk = "the assistant thinks out loud about the parser and the lexer and the tests. ".repeat(1300);
  for (let i = 0; i * chunk.length < mb * 1e6; i++) msgs.push({ role: "assistant", content: chunk }, { role: "tool", content: "ok" });
  return msgs;
}

/** Long tool results (dropped, so the focus reads them) and a focus of 10,000 terms, a few of which match. */
function focusHeavy(mb: number): { messages: Msg[]; focus: string } {
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  const lines: string[] = [];
  for (let k = 0; k < 1000; k++) lines.push(`line ${k}: the parser reads token t${k * 37} and the lexer moves on`);
  const result = lines.join("\n");
  for (let i = 0; i * result.length < mb * 1e6; i++) msgs.push({ role: "assistant", content: `[bash] {"command":"run ${i}"}` }, { role: "tool", content: result });
  const terms: string[] = [];
  for (let k = 0; k < 10_000; k++) terms.push(k % 1000 === 0 ? `t${k * 37}` : `zq${k}`);
  return { messages: msgs, focus: terms.join(" ") };
}

/** Dropped results of short lines (the focus searches them: never a string per line). */
function shortLines(mb: number): Msg[] {
  const line = "ok 1234 done\n";
  const result = line.repeat(Math.ceil((mb * 1e6) / 4 / line.length));
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < 4; i++) msgs.push({ role: "assistant", content: `[bash] {"command":"run src/parser_${i}.ts"}` }, { role: "tool", content: result });
  for (let i = 0; i < 6; i++) msgs.push({ role: "assistant", content: `look at src/parser_${i}.ts` }, { role: "tool", content: "ok" });
  return msgs;
}

/** Dropped results each followed by a model message naming 45 distinctive words none holds: the back-references search for all of them. */
function backRefTerms(mb: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  const body = Array.from({ length: 2000 }, (_, k) => `line ${k}: value ${k * 7} of the build log`).join("\n");
  for (let i = 0; i * body.length < mb * 1e6; i++) {
    msgs.push({ role: "assistant", content: `[bash] {"command":"make ${i}"}` }, { role: "tool", content: `${i}\n${body}` });
    msgs.push({ role: "assistant", content: `next I check ${Array.from({ length: 45 }, (_, k) => `zqIdent${i}_${k}`).join(" ")}` }, { role: "tool", content: "ok" });
  }
  return msgs;
}

/** Messages of 30,000 parallel calls each, every call its own arguments, then their results (the asked-twice keys of one message). */
export function parallelCalls(mb: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "look them all up" }];
  for (let i = 0, size = 0; size < mb * 1e6; i++) {
    const calls = Array.from({ length: 30_000 }, (_, k) => ({ type: "tool_use", id: `c${i}_${k}`, name: "lookup", input: { query: `item ${i} ${k}` } }));
    const results = calls.map((c, k) => ({ type: "tool_result", tool_use_id: c.id, content: `found ${k}` }));
    msgs.push({ role: "assistant", content: JSON.stringify(calls) }, { role: "user", content: JSON.stringify(results) });
    size += msgs[msgs.length - 1].content.length + msgs[msgs.length - 2].content.length;
  }
  msgs.push({ role: "assistant", content: "done" }, { role: "user", content: "next" });
  return msgs;
}

/** One message of results that share their opening, each a long result no rule keeps (the back-references' dropped results of one message). */
export function repeatedResults(mb: number): Msg[] {
  const n = Math.floor((mb * 1e6) / 1200);
  const opening = "error: the build failed in the same way again ".repeat(24).slice(0, 1130);
  const calls = Array.from({ length: n }, (_, k) => ({ type: "tool_use", id: `r${k}`, name: "bash", input: { command: `make target${k}` } }));
  const results = calls.map((c, k) => ({ type: "tool_result", tool_use_id: c.id, content: opening + String(k).padStart(12, "0") }));
  return [{ role: "user", content: "build" }, { role: "assistant", content: JSON.stringify(calls) }, { role: "user", content: JSON.stringify(results) }, { role: "assistant", content: "now target1 fails at error" }, { role: "user", content: "next" }];
}

/** Dropped results of dotted tokens: `v1.a.a.a…!`, version lists, minified code (the listings' patterns on each line). */
export function dottedTokens(mb: number): Msg[] {
  const shapes = [(k: number) => `v1${".a".repeat(60 + (k % 40))}!`, (k: number) => `1.2.${k} 1.3.${k} 2.0.${k} 2.1.${k}-rc.1 3.0.0.${k}`, (k: number) => `a.b(c.d,e.f[${k}]);g.h=i.j.k;l.m.n(o.p)`];
  const result = Array.from({ length: 500 }, (_, k) => shapes[k % 3](k)).join("\n");
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  for (let i = 0; i * result.length < mb * 1e6; i++) msgs.push({ role: "assistant", content: `[bash] {"command":"npm ls ${i}"}` }, { role: "tool", content: `${i}\n${result}` });
  msgs.push({ role: "assistant", content: "done" }, { role: "tool", content: "ok" });
  return msgs;
}

/** NUL-dense assistant text: `total` NULs over `messages` assistant messages. */
function nulText(total: number, messages: number): Msg[] {
  const msgs: Msg[] = [{ role: "user", content: "task" }];
  const per = "\u0000".repeat(Math.ceil(total / messages));
  for (let i = 0; i < messages; i++) msgs.push({ role: "assistant", content: per }, { role: "tool", content: `ok ${i}` });
  return msgs;
}

/** Targets: the share of 100 MB the node:vm time may take, and QuickJS's bound, in ms. */
interface Targets {
  vmMs?: number;
  quickjsMs: number;
}

async function plugin(label: string, context: Record<string, unknown>, targets: Targets = { quickjsMs: 30_000 }): Promise<void> {
  const json = JSON.stringify(context);
  const mb = json.length / 1e6;
  gc(); // each row starts from a collected heap, whatever the rows before it left
  // The platform's sandbox holds its own objects: the context is parsed inside each sandbox, untimed.
  const vm = vmSandbox("", BUNDLE);
  const inside = vm.parseInside!(json);
  let t0 = performance.now();
  const a = vm.summarizeObject!(inside);
  const vmMs = performance.now() - t0;
  const qjs = (await getQuickJS()).newContext();
  qjs.runtime.setMemoryLimit(-1);
  qjs.unwrapResult(qjs.evalCode(bundleSource(BUNDLE))).dispose();
  const arg = qjs.newString(json);
  qjs.setProp(qjs.global, "__arg", arg);
  arg.dispose();
  qjs.unwrapResult(qjs.evalCode("globalThis.__ctx = JSON.parse(__arg); globalThis.__arg = null;")).dispose();
  t0 = performance.now();
  const h = qjs.unwrapResult(qjs.evalCode("globalThis.compaction.summarize(globalThis.__ctx).length"));
  const qMs = performance.now() - t0;
  const qLen = qjs.getNumber(h);
  h.dispose();
  qjs.dispose();
  const perHundred = (ms: number) => (ms / Math.max(mb, 1)) * 100;
  const vmTarget = targets.vmMs === undefined ? `${fmt(perHundred(vmMs))}/100 MB, target ≤ 3 s) ${perHundred(vmMs) <= 3000 ? "✔" : "✘"}` : `target < ${targets.vmMs / 1000} s) ${vmMs < targets.vmMs ? "✔" : "✘"}`;
  const qTarget = `target ${targets.vmMs === undefined ? "≤" : "<"} ${targets.quickjsMs / 1000} s) ${qMs <= targets.quickjsMs ? "✔" : "✘"}`;
  console.log(`  ${`${label} (${mb.toFixed(1)} MB)`.padEnd(52)} node:vm ${fmt(vmMs).padStart(9)} (${vmTarget}   QuickJS ${fmt(qMs).padStart(9)} (${qTarget}   ${a === "" ? '""' : `${a.length} chars`}${qLen === a.length ? "" : " (QuickJS differs)"}`);
}

function memo(label: string, count: number): void {
  const same = (i: number) => ({ role: "user", content: "a" + String(i).padStart(6, "0").replace(/./g, (c) => String.fromCharCode(98 + Number(c))) + "z".repeat(40) + "a" });
  const body = { model: "m", messages: Array.from({ length: count }, (_, i) => same(i)) };
  const e = new Engine({ thresholdTokens: 1 << 30 });
  const t0 = performance.now();
  e.prepare(body, "anthropic");
  e.prepare(JSON.parse(JSON.stringify(body)), "anthropic");
  const ms = performance.now() - t0;
  console.log(`  ${label.padEnd(46)} two prepares ${fmt(ms)}; ${e.stats().memoComparisons} comparisons (≤ ${8 * 2 * count} by construction)`);
}

export async function benchStress(scale: "bench" | "stress"): Promise<void> {
  const big = scale === "stress";
  console.log(`stress (${big ? "the review's sizes" : "10 MB versions; npm run bench:stress for 100–200 MB"}; ${BUNDLE === BUNDLE_PATH ? "the default (recall) build" : "the reference build"}):`);
  const mb = (n: number) => (big ? n : Math.min(n, 10));
  const builds = big || process.env.CLIFF_BENCH_BUILDS === "1";
  const compared: string[] = [];
  const row = async (label: string, context: Record<string, unknown>, targets?: Targets): Promise<void> => {
    await plugin(label, context, targets);
    if (builds) compared.push(await compareBuilds(label, context));
  };
  await row(`task alone over budget, ${mb(100)} MB task`, { messages: taskTooLarge(mb(100)), threshold: 50_000 });
  await row("many small parts", { messages: manySmallParts(mb(108)), threshold: 20_000 });
  await row(`${big ? "1,000,000" : "300,000"} tiny messages`, { messages: tinyMessages(big ? 1_000_000 : 300_000), threshold: 2_000 });
  await row("assistant text", { messages: assistantText(mb(200)), threshold: 100_000 });
  await row("focus that matches nothing", { messages: assistantText(mb(100)), focus: "zebra quokka", threshold: 100_000 });
  await row("a focus of 10,000 terms", { ...focusHeavy(mb(127)), threshold: 100_000 });
  await row(`short lines, ${mb(40)} MB of dropped results and a focus`, { messages: shortLines(mb(40)), focus: "done parser", threshold: 100_000 });
  await row(`back-references naming 45 words after each result, ${mb(10)} MB`, { messages: backRefTerms(mb(10)), threshold: 100_000 });
  await row("30,000 parallel calls in each message", { messages: parallelCalls(mb(20)), threshold: 20_000 });
  await row("one message of results sharing their opening", { messages: repeatedResults(mb(14)), threshold: 20_000 });
  await row("dotted-token output (versions, minified code)", { messages: dottedTokens(mb(10)), threshold: 100_000 });
  // NUL-dense text (round three): timed from the call to summarize, the context already parsed in the sandbox.
  const nuls = big ? 36_000_000 : 4_000_000;
  const label = `${big ? "36" : "4"} M NULs of assistant text`;
  await row(`${label}, in 36 messages`, { messages: nulText(nuls, 36), threshold: 100_000 }, { vmMs: 2000, quickjsMs: 10_000 });
  await row(`${label}, in 6,000 messages`, { messages: nulText(nuls, 6000), threshold: 100_000 }, { vmMs: 2000, quickjsMs: 10_000 });
  if (builds) console.log([BUILDS_HEADING, ...compared].join("\n"));
  memo(`memo: ${big ? 40_000 : 10_000} messages sharing the cheap key`, big ? 40_000 : 10_000);
  benchReaders(big);
}

/**
 * Plugin benchmarks: bundle size, and summarize on a 4 MB history inside node:vm and QuickJS, for
 * the default build (recall) and the reference profile's (when built: `npm run build:reference`).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { quickjsSandbox, vmSandbox, BUNDLE_PATH, REFERENCE_BUNDLE_PATH } from "../test/helpers/sandboxes.js";
import { flatSession } from "./sessions.js";
import { fmt, time } from "./util.js";

export async function benchPlugin(): Promise<void> {
  await benchBundle("recall (default)", BUNDLE_PATH);
  if (existsSync(REFERENCE_BUNDLE_PATH)) await benchBundle("reference", REFERENCE_BUNDLE_PATH);
  else console.log("  (no reference build: npm run build:reference)");
}

async function benchBundle(profile: string, bundle: URL): Promise<void> {
  const script = readFileSync(bundle, "utf8");
  console.log(`plugin, ${profile} profile: bundle ${(statSync(bundle).size / 1024).toFixed(1)} KiB minified (target ≤ ${profile === "reference" ? 45 : 60} KiB), ${script.length} chars`);
  const history = flatSession(4e6);
  const chars = history.reduce((n, m) => n + m.content.length, 0);
  const vmBox = vmSandbox("", bundle);
  const vmMs = time(() => vmBox.summarizeObject!({ messages: history }), 9, 2);
  const summary = vmBox.summarize({ messages: history });
  console.log(`  summarize, ${history.length} messages / ${(chars / 1e6).toFixed(1)} MB in node:vm: ${fmt(vmMs)} (target ≤ 60 ms); summary ${summary.length} chars (${Math.ceil(summary.length / 4)} tokens vs budget ${Math.floor(0.45 * Math.ceil(chars / 4))})`);
  const qjs = await quickjsSandbox("", bundle);
  const t0 = performance.now();
  const q = qjs.summarize({ messages: history });
  const withTransfer = performance.now() - t0;
  // The call alone, with the context already parsed inside QuickJS (fastest of 3).
  qjs.evalJson("(globalThis.__ctx = JSON.parse(__arg), 0)");
  const inside = qjs.evalJson("(function(){ var best = 1e9; for (var i = 0; i < 3; i++) { var t = Date.now(); globalThis.compaction.summarize(globalThis.__ctx); best = Math.min(best, Date.now() - t); } return best; })()") as number;
  console.log(`  summarize in QuickJS: ${fmt(inside)} (target ≤ 300 ms); ${fmt(withTransfer)} with the context passed in as JSON and the summary read out; same output as node:vm: ${q === summary}`);
}

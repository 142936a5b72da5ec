/** Plugin benchmarks: bundle size, and summarize on a 4 MB history inside node:vm and QuickJS. */
import { readFileSync, statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { quickjsSandbox, vmSandbox, BUNDLE_PATH } from "../test/helpers/sandboxes.js";
import { flatSession } from "./sessions.js";
import { fmt, time } from "./util.js";

export async function benchPlugin(): Promise<void> {
  const script = readFileSync(BUNDLE_PATH, "utf8");
  console.log(`plugin: bundle ${(statSync(BUNDLE_PATH).size / 1024).toFixed(1)} KB minified (target ≤ 40 KB), ${script.length} chars`);
  const history = flatSession(4e6);
  const chars = history.reduce((n, m) => n + m.content.length, 0);
  const vmBox = vmSandbox();
  const vmMs = time(() => vmBox.summarizeObject!({ messages: history }), 9, 2);
  const summary = vmBox.summarize({ messages: history });
  console.log(`  summarize, ${history.length} messages / ${(chars / 1e6).toFixed(1)} MB in node:vm: ${fmt(vmMs)} (target ≤ 60 ms); summary ${summary.length} chars (${Math.ceil(summary.length / 4)} tokens vs budget ${Math.floor(0.45 * Math.ceil(chars / 4))})`);
  const qjs = await quickjsSandbox();
  const t0 = performance.now();
  const q = qjs.summarize({ messages: history });
  const withTransfer = performance.now() - t0;
  // The call alone, with the context already parsed inside QuickJS (fastest of 3).
  qjs.evalJson("(globalThis.__ctx = JSON.parse(__arg), 0)");
  const inside = qjs.evalJson("(function(){ var best = 1e9; for (var i = 0; i < 3; i++) { var t = Date.now(); globalThis.compaction.summarize(globalThis.__ctx); best = Math.min(best, Date.now() - t); } return best; })()") as number;
  console.log(`  summarize in QuickJS: ${fmt(inside)} (target ≤ 300 ms); ${fmt(withTransfer)} with the context passed in as JSON and the summary read out; same output as node:vm: ${q === summary}`);
}

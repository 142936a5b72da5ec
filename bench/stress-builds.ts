/**
 * The recall build (the default) against the reference build on the stress rows (issue 30's target): the recall
 * build's time within 1.5× the reference's on every row over 10 ms, in node:vm and QuickJS. Each
 * row runs both builds five times, alternated (the first build of a pair alternates too), in
 * sandboxes that parsed the context beforehand, untimed; the medians are compared.
 */
import { performance } from "node:perf_hooks";
import { getQuickJS, type QuickJSContext } from "quickjs-emscripten";
import { BUNDLE_PATH, bundleSource, REFERENCE_BUNDLE_PATH, vmSandbox } from "../test/helpers/sandboxes.js";
import { fmt, gc, median } from "./util.js";

/** Runs per build, alternated. */
const RUNS = 5;
/** The ratio the recall build may take, on rows where either build takes longer than FLOOR_MS. */
const MAX_RATIO = 1.5;
const FLOOR_MS = 10;

type Run = () => number;

/** Times `a` and `b` RUNS times each, alternated; the medians. */
function alternated(a: Run, b: Run): [number, number] {
  const ta: number[] = [];
  const tb: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    if (k % 2 === 0) {
      ta.push(a());
      tb.push(b());
    } else {
      tb.push(b());
      ta.push(a());
    }
  }
  return [median(ta), median(tb)];
}

function vmRun(json: string, bundle: URL): Run {
  const vm = vmSandbox("", bundle);
  const inside = vm.parseInside!(json);
  return () => {
    const t0 = performance.now();
    vm.summarizeObject!(inside);
    return performance.now() - t0;
  };
}

function quickjsRun(json: string, bundle: URL, contexts: QuickJSContext[], quickjs: Awaited<ReturnType<typeof getQuickJS>>): Run {
  const ctx = quickjs.newContext();
  contexts.push(ctx);
  ctx.runtime.setMemoryLimit(-1);
  ctx.unwrapResult(ctx.evalCode(bundleSource(bundle))).dispose();
  const arg = ctx.newString(json);
  ctx.setProp(ctx.global, "__arg", arg);
  arg.dispose();
  ctx.unwrapResult(ctx.evalCode("globalThis.__ctx = JSON.parse(__arg); globalThis.__arg = null;")).dispose();
  return () => {
    const t0 = performance.now();
    ctx.unwrapResult(ctx.evalCode("globalThis.compaction.summarize(globalThis.__ctx).length")).dispose();
    return performance.now() - t0;
  };
}

function verdict(base: number, recall: number): string {
  const ratio = recall / Math.max(base, 1e-6);
  const judged = Math.max(base, recall) > FLOOR_MS;
  return `${fmt(base).padStart(9)} → ${fmt(recall).padStart(9)} ×${ratio.toFixed(2)} ${judged ? (ratio <= MAX_RATIO ? "✔" : "✘") : "(under 10 ms)"}`;
}

/** One row: the default and the recall build in node:vm, then in QuickJS; the line to print. */
export async function compareBuilds(label: string, context: Record<string, unknown>): Promise<string> {
  const json = JSON.stringify(context);
  gc();
  const vm = alternated(vmRun(json, REFERENCE_BUNDLE_PATH), vmRun(json, BUNDLE_PATH));
  gc();
  const quickjs = await getQuickJS();
  const contexts: QuickJSContext[] = [];
  let q: [number, number];
  try {
    q = alternated(quickjsRun(json, REFERENCE_BUNDLE_PATH, contexts, quickjs), quickjsRun(json, BUNDLE_PATH, contexts, quickjs));
  } finally {
    for (const c of contexts) c.dispose();
  }
  return `  ${`${label} (${(json.length / 1e6).toFixed(1)} MB)`.padEnd(52)} node:vm ${verdict(vm[0], vm[1])}   QuickJS ${verdict(q[0], q[1])}`;
}

/** The table's heading. */
export const BUILDS_HEADING = `recall build (the default) against the reference build (median of ${RUNS} alternated runs each; target: within ${MAX_RATIO}× on every row over ${FLOOR_MS} ms):`;

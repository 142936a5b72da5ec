/**
 * The proxy of the memory bench, in a process of its own so that its RSS is the proxy's alone.
 * Answers its parent's "measure" with memory figures after a full collection, and "stop".
 */
import { readFileSync } from "node:fs";
import { resolveConfig } from "../core/index.js";
import { startProxy } from "../proxy/index.js";

const [upstream, threshold] = [process.argv[2], Number(process.argv[3])];
const proxy = await startProxy({ port: 0, quiet: true, config: resolveConfig({ thresholdTokens: threshold, keepRecent: 3, minGainTokens: Math.floor(threshold / 10) }), upstreams: { anthropic: upstream, openai: upstream } } as never);

/** Peak RSS (VmHWM) from the kernel, in bytes; 0 where /proc is not there. */
function peakRss(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    return m === null ? 0 : Number(m[1]) * 1024;
  } catch {
    return 0;
  }
}

process.send!({ url: proxy.url });
process.on("message", (m: string) => {
  if (m === "stop") return void proxy.close().then(() => process.exit(0));
  (globalThis as { gc?: () => void }).gc?.();
  const u = process.memoryUsage();
  const s = proxy.engine.stats();
  process.send!({ rss: u.rss, heapUsed: u.heapUsed, heapTotal: u.heapTotal, external: u.external, peakRss: peakRss(), memo: s.memo.bytes, store: s.store.bytes });
});

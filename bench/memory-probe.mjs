// Loaded (--import) into the `serve` the memory bench starts: on SIGUSR2 it collects garbage and
// writes the process's memory figures to the file $CLIFF_MEMORY_PROBE names. Nothing else.
import { readFileSync, writeFileSync } from "node:fs";

const kB = (status, key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const u = process.memoryUsage();
  const status = readFileSync("/proc/self/status", "utf8");
  writeFileSync(process.env.CLIFF_MEMORY_PROBE, JSON.stringify({ rss: u.rss, heapUsed: u.heapUsed, heapTotal: u.heapTotal, external: u.external, peakRss: kB(status, "VmHWM"), anon: kB(status, "RssAnon") }));
});

/** Timing helpers for `npm run bench`: medians over repeats, with a warm-up. */
import type { ChildProcess } from "node:child_process";
import { performance } from "node:perf_hooks";

export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Fastest of `repeats` runs after at least `warmup` runs and `warmMs` milliseconds of them, in
 * milliseconds (the least disturbed by other load). The warm-up by time lets the engine finish
 * optimising a small input's code, which a few runs of a fraction of a millisecond do not.
 */
export function time(fn: () => unknown, repeats = 5, warmup = 1, warmMs = 0): number {
  const warmStart = performance.now();
  for (let i = 0; i < warmup || performance.now() - warmStart < warmMs; i++) fn();
  const xs: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return Math.min(...xs);
}

export const fmt = (ms: number): string => (ms < 1 ? ms.toFixed(3) : ms < 100 ? ms.toFixed(2) : ms.toFixed(0)) + " ms";

export function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export function heapMB(): number {
  return process.memoryUsage().heapUsed / 1e6;
}

/**
 * Fastest of `runs` calls of `fn` on inputs made beforehand. Making them is not timed, and a full
 * collection first keeps the young-generation copying of the fresh inputs out of the timings.
 */
export function timeEach<T>(make: () => T, fn: (input: T) => unknown, runs: number): number {
  const inputs = Array.from({ length: runs }, make);
  gc();
  let best = Infinity;
  for (const input of inputs) {
    const t0 = performance.now();
    fn(input);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/** The address `serve` says it listens on (its "proxy on http://…" line on standard error); rejects if it exits first. */
export function proxyUrl(child: ChildProcess): Promise<string> {
  let err = "";
  return new Promise<string>((resolve, reject) => {
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /proxy on (http:\/\/[\d.:]+)/.exec(err);
      if (m !== null) resolve(m[1]);
    });
    child.once("exit", () => reject(new Error(`serve exited: ${err}`)));
  });
}

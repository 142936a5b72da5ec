/** CLI end to end: a fresh process compacting a 10 MB session file (target < 2 s). */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { anthropicSession } from "./sessions.js";
import { fmt } from "./util.js";

export function benchCli(): void {
  const dir = mkdtempSync(join(tmpdir(), "cliff-bench-"));
  const file = join(dir, "session-10mb.json");
  writeFileSync(file, JSON.stringify({ model: "claude-x", max_tokens: 1000, messages: anthropicSession(10e6) }));
  const cli = new URL("../dist/cli.mjs", import.meta.url).pathname;
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [cli, "compact", file, "--json"], { encoding: "utf8", maxBuffer: 1 << 28 });
    times.push(performance.now() - t0);
    if (r.status !== 0) throw new Error(r.stderr);
  }
  const t0 = performance.now();
  spawnSync(process.execPath, [cli, "simulate", file, "--threshold", "100000", "--json"], { encoding: "utf8" });
  console.log(`cli: compact a 10 MB session file end to end ${fmt(Math.min(...times))} (target < 2 s); simulate it at 100k ${fmt(performance.now() - t0)}`);
}

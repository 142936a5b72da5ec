/**
 * `npm run bench`: every benchmark of the project, one report. Each section runs in its own
 * process so the garbage of one (the 50 MB session) does not slow the next.
 */
import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";

const SECTIONS: Record<string, () => unknown> = {
  core: async () => (await import("./core.js")).benchCore(Number(process.argv[3] ?? 0)),
  engine: async () => (await import("./engine.js")).benchEngine(),
  pi: async () => (await import("./pi.js")).benchPi(),
  plugin: async () => (await import("./plugin.js")).benchPlugin(),
  cli: async () => (await import("./cli.js")).benchCli(),
  proxy: async () => (await import("./proxy.js")).benchProxy(),
  memory: async () => (await import("./memory.js")).benchMemory(),
  usage: async () => (await import("./proxy-usage.js")).benchUsage(),
  retention: async () => (await import("./retention.js")).benchRetention(),
  recall: async () => (await import("./recall-bill.js")).benchRecallBill(),
  stress: async () => (await import("./stress.js")).benchStress("bench"),
  "stress-full": async () => (await import("./stress.js")).benchStress("stress"),
};

const only = process.argv[2];
if (only !== undefined) {
  if (!(only in SECTIONS)) throw new Error(`unknown bench section ${only}; sections: ${Object.keys(SECTIONS).join(", ")}`);
  await SECTIONS[only]();
} else {
  console.log(`cliffcompaction bench — Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`);
  const coreParts = (await import("./core.js")).coreParts();
  for (const name of Object.keys(SECTIONS).filter((n) => n !== "stress-full")) {
    for (let part = 0; part < (name === "core" ? coreParts : 1); part++) {
      const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), name, String(part)], { stdio: "inherit" });
      if (r.status !== 0) process.exitCode = 1;
    }
  }
}

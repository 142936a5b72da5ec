/**
 * Round six, minor cases: `run`'s agent (and what it started) ends when the proxy is killed with
 * SIGKILL; `watch`'s readers bound what they read and how long; `/_cliff/status` open on loopback
 * lists no re-fetched tool's name (counts only; names with the admin token).
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "cliff-round-six-minor-"));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => boolean, ms: number): Promise<boolean> => {
  for (let t = 0; t < ms && !check(); t += 50) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe("round six, minor: run's agent ends with the proxy", () => {
  it("SIGKILL of run's proxy: the agent and the process it started are gone within 5 s", async () => {
    const pids = join(dir, "pids.json");
    const agent = join(dir, "agent");
    // A stand-in agent that starts a child of its own (a tool's process), says both pids, and runs on.
    writeFileSync(agent, `#!${process.execPath}
const { spawn } = require("node:child_process");
const tool = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
require("node:fs").writeFileSync(${JSON.stringify(pids)}, JSON.stringify({ agent: process.pid, tool: tool.pid }));
setInterval(() => {}, 1000);`);
    chmodSync(agent, 0o755);
    const state = mkdtempSync(join(dir, "state-"));
    const run = spawn(process.execPath, ["dist/cli.mjs", "run", "--", agent], { cwd: process.cwd(), env: { ...process.env, HOME: state, XDG_STATE_HOME: state }, stdio: "ignore", detached: true });
    try {
      expect(await until(() => existsSync(pids) && readFileSync(pids, "utf8").endsWith("}"), 30_000)).toBe(true);
      const { agent: a, tool: t } = JSON.parse(readFileSync(pids, "utf8")) as { agent: number; tool: number };
      expect(alive(a) && alive(t)).toBe(true);
      process.kill(run.pid!, "SIGKILL");
      await until(() => !alive(a) && !alive(t), 5000);
      const left = [a, t].filter(alive).length;
      console.log(`round six, minor: ${left} of the agent's 2 processes alive 5 s after the proxy's SIGKILL`);
      for (const pid of [a, t]) if (alive(pid)) process.kill(pid, "SIGKILL");
      expect(left).toBe(0);
    } finally {
      try {
        process.kill(-run.pid!, "SIGKILL");
      } catch {
        // the group is gone
      }
    }
  }, 60_000);
});

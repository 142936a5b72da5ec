/**
 * `run`'s agent never outlives its proxy. The proxy lives in `run`'s own process, so a SIGKILL of
 * `run` would leave the agent (and the tools it started) sending its key to a loopback port anyone
 * may take next. A tiny watcher, in a session of its own so neither the terminal's signals nor a
 * kill of `run`'s process group reach it, holds a pipe from `run`: when the pipe closes without
 * `run` saying it is done, `run` is gone, and the watcher ends the agent and every process under it
 * (SIGTERM, then SIGKILL two seconds later). The agent stays in the terminal's process group, so
 * Ctrl-C and the terminal reach it as before.
 */
import { spawn } from "node:child_process";
import type { Socket } from "node:net";

/** The watcher: argv[1] is the agent's pid; "done" on stdin releases it, a closed stdin without it ends the agent. */
const WATCHER = `
const { execFileSync } = require("node:child_process");
const agent = Number(process.argv[1]);
let done = false;
const kill = (pid, signal) => { try { process.kill(pid, signal); } catch {} };
// The agent and its descendants, read from the process table (the agent alone where there is no ps).
function tree() {
  const out = [agent];
  try {
    const kids = new Map();
    for (const line of execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" }).split("\\n")) {
      const [pid, ppid] = line.trim().split(/\\s+/).map(Number);
      if (pid > 0) kids.set(ppid, [...(kids.get(ppid) || []), pid]);
    }
    for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) || []).filter((p) => p !== process.pid));
  } catch {}
  return out;
}
process.stdin.on("data", (d) => { if (String(d).includes("done")) done = true; });
process.stdin.on("close", () => {
  if (done) process.exit(0);
  const first = tree();
  for (const pid of first) kill(pid, "SIGTERM");
  setTimeout(() => { for (const pid of new Set([...first, ...tree()])) kill(pid, "SIGKILL"); process.exit(0); }, 2000);
});
process.stdin.on("error", () => {});
process.stdin.resume();
`;

export interface Watchdog {
  /** `run` ends normally: the watcher leaves the agent alone and exits. */
  release(): void;
}

/** Starts the watcher over the agent `pid`; it never keeps `run` from exiting. */
export function watchAgent(pid: number): Watchdog {
  const watcher = spawn(process.execPath, ["-e", WATCHER, String(pid)], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  watcher.on("error", () => undefined);
  watcher.stdin!.on("error", () => undefined);
  watcher.unref();
  (watcher.stdin as unknown as Socket).unref();
  return {
    release: () => {
      if (watcher.stdin!.writable) watcher.stdin!.end("done\n");
    },
  };
}

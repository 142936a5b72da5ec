/** A child process run to its end without blocking this one (a mock server here may have to answer it). */
import { spawn } from "node:child_process";

export interface Finished {
  code: number | null;
  out: string;
  err: string;
  /** The time limit passed and the child's whole process group was killed. */
  timedOut: boolean;
}

/**
 * Runs the command in a process group of its own. At the time limit the whole group is stopped
 * (SIGTERM, then SIGKILL 5 s later): a grandchild that hangs (an agent run through `run`) would
 * otherwise keep the pipes open and the promise pending past any limit.
 */
export function runChild(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    let timedOut = false;
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const group = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    let hard: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      group("SIGTERM");
      hard = setTimeout(() => group("SIGKILL"), 5000);
    }, timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (hard !== undefined) clearTimeout(hard);
      resolve({ code, out, err, timedOut });
    });
  });
}

#!/usr/bin/env node
/**
 * Runs each argument as a shell command, all at once, and prints each one's output whole when it
 * ends (so two type-checks never interleave their lines). Exits 1 when any of them failed. `npm test`
 * runs the two type-checks and the build this way: they read the sources only, never each other's
 * output, so on two cores they take the time of the longest rather than the sum.
 */
import { spawn } from "node:child_process";

const commands = process.argv.slice(2);
const results = await Promise.all(commands.map((command) => new Promise((resolve) => {
  const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
  const out = [];
  child.stdout.on("data", (d) => out.push(d));
  child.stderr.on("data", (d) => out.push(d));
  child.on("close", (code, signal) => {
    process.stdout.write(Buffer.concat(out));
    if (code !== 0) process.stderr.write(`${command}: ${signal ? `killed by ${signal}` : `exit ${code}`}\n`);
    resolve(code === 0);
  });
})));
process.exit(results.every(Boolean) ? 0 : 1);

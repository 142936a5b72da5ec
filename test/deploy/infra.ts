/**
 * The real infrastructure of `npm run test:deploy`: HAProxy and Prometheus from Debian, the Portkey
 * gateway from npm, installed on first use (nothing is skipped: a missing tool that cannot be
 * installed fails the suite), and the processes the suite starts, each on 127.0.0.1 in a temporary
 * folder, stopped at the end or when the test runner goes away.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = join(ROOT, "dist", "cli.mjs");
export const DEPLOY = join(ROOT, "deploy");
/** Loaded into every Node process the suite starts: it exits when the suite's end of its stdin closes. */
const WATCHDOG = fileURLToPath(new URL("./watchdog.mjs", import.meta.url));
/** Loaded into the Portkey gateway: it listens on 127.0.0.1 only (it would listen on every address). */
const LOOPBACK_ONLY = fileURLToPath(new URL("./loopback-only.mjs", import.meta.url));
export const PORTKEY_VERSION = "1.15.2";
const CACHE = join(ROOT, "node_modules", ".cache", "cliff-deploy");

function which(command: string): string | null {
  const r = spawnSync("sh", ["-c", `command -v ${command}`], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

function run(command: string, args: string[]): void {
  const r = spawnSync(command, args, { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.status ?? r.signal})`);
}

/** Debian's haproxy and prometheus (with promtool), installed with apt-get when they are missing. */
function debianTools(): void {
  if (which("haproxy") !== null && which("prometheus") !== null && which("promtool") !== null) return;
  if (which("apt-get") === null || process.getuid?.() !== 0) {
    throw new Error("test:deploy needs haproxy and prometheus: install them (apt-get install haproxy prometheus) or run the suite as root on Debian, where it installs them");
  }
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", "haproxy", "prometheus"]);
}

/** The Portkey gateway's server script, installed from npm into the suite's cache folder once. */
function portkey(): string {
  const script = join(CACHE, "node_modules", "@portkey-ai", "gateway", "build", "start-server.js");
  const installed = join(CACHE, "node_modules", "@portkey-ai", "gateway", "package.json");
  if (existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === PORTKEY_VERSION) return script;
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(join(CACHE, "package.json"), JSON.stringify({ private: true, dependencies: { "@portkey-ai/gateway": PORTKEY_VERSION } }));
  run("npm", ["install", "--prefix", CACHE, "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]);
  return script;
}

export interface Tools {
  haproxy: string;
  prometheus: string;
  promtool: string;
  portkey: string;
}

export function tools(): Tools {
  debianTools();
  return { haproxy: which("haproxy")!, prometheus: which("prometheus")!, promtool: which("promtool")!, portkey: portkey() };
}

export { freePort } from "../helpers/free-port.js";

export interface Proc {
  name: string;
  child: ChildProcess;
  /** stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The processes one test starts, in one temporary folder; `stopAll` ends what is still running and removes the folder. */
export class Processes {
  readonly dir = mkdtempSync(join(tmpdir(), "cliff-deploy-"));
  private readonly procs: Proc[] = [];

  /** `node` runs a Node script with the watchdog; anything else runs under `timeout`, so it ends within `lifetimeS` whatever happens to the suite. */
  start(name: string, command: string, args: string[], o: { env?: NodeJS.ProcessEnv; node?: boolean; loopbackOnly?: boolean; lifetimeS?: number } = {}): Proc {
    const lifetime = String(o.lifetimeS ?? 900);
    const argv = o.node === true
      ? [process.execPath, ["--import", WATCHDOG, ...(o.loopbackOnly === true ? ["--import", LOOPBACK_ONLY] : []), command, ...args]] as const
      : ["timeout", ["--kill-after=5", lifetime, command, ...args]] as const;
    const child = spawn(argv[0], [...argv[1]], { cwd: this.dir, env: { ...process.env, ...o.env, CLIFF_DEPLOY_LIFETIME_S: lifetime }, stdio: ["pipe", "pipe", "pipe"] });
    let text = "";
    const log = createWriteStream(join(this.dir, `${name}.log`), { flags: "a" });
    for (const s of [child.stdout!, child.stderr!]) s.on("data", (c: Buffer) => {
      text += c.toString("utf8");
      log.write(c);
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const p: Proc = { name, child, output: () => text, exited };
    this.procs.push(p);
    return p;
  }

  async stopAll(): Promise<void> {
    const running = this.procs.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    for (const p of running) p.child.kill("SIGTERM");
    const timer = setTimeout(() => running.forEach((p) => p.child.kill("SIGKILL")), 10_000);
    await Promise.all(running.map((p) => p.exited));
    clearTimeout(timer);
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Thrown by a check to stop waiting at once (a process that exited will not start listening). */
export class Fatal extends Error {}

/** Polls `check` until it is true (or throws after `ms`, saying `what`); errors other than Fatal mean "not yet". */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch (e) {
      if (e instanceof Fatal) throw e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The URL a `serve` prints on its first line, once it listens. */
export async function servedUrl(p: Proc): Promise<string> {
  let url = "";
  await until(`${p.name} to listen`, () => {
    const m = /proxy on (http:\/\/[\d.:]+)/.exec(p.output());
    if (m !== null) url = m[1];
    if (p.child.exitCode !== null) throw new Fatal(`${p.name} exited: ${p.output()}`);
    return m !== null;
  });
  return url;
}

/**
 * Opt-in (`npm run test:hosts`): the package installed the ways users install it, `pi install` and
 * `omp install` of a local path, then a real session (print mode, a scripted model on 127.0.0.1)
 * until auto-compaction fires, which must be ours, with no model asked to summarise. Two layouts:
 * a clone (the files git tracks, no build, no node_modules: Pi and OMP load pi-extension/index.ts)
 * and the packed tarball installed by npm (the registry's layout: only the built pi-extension/index.js).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { mockModel } from "../agents/mock-model.js";
import { runChild } from "../helpers/child.js";
import { agentFolder, entries } from "./host-setup.js";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const npm = (args: string[], cwd: string): string => execFileSync(NPM[0], [...NPM.slice(1), ...args], { cwd, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
const PI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
const OMP_VERSION = "18.2.3";
const OMP_DIR = join(tmpdir(), `cliffcompaction-omp-${OMP_VERSION}`);
const OMP = join(OMP_DIR, "node_modules", "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");
const BUN = join(OMP_DIR, "node_modules", "@oven", "bun-linux-x64", "bin", "bun");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const SUMMARISING = /You are a context summarization assistant|context checkpoint summary|summary of this conversation branch/;
const PROMPT = "Print numbers with seq several times, then say ALL DONE.";

/** What `git clone` of this commit holds: the tracked files, nothing built, no node_modules. */
function clone(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "cliff-install-clone-")), "cliffcompaction");
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)));
  for (const f of tracked) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  return dir;
}

/** The tarball `npm pack` makes (test:hosts has just built), installed by npm: the registry's layout. */
function registryLayout(): string {
  const dir = mkdtempSync(join(tmpdir(), "cliff-install-packed-"));
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT)) as { filename: string }[];
  writeFileSync(join(dir, "package.json"), '{"private":true}');
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", join(dir, packed[0].filename)], dir);
  return join(dir, "node_modules", "cliffcompaction");
}

function installOmp(): void {
  if (existsSync(OMP) && existsSync(BUN)) return;
  mkdirSync(OMP_DIR, { recursive: true });
  writeFileSync(join(OMP_DIR, "package.json"), '{"private":true}');
  npm(["install", "--no-audit", "--no-fund", `@oh-my-pi/pi-coding-agent@${OMP_VERSION}`, "@oven/bun-linux-x64"], OMP_DIR);
}

/** A home of its own with an agent folder: the scripted model, auto-compaction on. */
function home(modelUrl: string, contextWindow: number, reserveTokens: number): { dir: string; agentDir: string; cwd: string; env: NodeJS.ProcessEnv } {
  const { dir, agentDir, cwd } = agentFolder(modelUrl, contextWindow, reserveTokens);
  const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: join(dir, ".config"), XDG_DATA_HOME: join(dir, ".local", "share"), XDG_STATE_HOME: join(dir, ".local", "state"), XDG_CACHE_HOME: join(dir, ".cache"), PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
  return { dir, agentDir, cwd, env };
}

const compactions = (agentDir: string): Record<string, any>[] => entries(agentDir).filter((e) => e.type === "compaction");

/** Installs the package at `path` with the host's own install command, then runs a session with no -e. */
async function installedSession(name: string, host: "pi" | "omp", path: string): Promise<void> {
  const [command, cli, contextWindow, reserveTokens] = host === "pi" ? [process.execPath, PI, 20_000, 6_000] : [BUN, OMP, 64_000, 16_000];
  const model = await mockModel({ calls: 8 });
  const { agentDir, cwd, env } = home(model.url, contextWindow, reserveTokens);
  try {
    const install = spawnSync(command, [cli, "install", path], { cwd, env, encoding: "utf8", timeout: 120_000 });
    const said = `${install.stdout ?? ""}${install.stderr ?? ""}${install.error ?? ""}`;
    console.log(`${name}: ${host} install exit ${install.status}: ${said.trim().split("\n").slice(-2).join(" / ")}`);
    expect(install.status, said).toBe(0);
    const r = await runChild(command, [cli, "-p", PROMPT, "--provider", "mock", "--model", "mock-1"], cwd, env, 300_000);
    const ours = compactions(agentDir).filter((c) => String(c.summary).startsWith(SUMMARY_HEADER) && c.details?.method === "cliffcompaction");
    console.log(`${name}: exit ${r.code}, ${model.seen.length} model requests, ${ours.length} compactions by cliffcompaction`);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(ours.length).toBeGreaterThan(0);
    expect(model.seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
  } finally {
    model.close();
  }
}

describe("pi install and omp install of a local path: a clone and the packed tarball", () => {
  let cloned: string;
  let packed: string;

  beforeAll(() => {
    cloned = clone();
    packed = registryLayout();
    installOmp();
  }, 600_000);

  it("a clone holds the extension's TypeScript and no build; the tarball only the build", () => {
    expect(existsSync(join(cloned, "pi-extension", "index.ts"))).toBe(true);
    expect(existsSync(join(cloned, "pi-extension", "index.js"))).toBe(false);
    expect(existsSync(join(cloned, "node_modules"))).toBe(false);
    expect(readdirSync(join(packed, "pi-extension"))).toEqual(["index.js"]);
  });

  it("pi install <clone>: Pi loads the TypeScript and compacts", () => installedSession("pi, clone", "pi", cloned));
  it("pi install <the tarball's layout>: Pi loads the built file and compacts", () => installedSession("pi, tarball", "pi", packed));
  it("omp install <clone>: OMP (Bun) loads the TypeScript and compacts", () => installedSession("omp, clone", "omp", cloned));
  it("omp install <the tarball's layout>: OMP loads the built file and compacts", () => installedSession("omp, tarball", "omp", packed));
});

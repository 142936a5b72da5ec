/**
 * Opt-in (`npm run test:hosts`): the real Pi CLI (print mode, Node ≥ 22.19) and OMP under Bun, each
 * with the package as a consumer installs it (npm pack, installed into a temporary project), driven
 * through a session against a scripted model on 127.0.0.1 until auto-compaction fires. A compaction
 * entry must hold our summary, and the model must never have been asked to summarise.
 */
import { describe, expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockModel } from "../agents/mock-model.js";
import { runChild } from "../helpers/child.js";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const npm = (args: string[], cwd: string) => execFileSync(NPM[0], [...NPM.slice(1), ...args], { cwd, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
const OMP_DIR = join(tmpdir(), "cliffcompaction-omp");
const OMP = join(OMP_DIR, "node_modules", "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");
const BUN = join(OMP_DIR, "node_modules", "@oven", "bun-linux-x64", "bin", "bun");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const SUMMARISING = /You are a context summarization assistant|context checkpoint summary/;

/** The package as a consumer gets it: packed, installed into a fresh project. */
function installedPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), "cliff-hosts-"));
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT)) as { filename: string }[];
  writeFileSync(join(dir, "package.json"), '{"private":true}');
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", join(dir, packed[0].filename)], dir);
  return join(dir, "node_modules", "cliffcompaction");
}

function installOmp(): void {
  if (existsSync(OMP) && existsSync(BUN)) return;
  mkdirSync(OMP_DIR, { recursive: true });
  writeFileSync(join(OMP_DIR, "package.json"), '{"private":true}');
  // 18.2.3 is the newest OMP whose dependencies all exist in the registry here.
  npm(["install", "--no-audit", "--no-fund", "@oh-my-pi/pi-coding-agent@18.2.3", "@oven/bun-linux-x64"], OMP_DIR);
}

function agentFolder(port: string, contextWindow: number, reserveTokens: number): { dir: string; agentDir: string; cwd: string } {
  const dir = mkdtempSync(join(tmpdir(), "cliff-host-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "cwd");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  const model = { id: "mock-1", contextWindow, maxTokens: 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { mock: { baseUrl: port, api: "anthropic-messages", apiKey: "x", models: [model] } } }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ compaction: { enabled: true, reserveTokens, keepRecentTokens: 2000 } }));
  return { dir, agentDir, cwd };
}

function compactions(agentDir: string): Record<string, any>[] {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return walk(agentDir).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))).filter((e) => e.type === "compaction");
}

async function session(name: string, command: string, args: (ext: string) => string[], contextWindow: number, reserveTokens: number, extraEnv: (dir: string) => NodeJS.ProcessEnv): Promise<void> {
  const pkg = installedPackage();
  const model = await mockModel({ calls: 8 });
  const { dir, agentDir, cwd } = agentFolder(model.url, contextWindow, reserveTokens);
  const r = await runChild(command, args(join(pkg, "pi-extension", "index.js")), cwd, { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", ...extraEnv(dir) }, 180_000);
  model.close();
  const ours = compactions(agentDir).filter((c) => String(c.summary).startsWith(SUMMARY_HEADER) && c.details?.method === "cliffcompaction");
  console.log(`${name}: exit ${r.code}, ${model.seen.length} model requests, ${ours.length} compactions by cliffcompaction; agent said ${JSON.stringify(r.out.trim().slice(-40))}`);
  expect(r.code, r.err.slice(-2000)).toBe(0);
  expect(ours.length).toBeGreaterThan(0);
  expect(model.seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
}

describe("real Pi and OMP with the installed package", () => {
  it("the pi CLI in print mode (Node ≥ 22.19)", async () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    expect(major > 22 || (major === 22 && minor >= 19), `Pi 1.6 needs Node ≥ 22.19, this is ${process.version}: run npm run test:hosts`).toBe(true);
    const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
    await session("pi", process.execPath, (ext) => [pi, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 20_000, 6_000, () => ({}));
  });

  it("OMP under Bun", async () => {
    installOmp();
    expect(spawnSync(BUN, ["--version"], { encoding: "utf8" }).status).toBe(0);
    // OMP's own system prompt and tools take about 15k tokens: a 64k window.
    await session("omp", BUN, (ext) => [OMP, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 64_000, 16_000, (dir) => ({ HOME: dir }));
  });
});

/**
 * What the opt-in host tests share: the package installed as a consumer installs it, OMP and Bun
 * from the registry, a fresh agent folder whose one provider is a scripted model on 127.0.0.1, and
 * the entries of the session files a run wrote.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
export const PI = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
const OMP_DIR = join(tmpdir(), "cliffcompaction-omp");
export const OMP = join(OMP_DIR, "node_modules", "@oh-my-pi", "pi-coding-agent", "dist", "cli.js");
export const BUN = join(OMP_DIR, "node_modules", "@oven", "bun-linux-x64", "bin", "bun");
export const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";

const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const npm = (args: string[], cwd: string) => execFileSync(NPM[0], [...NPM.slice(1), ...args], { cwd, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });

/** Pi 1.6 needs Node ≥ 22.19 (npm run test:hosts runs the tests on one). */
export function nodeRunsPi(): boolean {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 19);
}

/** The package as a consumer gets it: packed, installed into a fresh project. */
export function installedPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), "cliff-hosts-"));
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", dir], ROOT)) as { filename: string }[];
  writeFileSync(join(dir, "package.json"), '{"private":true}');
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", join(dir, packed[0].filename)], dir);
  return join(dir, "node_modules", "cliffcompaction");
}

export function installOmp(): void {
  if (existsSync(OMP) && existsSync(BUN)) return;
  mkdirSync(OMP_DIR, { recursive: true });
  writeFileSync(join(OMP_DIR, "package.json"), '{"private":true}');
  // 18.2.3 is the newest OMP whose dependencies all exist in the registry here.
  npm(["install", "--no-audit", "--no-fund", "@oh-my-pi/pi-coding-agent@18.2.3", "@oven/bun-linux-x64"], OMP_DIR);
}

/** A fresh agent folder whose one model, mock/mock-1, is served (Anthropic Messages) at `url`. */
export function agentFolder(url: string, contextWindow: number, reserveTokens: number, keepRecentTokens = 2000): { dir: string; agentDir: string; cwd: string } {
  const dir = mkdtempSync(join(tmpdir(), "cliff-host-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "cwd");
  mkdirSync(agentDir);
  mkdirSync(cwd);
  const model = { id: "mock-1", contextWindow, maxTokens: 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { mock: { baseUrl: url, api: "anthropic-messages", apiKey: "x", models: [model] } } }));
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ compaction: { enabled: true, reserveTokens, keepRecentTokens } }));
  return { dir, agentDir, cwd };
}

/** Every entry of every session file under `agentDir`. */
export function entries(agentDir: string): Record<string, any>[] {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return walk(agentDir).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
}

/** The compaction entries our extension wrote. */
export const ourCompactions = (agentDir: string): Record<string, any>[] =>
  entries(agentDir).filter((e) => e.type === "compaction" && String(e.summary).startsWith(SUMMARY_HEADER) && e.details?.method === "cliffcompaction");

/**
 * Opt-in (`npm run test:hosts`): the real Pi CLI (print mode, Node ≥ 22.19) and OMP under Bun, each
 * with the package as a consumer installs it (npm pack, installed into a temporary project), driven
 * through a session against a scripted model on 127.0.0.1 until auto-compaction fires. A compaction
 * entry must hold our summary, and the model must never have been asked to summarise. With the
 * archive on, Pi's compaction entry points at files that hold the dropped outputs; a `/tree`
 * navigation with a summary (rpc mode) writes our branch summary entry, again without a model call.
 */
import { describe, expect, it } from "vitest";
import { execFileSync, spawn, spawnSync } from "node:child_process";
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
const SUMMARISING = /You are a context summarization assistant|context checkpoint summary|summary of this conversation branch/;
const POINTER = /^result: dropped [\d,]+ chars, kept at (.+)$/gm;

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

function entries(agentDir: string): Record<string, any>[] {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  return walk(agentDir).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
}

const compactions = (agentDir: string): Record<string, any>[] => entries(agentDir).filter((e) => e.type === "compaction");

/** The text of every tool result in the session files, as the model saw it. */
const toolOutputs = (agentDir: string): string[] =>
  entries(agentDir).filter((e) => e.type === "message" && e.message?.role === "toolResult").map((e) => (e.message.content as { type: string; text?: string }[]).filter((b) => b.type === "text").map((b) => b.text).join("\n"));

async function session(name: string, command: string, args: (ext: string) => string[], contextWindow: number, reserveTokens: number, extraEnv: (dir: string) => NodeJS.ProcessEnv, config?: (dir: string) => object): Promise<{ ours: Record<string, any>[]; agentDir: string; dir: string }> {
  const pkg = installedPackage();
  const model = await mockModel({ calls: 8 });
  const { dir, agentDir, cwd } = agentFolder(model.url, contextWindow, reserveTokens);
  if (config !== undefined) writeFileSync(join(agentDir, "cliffcompaction.json"), JSON.stringify(config(dir)));
  const r = await runChild(command, args(join(pkg, "pi-extension", "index.js")), cwd, { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", ...extraEnv(dir) }, 180_000);
  model.close();
  const ours = compactions(agentDir).filter((c) => String(c.summary).startsWith(SUMMARY_HEADER) && c.details?.method === "cliffcompaction");
  console.log(`${name}: exit ${r.code}, ${model.seen.length} model requests, ${ours.length} compactions by cliffcompaction; agent said ${JSON.stringify(r.out.trim().slice(-40))}`);
  expect(r.code, r.err.slice(-2000)).toBe(0);
  expect(ours.length).toBeGreaterThan(0);
  expect(model.seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
  return { ours, agentDir, dir };
}

/** A test-only Pi extension: a command that goes back to the first user message, asking for a branch summary. */
const NAVIGATE_EXTENSION = `export default function (pi) {
  pi.registerCommand("go-back-with-summary", {
    description: "test: /tree back to the first user message with a summary",
    handler: async (_args, ctx) => {
      const first = ctx.sessionManager.getBranch().find((e) => e.type === "message" && e.message.role === "user");
      const r = await ctx.navigateTree(first.id, { summarize: true });
      ctx.ui.notify(r.cancelled ? "TREE cancelled" : "TREE done", "info");
    },
  });
}
`;

/** Pi in rpc mode: commands as JSON lines on stdin, events read back from stdout. */
async function rpcSession(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ lines: Record<string, any>[]; send(cmd: object, until: (e: Record<string, any>) => boolean): Promise<void>; close(): Promise<void> }> {
  const child = spawn(command, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const lines: Record<string, any>[] = [];
  let buffer = "";
  let err = "";
  const waiters: (() => void)[] = [];
  child.stderr.on("data", (d) => (err += d));
  child.stdout.on("data", (d) => {
    buffer += d;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(line));
      } catch {
        // not an event
      }
      for (const w of waiters.splice(0)) w();
    }
  });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    lines,
    send: (cmd, until) => new Promise<void>((resolve, reject) => {
      const from = lines.length;
      const timer = setTimeout(() => reject(new Error(`rpc: no answer to ${JSON.stringify(cmd)} in 120 s; stderr: ${err.slice(-1500)}`)), 120_000);
      const check = (): void => {
        if (lines.slice(from).some(until)) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      child.stdin.write(JSON.stringify(cmd) + "\n");
      check();
    }),
    close: async () => {
      child.stdin.end();
      const stop = setTimeout(() => child.kill("SIGTERM"), 10_000);
      await exited;
      clearTimeout(stop);
    },
  };
}

describe("real Pi and OMP with the installed package", () => {
  it("the pi CLI in print mode (Node ≥ 22.19)", async () => {
    const [major, minor] = process.versions.node.split(".").map(Number);
    expect(major > 22 || (major === 22 && minor >= 19), `Pi 1.6 needs Node ≥ 22.19, this is ${process.version}: run npm run test:hosts`).toBe(true);
    const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
    const archive = (dir: string): string => join(dir, "archive");
    const r = await session("pi", process.execPath, (ext) => [pi, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 20_000, 6_000, () => ({}), (dir) => ({ archive: true, archiveDir: archive(dir) }));
    // The compaction entry points at files, under the session's folder, that hold the outputs it dropped.
    const paths = r.ours.flatMap((c) => [...String(c.summary).matchAll(POINTER)].map((m) => m[1]));
    console.log(`pi: ${paths.length} pointer(s) in the compaction entries`);
    expect(paths.length).toBeGreaterThan(0);
    const outputs = toolOutputs(r.agentDir);
    for (const p of paths) {
      expect(p.startsWith(archive(r.dir) + "/")).toBe(true);
      expect(existsSync(p)).toBe(true);
      expect(outputs).toContain(readFileSync(p, "utf8"));
    }
  });

  it("the pi CLI in rpc mode: /tree with a summary writes our branch summary entry, no model asked to summarise", async () => {
    const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
    const pkg = installedPackage();
    const model = await mockModel({ calls: 3 });
    const { dir, agentDir, cwd } = agentFolder(model.url, 200_000, 16_000);
    writeFileSync(join(agentDir, "cliffcompaction.json"), JSON.stringify({ archive: true, archiveDir: join(dir, "archive") }));
    const navigate = join(dir, "navigate.ts");
    writeFileSync(navigate, NAVIGATE_EXTENSION);
    const rpc = await rpcSession(process.execPath, [pi, "--mode", "rpc", "--provider", "mock", "--model", "mock-1", "-e", join(pkg, "pi-extension", "index.js"), "-e", navigate], cwd, { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" });
    try {
      await rpc.send({ type: "prompt", message: "Print numbers with seq several times, then say ALL DONE." }, (e) => e.type === "agent_end");
      await rpc.send({ type: "prompt", message: "/go-back-with-summary" }, (e) => e.type === "extension_ui_request" && /^TREE (done|cancelled)/.test(String(e.message)));
    } finally {
      await rpc.close();
      model.close();
    }
    const summaries = entries(agentDir).filter((e) => e.type === "branch_summary");
    console.log(`pi rpc: ${model.seen.length} model requests, ${summaries.length} branch summaries (${summaries.map((s) => s.details?.method).join(", ")})`);
    expect(rpc.lines.find((e) => e.type === "extension_ui_request" && String(e.message).startsWith("TREE"))?.message).toBe("TREE done");
    expect(summaries).toHaveLength(1);
    expect(summaries[0].fromHook).toBe(true);
    expect(String(summaries[0].summary).startsWith(SUMMARY_HEADER)).toBe(true);
    expect(summaries[0].details).toMatchObject({ method: "cliffcompaction", version: 1 });
    const kept = [...String(summaries[0].summary).matchAll(POINTER)].map((m) => m[1]);
    expect(kept.length).toBeGreaterThan(0);
    for (const p of kept) expect(existsSync(p)).toBe(true);
    expect(model.seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
  });

  it("OMP under Bun", async () => {
    installOmp();
    expect(spawnSync(BUN, ["--version"], { encoding: "utf8" }).status).toBe(0);
    // OMP's own system prompt and tools take about 15k tokens: a 64k window.
    await session("omp", BUN, (ext) => [OMP, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 64_000, 16_000, (dir) => ({ HOME: dir }));
  });
});

/**
 * Opt-in (`npm run test:hosts`): the real Pi CLI (print mode, Node ≥ 22.19) and OMP under Bun, each
 * with the package as a consumer installs it (npm pack, installed into a temporary project), driven
 * through a session against a scripted model on 127.0.0.1 until auto-compaction fires. A compaction
 * entry must hold our summary, and the model must never have been asked to summarise. With the
 * archive on (an export), the archive holds each output Pi's compaction entry names by its ref; a `/tree`
 * navigation with a summary (rpc mode) writes our branch summary entry, again without a model call.
 */
import { describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mockModel } from "../agents/mock-model.js";
import { runChild } from "../helpers/child.js";
import { agentFolder, BUN, entries, installedPackage, installOmp, nodeRunsPi, OMP, PI, SUMMARY_HEADER } from "./host-setup.js";

const SUMMARISING = /You are a context summarization assistant|context checkpoint summary|summary of this conversation branch/;
const DROPPED_REF = /^result: dropped [\d,]+ chars, ref ([0-9a-f]{12})$/gm;
const refsIn = (summary: unknown): string[] => [...String(summary).matchAll(DROPPED_REF)].map((m) => m[1]);

/** The texts an archive folder holds (one file per text, named by its SHA-256), by ref. */
function archived(root: string): Map<string, string> {
  const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /^[0-9a-f]{64}\.txt$/.test(e.name));
  return new Map(files.map((e) => [e.name.slice(0, 12), readFileSync(join(e.parentPath, e.name), "utf8")]));
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
    expect(nodeRunsPi(), `Pi 1.6 needs Node ≥ 22.19, this is ${process.version}: run npm run test:hosts`).toBe(true);
    const pi = PI;
    const archive = (dir: string): string => join(dir, "archive");
    const r = await session("pi", process.execPath, (ext) => [pi, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 20_000, 6_000, () => ({}), (dir) => ({ archive: true, archiveDir: archive(dir) }));
    // The compaction entry names each output it dropped by its ref; the archive, under the folder asked for, holds it.
    const refs = r.ours.flatMap((c) => refsIn(c.summary));
    const texts = archived(archive(r.dir));
    console.log(`pi: ${refs.length} ref(s) in the compaction entries, ${texts.size} text(s) archived`);
    expect(refs.length).toBeGreaterThan(0);
    const outputs = toolOutputs(r.agentDir);
    for (const ref of refs) {
      expect(outputs).toContain(texts.get(ref));
      expect(createHash("sha256").update(texts.get(ref)!, "utf8").digest("hex").slice(0, 12)).toBe(ref);
    }
  });

  it("the pi CLI in rpc mode: /tree with a summary writes our branch summary entry, no model asked to summarise", async () => {
    const pi = PI;
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
    const kept = refsIn(summaries[0].summary);
    expect(kept.length).toBeGreaterThan(0);
    const texts = archived(join(dir, "archive"));
    for (const ref of kept) expect(texts.has(ref), `ref ${ref} archived`).toBe(true);
    expect(model.seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
  });

  it("OMP under Bun", async () => {
    installOmp();
    expect(spawnSync(BUN, ["--version"], { encoding: "utf8" }).status).toBe(0);
    // OMP's own system prompt and tools take about 15k tokens: a 64k window.
    await session("omp", BUN, (ext) => [OMP, "-p", "Print numbers with seq several times, then say ALL DONE.", "--provider", "mock", "--model", "mock-1", "-e", ext], 64_000, 16_000, (dir) => ({ HOME: dir }));
  });
});

/**
 * Opt-in (`npm run test:agents`): the real Claude Code and Codex CLI from the registry, each run
 * through `cliffcompaction run` against a scripted model on 127.0.0.1 that answers with shell tool
 * calls (large outputs) until the history has crossed a low threshold many times over, then a final
 * text. Each agent must finish with exit 0; the model must have seen compacted requests and no
 * summarisation request. While the model holds its final answer, `watch --once` must show the
 * agent's session with its cliffs and `/_cliff/status` the usage the model reported. The agents are
 * installed once into a folder in the temporary directory.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockModel } from "./mock-model.js";
import { runChild } from "../helpers/child.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const VERSIONS = { claude: "@anthropic-ai/claude-code@2.1.332", codex: "@openai/codex@0.171.0" };
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const CODEX = join(AGENTS, "node_modules", ".bin", "codex");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
// What a summarisation request from an agent's own compaction asks for.
const SUMMARISING = /create a detailed summary of the conversation|summarize the conversation|context checkpoint compaction/i;

function install(): void {
  if (existsSync(CLAUDE) && existsSync(CODEX)) return;
  mkdirSync(AGENTS, { recursive: true });
  writeFileSync(join(AGENTS, "package.json"), '{"private":true}');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", VERSIONS.claude, VERSIONS.codex], { cwd: AGENTS, stdio: "inherit" });
  if (r.status !== 0) throw new Error("could not install the agents from the registry");
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

interface Looked {
  frame: string;
  status: any;
  usage: unknown;
}

/** What the proxy shows while the model holds its final answer: a watch frame, and its status beside the usage the model reported. */
async function look(port: number, model: { usage: unknown }): Promise<Looked> {
  let status: any = null;
  let usage: unknown = null;
  // Requests of the agent's own (titles, probes) may still be ending: until both sides agree, or a few seconds.
  for (let i = 0; i < 20; i++) {
    usage = JSON.parse(JSON.stringify(model.usage));
    status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
    if (JSON.stringify(status.usage) === JSON.stringify(usage)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const w = await runChild(process.execPath, ["dist/cli.mjs", "watch", "--once", "--port", String(port)], process.cwd(), { ...process.env, COLUMNS: "140" }, 20_000);
  return { frame: w.out, status, usage };
}

async function throughTheProxy(name: string, agent: string[]): Promise<void> {
  install();
  const port = await freePort();
  let looked: Looked | null = null;
  const model = await mockModel(8, { beforeFinal: async () => void (looked = await look(port, model)) });
  const home = mkdtempSync(join(tmpdir(), `cliff-${name}-home-`));
  const env = {
    ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "",
  };
  const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--port", String(port), "--anthropic-upstream", model.url, "--openai-upstream", model.url + "/v1", "--threshold", "12000", "--keep-recent", "1", "--", ...agent], process.cwd(), env, 120_000);
  model.close();
  const posts = model.seen.filter((s) => s.body.length > 0);
  const compacted = posts.filter((s) => s.body.includes(SUMMARY_HEADER));
  console.log(`${name}: exit ${r.code}, ${posts.length} model requests, ${compacted.length} compacted; agent said ${JSON.stringify(r.out.trim().slice(-40))}\n${r.err.split("\n").filter((l) => l.startsWith("cliffcompaction")).join("\n")}`);
  expect(r.timedOut, `${name} did not finish within 120 s; its last output:\n${r.err.slice(-2000)}`).toBe(false);
  expect(r.code, r.err.slice(-2000)).toBe(0);
  expect(r.out).toContain("ALL DONE");
  expect(compacted.length).toBeGreaterThan(0);
  expect(posts.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
  const seen = looked as Looked | null;
  expect(seen, "the model's final answer was never held").not.toBeNull();
  console.log(`${name}: watch --once while the final answer waited:\n${seen!.frame}`);
  expect(seen!.status.usage).toEqual(seen!.usage);
  const withCliffs = seen!.status.sessions.filter((s: any) => s.cliffs > 0);
  expect(withCliffs.length).toBeGreaterThan(0);
  for (const s of withCliffs) {
    const row = seen!.frame.split("\n").find((l) => l.slice(2).startsWith(s.id));
    expect(row, `no row for session ${s.id}`).toBeDefined();
    expect(row).toContain("×");
    expect(row).toMatch(new RegExp(` ${s.cliffs} +(—|\\d+%) `));
  }
}

describe("real agents through cliffcompaction run", () => {
  it("Codex CLI (API-key mode)", async () => {
    await throughTheProxy("codex", [CODEX, "-c", "features.plugins=false", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "Print the numbers with seq, several times, then say ALL DONE."]);
  });

  it("Claude Code", async () => {
    await throughTheProxy("claude", [CLAUDE, "-p", "Print the numbers with seq, several times, then say ALL DONE.", "--allowedTools", "Bash", "--output-format", "text"]);
  });
});

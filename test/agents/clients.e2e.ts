/**
 * Opt-in (`npm run test:agents`): the real OpenCode and GitHub Copilot CLI from the registry, each
 * through `cliffcompaction run` against a scripted model on 127.0.0.1 (paired-model.ts) that holds
 * every request to its API's pairing rules. OpenCode: Anthropic Messages with an API key, and
 * Responses signed in with ChatGPT (to a stand-in for ChatGPT's Codex backend). Copilot CLI:
 * Responses signed in with GitHub (stand-ins for the GitHub API's account answer, through
 * `COPILOT_DEBUG_GITHUB_API_URL`, and for the Copilot API's model catalog), and Chat Completions with
 * a provider of the user's own (BYOK, offline mode). Each task is 24 shell calls, then a final
 * text; the proxy's threshold is low enough for several cliffs. Each client must finish with exit 0
 * and the model must have accepted every request; while the model holds its final answer,
 * `/_cliff/status` must show the client's session with its cliffs and its bill, and its usage must
 * be the usage the model reported (`watch --once` is printed then). OpenCode's own export of the
 * session is then read by the OpenCode reader, every call with its result. The clients are
 * installed once into a folder in the temporary directory.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { pairedModel, type PairedModel, type PairedOptions, type PairedSeen } from "./paired-model.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";
import { readSession } from "../../cli/readers/index.js";

const CLIENTS = join(tmpdir(), "cliffcompaction-agents-clients");
const VERSIONS = { opencode: "opencode-ai@1.18.33", copilot: "@github/copilot@1.0.102" };
const OPENCODE = join(CLIENTS, "node_modules", ".bin", "opencode");
const COPILOT = join(CLIENTS, "node_modules", ".bin", "copilot");
const CLI = resolve("dist/cli.mjs");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
const CALLS = 24;

function install(): void {
  if (existsSync(OPENCODE) && existsSync(COPILOT)) return;
  installFromRegistry(CLIENTS, [VERSIONS.opencode, VERSIONS.copilot], "the clients");
}

interface Looked {
  status: any;
  usage: unknown;
  /** `watch --once` at that moment. */
  frame: string;
}

interface ClientRun {
  code: number | null;
  timedOut: boolean;
  out: string;
  err: string;
  home: string;
  work: string;
  posts: PairedSeen[];
  looked: Looked | null;
}

/** The status while the model holds the final answer, once it counts every answer the model sent (a title request may still be ending). */
async function look(port: number, model: PairedModel, home: string): Promise<Looked> {
  let status: any = null;
  let usage: unknown = null;
  for (let i = 0; i < 20; i++) {
    usage = JSON.parse(JSON.stringify(model.usage));
    status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
    if (JSON.stringify(status.usage) === JSON.stringify(usage)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  // watch reads the admin token `run` wrote in the agent's home, as the user's own terminal would.
  const w = await runChild(process.execPath, [CLI, "watch", "--once", "--port", String(port)], process.cwd(), { ...process.env, HOME: home, XDG_STATE_HOME: "", COLUMNS: "120" }, 20_000);
  return { status, usage, frame: w.out };
}

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");

/** OpenCode signed in with ChatGPT as `opencode auth login` leaves it: JWT-shaped tokens (unsigned) with the account claim, valid for a month. */
function chatgptSignIn(home: string): void {
  const exp = Math.floor(Date.now() / 1000) + 30 * 86400;
  const jwt = `${b64({ alg: "none", typ: "JWT" })}.${b64({ exp, "https://api.openai.com/auth": { chatgpt_account_id: "acct-test-123" } })}.c2ln`;
  mkdirSync(join(home, ".local", "share", "opencode"), { recursive: true });
  writeFileSync(join(home, ".local", "share", "opencode", "auth.json"), JSON.stringify({ openai: { type: "oauth", access: jwt, refresh: "rt-test", expires: exp * 1000, accountId: "acct-test-123" } }));
}

async function session(name: string, model: Omit<PairedOptions, "beforeFinal">, run: (url: string) => string[], agent: string[], env: (url: string) => Record<string, string>, prepare?: (home: string) => void): Promise<ClientRun> {
  install();
  const port = await freePort();
  let looked: Looked | null = null;
  const m: PairedModel = await pairedModel({ ...model, beforeFinal: async () => void (looked = await look(port, m, home)) });
  const home = mkdtempSync(join(tmpdir(), `cliff-${name}-home-`));
  const work = mkdtempSync(join(tmpdir(), `cliff-${name}-work-`));
  prepare?.(home);
  // OpenCode takes its project folder from PWD.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PWD: work, HOME: home, XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", XDG_STATE_HOME: "", ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "", OPENCODE_CONFIG_CONTENT: "", COPILOT_API_URL: "", ...env(m.url) };
  const r = await runChild(process.execPath, [CLI, "run", "--port", String(port), ...run(m.url), "--", ...agent], work, childEnv, 300_000);
  m.close();
  const posts = m.seen.filter((s) => s.api !== null);
  const c: ClientRun = { code: r.code, timedOut: r.timedOut, out: r.out, err: r.err, home, work, posts, looked };
  const order = posts.map((p) => (p.broken !== null ? "R" : p.step < 0 ? "s" : p.body.includes(SUMMARY_HEADER) ? "c" : ".")).join("");
  console.log(`${name}: exit ${r.code}, ${posts.length} model requests (. plain, c compacted, s side call, R refused: ${order}); said ${JSON.stringify(r.out.trim().slice(-40))}\n${r.err.split("\n").filter((l) => l.startsWith("cliffcompaction")).join("\n")}`);
  return c;
}

/** The client finished; the model accepted every request; 20+ calls; the status showed its session with 2+ cliffs and a bill, and the usage the model reported. */
function expectFinished(run: ClientRun): void {
  expect(run.timedOut, run.err.slice(-2000)).toBe(false);
  expect(run.code, run.err.slice(-2000)).toBe(0);
  expect(run.out).toContain("ALL DONE");
  expect(run.posts.filter((p) => p.broken !== null).map((p) => p.broken)).toEqual([]);
  expect(Math.max(...run.posts.map((p) => p.step))).toBe(CALLS);
  expect(run.posts.filter((p) => p.body.includes(SUMMARY_HEADER)).length).toBeGreaterThan(0);
  const seen = run.looked;
  expect(seen, "the model's final answer was never held").not.toBeNull();
  console.log(`status while the final answer waited: ${JSON.stringify(seen!.status.sessions.map((s: any) => ({ id: s.id, model: s.model, requests: s.requests, cliffs: s.cliffs, dollars: s.dollars, bills: s.ledger.bills.length, netDollars: s.ledger.netDollars })))}`);
  console.log(`watch --once while the final answer waited:\n${seen!.frame}`);
  expect(seen!.status.usage).toEqual(seen!.usage);
  const withCliffs = seen!.status.sessions.filter((s: any) => s.cliffs >= 2);
  expect(withCliffs.length).toBeGreaterThan(0);
  for (const s of withCliffs) {
    expect(s.requests).toBeGreaterThanOrEqual(CALLS);
    // Its bill: what its requests cost at the model's prices, and each cliff's own bill, priced.
    expect(s.dollars).toBeGreaterThan(0);
    expect(s.ledger.bills).toHaveLength(s.cliffs);
    expect(typeof s.ledger.netDollars).toBe("number");
  }
}

/** A threshold a few calls above what the client sends before its first call (OpenCode's tools and prompt: 7.7k tokens; Copilot's: 13k). */
const low = (threshold: number): string[] => ["--threshold", String(threshold), "--keep-recent", "1"];

describe("OpenCode and Copilot CLI through cliffcompaction run", () => {
  it("OpenCode (Anthropic, API key): 24 calls, every request paired, cliffs and a bill in the status; its export read with every call and result", async () => {
    const run = await session(
      "opencode",
      { calls: CALLS, command: (step) => `seq ${step + 1} ${step + 400}` },
      (url) => ["--anthropic-upstream", url, ...low(10_000)],
      [OPENCODE, "run", "-m", "anthropic/claude-sonnet-4-5", PROMPT],
      () => ({ ANTHROPIC_API_KEY: "sk-ant-test", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" }),
    );
    expectFinished(run);
    for (const p of run.posts) expect(p.headers["x-api-key"]).toBe("sk-ant-test");
    // OpenCode's own record of the session, as `opencode export` writes it, read by the reader.
    const env = { ...process.env, PWD: run.work, HOME: run.home, XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", OPENCODE_DISABLE_MODELS_FETCH: "1" };
    // Standard input closed: OpenCode's commands wait on an open one.
    const list = spawnSync(OPENCODE, ["session", "list"], { cwd: run.work, env, encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
    const id = /ses_\w+/.exec(list.stdout + list.stderr)?.[0];
    expect(id, list.stdout + list.stderr).toBeDefined();
    const exported = spawnSync(OPENCODE, ["export", id!], { cwd: run.work, env, encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
    const s = readSession(exported.stdout, "opencode-export.json");
    expect([s.format, s.dialect]).toEqual(["opencode", "anthropic"]);
    const msgs = s.messages as any[];
    const uses = msgs.flatMap((m) => (m.role === "assistant" ? m.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id) : []));
    const results = msgs.flatMap((m) => (m.role === "user" && Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result").map((b: any) => b.tool_use_id) : []));
    expect(uses).toHaveLength(CALLS);
    expect(results).toEqual(uses);
  });

  it("OpenCode signed in with ChatGPT (auth.json OAuth), through the proxy's Codex backend path to a stand-in for ChatGPT: Responses paired, its token passed on", async () => {
    const run = await session(
      "opencode-chatgpt",
      { calls: CALLS, command: (step) => `seq ${step + 1} ${step + 400}` },
      (url) => ["--chatgpt-upstream", url, ...low(10_000)],
      [OPENCODE, "run", "-m", "openai/gpt-5.4", PROMPT],
      () => ({ OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" }),
      chatgptSignIn,
    );
    expect(run.err).toMatch(/^cliffcompaction: OpenCode is signed in with ChatGPT/m);
    expectFinished(run);
    for (const p of run.posts) {
      expect(p.path).toBe("/backend-api/codex/responses");
      expect(p.headers.authorization).toMatch(/^Bearer eyJ/);
      expect(p.headers["chatgpt-account-id"]).toBe("acct-test-123");
    }
  });

  it("Copilot CLI signed in with GitHub (COPILOT_GITHUB_TOKEN), to stand-ins for the GitHub API and the Copilot API: Responses paired, its token passed on", async () => {
    const token = "gho_abcdefghijklmnopqrstuvwxyz0123456789";
    // The Copilot API's model catalog and the GitHub API's account answer, as far as Copilot CLI reads them.
    const catalog = [{ id: "gpt-5.4", name: "GPT-5.4", object: "model", vendor: "OpenAI", version: "gpt-5.4", preview: false, model_picker_enabled: true, is_chat_default: true, supported_endpoints: ["/chat/completions", "/responses"], policy: { state: "enabled", terms: "" }, billing: { is_premium: false, multiplier: 0 }, capabilities: { family: "gpt-5.4", type: "chat", object: "model_capabilities", tokenizer: "o200k_base", limits: { max_context_window_tokens: 400000, max_output_tokens: 128000, max_prompt_tokens: 272000 }, supports: { streaming: true, tool_calls: true, parallel_tool_calls: true, structured_outputs: true } } }];
    const extra: Record<string, unknown> = {};
    const run = await session(
      "copilot-github",
      { calls: CALLS, command: (step) => `seq ${step + 1} ${step + 1500}`, models: catalog, extra },
      () => low(20_000),
      [COPILOT, "-p", PROMPT, "--model", "gpt-5.4", "--allow-all-tools", "-s"],
      (url) => {
        extra["/copilot_internal/user"] = { login: "octo", copilot_plan: "individual", chat_enabled: true, access_type_sku: "free_limited_copilot", endpoints: { api: url }, organization_login_list: [], organization_list: [] };
        return { COPILOT_GITHUB_TOKEN: token, COPILOT_API_URL: url, COPILOT_DEBUG_GITHUB_API_URL: url, COPILOT_AUTO_UPDATE: "false", COPILOT_PROVIDER_BASE_URL: "" };
      },
    );
    expect(run.err).toMatch(/OpenAI → http:\/\/127\.0\.0\.1:\d+\//);
    expectFinished(run);
    for (const p of run.posts) {
      expect(p.path).toBe("/responses");
      expect(p.headers.authorization).toBe(`Bearer ${token}`);
    }
  });

  it("Copilot CLI (BYOK, Chat Completions, offline): 24 calls, every request paired, cliffs and a bill in the status", async () => {
    const run = await session(
      "copilot",
      // Copilot keeps a shell output of more than about 20 KB out of the request (a file and a preview): these stay in.
      { calls: CALLS, command: (step) => `seq ${step + 1} ${step + 1500}` },
      () => low(20_000),
      [COPILOT, "-p", PROMPT, "--allow-all-tools", "-s"],
      (url) => ({ COPILOT_OFFLINE: "true", COPILOT_PROVIDER_BASE_URL: `${url}/v1`, COPILOT_PROVIDER_API_KEY: "sk-byok-test", COPILOT_PROVIDER_TYPE: "openai", COPILOT_MODEL: "gpt-5.4", COPILOT_AUTO_UPDATE: "false" }),
    );
    expect(run.err).toMatch(/OpenAI → http:\/\/127\.0\.0\.1:\d+\/v1/);
    expectFinished(run);
    for (const p of run.posts) {
      expect(p.path).toBe("/v1/chat/completions");
      expect(p.headers.authorization).toBe("Bearer sk-byok-test");
    }
  });
});

/**
 * Opt-in (`npm run test:agents`): the real Claude Code and Codex CLI from the registry, each run
 * through `cliffcompaction run` against a scripted model on 127.0.0.1 that answers with shell tool
 * calls (large outputs) until the history has crossed the threshold many times over, then a final
 * text. Each agent must finish with exit 0; the model must have seen compacted requests and no
 * summarisation request. The agents sign in as users do: API keys, a Claude subscription token, a
 * ChatGPT sign-in (an `auth.json` whose tokens never need refreshing). The defaults are tried end to
 * end too: no threshold flag, a model with a 200k window that refuses what exceeds it, a session long
 * enough that the agent alone compacts (the control run, without the proxy). Every run is kept in
 * `runs`. While the model holds its final answer, `watch --once` must show the agent's session with
 * its cliffs and `/_cliff/status` the usage the model reported. The agents are installed once into
 * a folder in the temporary directory.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatgptSignIn, installFromRegistry } from "./registry-install.js";
import { mockModel, SUMMARISING, type MockModel, type MockOptions, type Seen } from "./mock-model.js";
import { runChild } from "../helpers/child.js";
import { chatgptSettings } from "../../node/clients/codex.js";
import { modelFacts } from "../../core/models/index.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const VERSIONS = { claude: "@anthropic-ai/claude-code@2.1.332", codex: "@openai/codex@0.171.0" };
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const CODEX = join(AGENTS, "node_modules", ".bin", "codex");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
const CLAUDE_ARGS = [CLAUDE, "-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text"];
const CODEX_ARGS = [CODEX, "-c", "features.plugins=false", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", PROMPT];

/** One agent session and what the model saw of it. */
export interface AgentRun {
  name: string;
  code: number | null;
  timedOut: boolean;
  out: string;
  err: string;
  home: string;
  /** The proxy's log file (none for a control run). */
  log: string | undefined;
  posts: Seen[];
  compacted: Seen[];
  summarising: Seen[];
  /** What the proxy showed while the model held its final answer (runs through the proxy). */
  looked: Looked | null;
}

interface Looked {
  frame: string;
  status: any;
  usage: unknown;
}

/** Every run so far, in order: later checks read what the sessions left behind. */
export const runs: AgentRun[] = [];

interface Scenario {
  name: string;
  agent: string[];
  model: MockOptions;
  /** Flags for `cliffcompaction run`, given the model's URL; absent: a control run, the agent pointed at the model directly. */
  run?: (url: string) => string[];
  /** How a control run points the agent at the model (arguments after the command, variables). */
  direct?: (url: string) => { args?: string[]; env?: Record<string, string> };
  env?: Record<string, string | undefined>;
  /** Sign-in files and settings in the agent's home. */
  prepare?: (home: string) => void;
  timeoutMs?: number;
}

function install(): void {
  if (existsSync(CLAUDE) && existsSync(CODEX)) return;
  installFromRegistry(AGENTS, [VERSIONS.claude, VERSIONS.codex], "the agents");
}

/** What the proxy shows while the model holds its final answer: a watch frame, and its status beside the usage the model reported. */
async function look(port: number, model: { usage: unknown }, home: string): Promise<Looked> {
  let status: any = null;
  let usage: unknown = null;
  // Requests of the agent's own (titles, probes) may still be ending: until both sides agree, or a few seconds.
  for (let i = 0; i < 20; i++) {
    usage = JSON.parse(JSON.stringify(model.usage));
    status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
    if (JSON.stringify(status.usage) === JSON.stringify(usage)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  // watch reads the admin token `run` wrote in the agent's home, as the user's own terminal would.
  const w = await runChild(process.execPath, ["dist/cli.mjs", "watch", "--once", "--port", String(port)], process.cwd(), { ...process.env, HOME: home, XDG_STATE_HOME: "", COLUMNS: "140" }, 20_000);
  return { frame: w.out, status, usage };
}

const isSummarising = (s: Seen): boolean => s.path.split("?")[0].endsWith("/responses/compact") || SUMMARISING.test(s.body);

async function session(s: Scenario): Promise<AgentRun> {
  install();
  const port = await freePort();
  let looked: Looked | null = null;
  const through = s.run !== undefined;
  const model: MockModel = await mockModel({ ...s.model, beforeFinal: through ? async () => void (looked = await look(port, model, home)) : undefined });
  const home = mkdtempSync(join(tmpdir(), `cliff-${s.name.replace(/\W+/g, "-")}-home-`));
  // Codex refuses a CODEX_HOME that does not exist.
  mkdirSync(join(home, ".codex"));
  s.prepare?.(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env, HOME: home, CODEX_HOME: join(home, ".codex"), IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "",
  };
  for (const [k, v] of Object.entries(s.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const direct = s.run === undefined ? s.direct?.(model.url) ?? {} : {};
  // Through run the agent's own compaction would be answered by the proxy: off, so that any such request shows at the model.
  const [command, ...args] = s.run === undefined ? [s.agent[0], ...(direct.args ?? []), ...s.agent.slice(1)] : [process.execPath, "dist/cli.mjs", "run", "--port", String(port), "--no-answer-compaction", ...s.run(model.url), "--", ...s.agent];
  const r = await runChild(command, args, process.cwd(), { ...env, ...direct.env }, s.timeoutMs ?? 180_000);
  model.close();
  const posts = model.seen.filter((x) => x.body.length > 0 && /\/(messages|responses)(\/compact)?$/.test(x.path.split("?")[0]));
  const run: AgentRun = {
    name: s.name, code: r.code, timedOut: r.timedOut, out: r.out, err: r.err, home,
    log: /log: ([^\s;]+)/.exec(r.err)?.[1],
    posts, compacted: posts.filter((x) => x.body.includes(SUMMARY_HEADER)), summarising: posts.filter(isSummarising), looked,
  };
  runs.push(run);
  const refused = posts.filter((x) => x.refused).length;
  const order = posts.map((x) => (x.refused ? "R" : isSummarising(x) ? "S" : x.body.includes(SUMMARY_HEADER) ? "c" : ".")).join("");
  const top = Math.max(0, ...posts.map((x) => x.tokens));
  const first = posts.findIndex((x) => x.refused || isSummarising(x));
  const before = Math.max(0, ...posts.slice(0, first < 0 ? posts.length : first).map((x) => x.tokens));
  console.log(`${s.name}: exit ${r.code}, ${posts.length} model requests (largest ${top.toLocaleString("en-US")} tokens; before any refusal or summarisation ${before.toLocaleString("en-US")}), ${run.compacted.length} compacted, ${run.summarising.length} summarisation requests, ${refused} refused (in order, . plain, c compacted, R refused, S summarisation: ${order}); agent said ${JSON.stringify(r.out.trim().slice(-40))}\n${r.err.split("\n").filter((l) => l.startsWith("cliffcompaction")).join("\n")}`);
  return run;
}

/** The agent finished, the model saw compacted requests before any refusal, and never a summarisation request. */
function expectCompacted(run: AgentRun): void {
  expect(run.timedOut, `${run.name} did not finish in time; its last output:\n${run.err.slice(-2000)}`).toBe(false);
  expect(run.code, run.err.slice(-2000)).toBe(0);
  expect(run.out).toContain("ALL DONE");
  expect(run.compacted.length).toBeGreaterThan(0);
  expect(run.posts.filter((x) => x.refused)).toEqual([]);
  expect(run.summarising.map((x) => x.path)).toEqual([]);
  expectWatched(run);
}

/** While the final answer waited, the status counted the usage the model reported, and watch showed every session with cliffs. */
function expectWatched(run: AgentRun): void {
  const seen = run.looked;
  expect(seen, "the model's final answer was never held").not.toBeNull();
  console.log(`${run.name}: watch --once while the final answer waited:\n${seen!.frame}`);
  expect(seen!.status.usage).toEqual(seen!.usage);
  const withCliffs = seen!.status.sessions.filter((s: any) => s.cliffs > 0);
  expect(withCliffs.length).toBeGreaterThan(0);
  for (const s of withCliffs) {
    const row = seen!.frame.split("\n").find((l) => l.slice(2).startsWith(s.id));
    expect(row, `no row for session ${s.id}`).toBeDefined();
    expect(row).toContain("×");
    // CLIFFS, then RECALLS ("0", or "2 (6.9k)"), then HIT.
    expect(row).toMatch(new RegExp(` ${s.cliffs} +${s.recalls.calls}( \\([^)]*\\))? +(—|\\d+%) `));
  }
}

const LOW = ["--threshold", "12000", "--keep-recent", "1"];

describe("real agents through cliffcompaction run", () => {
  // Codex first: after Claude Code in the same run, Codex 0.171's API-key mode stalls in its WebSocket fallback.
  it("Codex CLI (API key)", async () => {
    expectCompacted(await session({ name: "codex", agent: CODEX_ARGS, model: { calls: 8 }, run: (url) => ["--anthropic-upstream", url, "--openai-upstream", url + "/v1", ...LOW] }));
  });

  it("Claude Code (API key)", async () => {
    expectCompacted(await session({ name: "claude", agent: CLAUDE_ARGS, model: { calls: 8 }, run: (url) => ["--anthropic-upstream", url, ...LOW] }));
  });

  it("Claude Code signed in with a subscription (CLAUDE_CODE_OAUTH_TOKEN, no API key)", async () => {
    const token = "sk-ant-oat01-test-subscription-token";
    const run = await session({ name: "claude-oauth", agent: CLAUDE_ARGS, model: { calls: 8 }, env: { ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_OAUTH_TOKEN: token }, run: (url) => ["--anthropic-upstream", url, ...LOW] });
    expectCompacted(run);
    for (const p of run.posts) {
      expect(p.headers.authorization).toBe(`Bearer ${token}`);
      expect(p.headers["x-api-key"]).toBeUndefined();
    }
  });

  it("Codex signed in with ChatGPT (auth.json), to a stand-in for the ChatGPT backend", async () => {
    const run = await session({ name: "codex-chatgpt", agent: CODEX_ARGS, model: { calls: 8 }, env: { OPENAI_API_KEY: undefined }, prepare: chatgptSignIn, run: (url) => ["--chatgpt-upstream", url, ...LOW] });
    expectCompacted(run);
    expect(new Set(run.posts.map((p) => p.path))).toEqual(new Set(["/backend-api/codex/responses"]));
    for (const p of run.posts) {
      expect(p.headers["chatgpt-account-id"]).toBe("acct-test-123");
      expect(p.headers.authorization).toMatch(/^Bearer eyJ/);
      expect(p.headers.originator).toBeTruthy();
      expect(p.headers["session-id"]).toBeTruthy();
    }
  });
});

/**
 * The defaults, end to end: no threshold flag, a model that reports usage from the body's size and
 * refuses what exceeds a 200k window, and a session long enough that the agent alone compacts.
 */
describe("the defaults, against a 200k window", () => {
  const WINDOW = 200_000;
  const CALLS = 30;

  // A model Claude Code knows to have a 200k window, so that its own auto-compaction is sized for it.
  const CLAUDE_200K = [...CLAUDE_ARGS, "--model", "claude-sonnet-4-5"];

  it("Claude Code alone compacts with its own summarisation request (the control run)", async () => {
    const run = await session({ name: "claude-control", agent: CLAUDE_200K, model: { calls: CALLS, window: WINDOW }, direct: (url) => ({ env: { ANTHROPIC_BASE_URL: url } }), timeoutMs: 400_000 });
    expect(run.summarising.length + run.posts.filter((x) => x.refused).length).toBeGreaterThan(0);
  });

  it("Claude Code through run with no threshold flag: compacted before any refusal, never its own summarisation", async () => {
    expectCompacted(await session({ name: "claude-defaults", agent: CLAUDE_200K, model: { calls: CALLS, window: WINDOW }, run: (url) => ["--anthropic-upstream", url], timeoutMs: 400_000 }));
  });

  // Codex is told the window it would know for such a model, so its own limit (model_auto_compact_token_limit) follows from it.
  const CODEX_WINDOW = ["-c", `model_context_window=${WINDOW}`];

  it("Codex alone compacts with its own summarisation request (the control run)", async () => {
    const direct = (url: string) => ({ args: [...CODEX_WINDOW, ...chatgptSettings(url).flatMap(([k, v]) => ["-c", `${k}=${v}`])] });
    const run = await session({ name: "codex-control", agent: CODEX_ARGS, model: { calls: CALLS, window: WINDOW }, env: { OPENAI_API_KEY: undefined }, prepare: chatgptSignIn, direct, timeoutMs: 400_000 });
    expect(run.summarising.length).toBeGreaterThan(0);
  });

  // Through the proxy Codex is told the window the model-facts table gives its model (Codex
  // 0.171.0's default, gpt-6.2-sol: 922K), as the proxy's default threshold is: pinned at 200k,
  // Codex would summarise at 171k, under the threshold that model gets (200,000). The session is
  // made long enough to cross that threshold.
  const CODEX_MODEL_WINDOW = modelFacts("gpt-6.2-sol")!.window;

  it("Codex through run with no threshold flag: compacted before any refusal, never its own summarisation", async () => {
    const agent = [CODEX, "-c", `model_context_window=${CODEX_MODEL_WINDOW}`, ...CODEX_ARGS.slice(1)];
    expectCompacted(await session({ name: "codex-defaults", agent, model: { calls: 45, window: CODEX_MODEL_WINDOW }, env: { OPENAI_API_KEY: undefined }, prepare: chatgptSignIn, run: (url) => ["--chatgpt-upstream", url], timeoutMs: 400_000 }));
  });
});

/**
 * Opt-in (`npm run test:agents`): a recall after two cliffs, with the real Codex CLI 0.171, Claude
 * Code 2.1.332 (its default permission mode: only Bash allowed, no file read), OpenCode 1.18.33,
 * Copilot CLI 1.0.102 (Chat Completions, BYOK) and Gemini CLI 0.61 (with an API key, and signed in
 * with Google: Code Assist's envelope) through `cliffcompaction run` at a low threshold. The
 * scripted model answers with shell calls whose outputs cross the threshold again and again; once two different cliff summaries have reached it, it calls
 * `cliff_recall` with the oldest ref the current summary names, whose text it kept from the request
 * that held it whole. The proxy answers from the request it serves: the text must come back byte for
 * byte, the agent must finish with exit 0 and the final answer, and the client must never have seen
 * the call (its next request holds the recall line, no `cliff_recall` call; its output no tool name).
 */
import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { recallCallsIn, recallScript, RECALL, SUMMARY_HEADER, type RecallScript } from "./recall-script.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const VERSIONS = { claude: "@anthropic-ai/claude-code@2.1.332", codex: "@openai/codex@0.171.0" };
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const CODEX = join(AGENTS, "node_modules", ".bin", "codex");
const CLIENTS = join(tmpdir(), "cliffcompaction-agents-clients");
const OPENCODE = join(CLIENTS, "node_modules", ".bin", "opencode");
const COPILOT = join(CLIENTS, "node_modules", ".bin", "copilot");
const GEMINI_DIR = join(tmpdir(), "cliffcompaction-agents-gemini");
const GEMINI = join(GEMINI_DIR, "node_modules", ".bin", "gemini");
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
const low = (threshold: number): string[] => ["--threshold", String(threshold), "--keep-recent", "1"];

function install(): void {
  if (!existsSync(CLAUDE) || !existsSync(CODEX)) installFromRegistry(AGENTS, [VERSIONS.claude, VERSIONS.codex], "the agents");
  if (!existsSync(OPENCODE) || !existsSync(COPILOT)) installFromRegistry(CLIENTS, ["opencode-ai@1.18.33", "@github/copilot@1.0.102"], "OpenCode and Copilot CLI");
  // The optional native modules (a pty, the keychain) are not needed headless.
  if (!existsSync(GEMINI)) installFromRegistry(GEMINI_DIR, ["@google/gemini-cli@0.61.0"], "Gemini CLI", ["--omit=optional"]);
}

/** Gemini CLI signed in (`gemini-api-key`, or `oauth-personal`: with Google), its settings as `gemini` leaves them after choosing, asking nothing. */
const geminiHome = (selectedType: string) => (home: string): void => {
  mkdirSync(join(home, ".gemini"));
  const settings = { security: { auth: { selectedType }, folderTrust: { enabled: false } }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true } };
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
};

interface SessionOptions {
  /** Variables for the agent, given the model's URL. */
  env?: (url: string) => Record<string, string>;
  /** Lines of each shell output (21 characters each). */
  lines?: number;
  /** The proxy's threshold: a few calls above what the client sends before its first call. */
  threshold?: number;
  /** The agent's own settings written into its home. */
  home?: (home: string) => void;
  /** What the proxy shows while the model holds its final answer: a `watch --once` frame and the status. */
  look?: boolean;
}

interface Run {
  code: number | null;
  timedOut: boolean;
  out: string;
  err: string;
  model: RecallScript;
  looked?: { frame: string; status: any };
}

async function session(name: string, agent: string[], upstream: (url: string) => string[], o: SessionOptions = {}): Promise<Run> {
  install();
  const port = await freePort();
  const home = mkdtempSync(join(tmpdir(), `cliff-recall-${name}-home-`));
  let looked: Run["looked"];
  const look = async (): Promise<void> => {
    const status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
    const w = await runChild(process.execPath, [resolve("dist/cli.mjs"), "watch", "--once", "--port", String(port)], process.cwd(), { ...process.env, HOME: home, XDG_STATE_HOME: "" }, 20_000);
    looked = { frame: w.out, status };
  };
  const model = await recallScript(o.lines, undefined, undefined, o.look === true ? look : undefined);
  const work = mkdtempSync(join(tmpdir(), `cliff-recall-${name}-work-`));
  mkdirSync(join(home, ".codex"));
  o.home?.(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env, HOME: home, CODEX_HOME: join(home, ".codex"), IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ANTHROPIC_API_KEY: "sk-ant-test", OPENAI_API_KEY: "sk-test", ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "",
    // OpenCode takes its project folder from PWD.
    PWD: work, XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", XDG_STATE_HOME: "", OPENCODE_CONFIG_CONTENT: "", ...o.env?.(model.url),
  };
  const args = [resolve("dist/cli.mjs"), "run", "--port", String(port), "--no-answer-compaction", ...upstream(model.url), ...low(o.threshold ?? 12_000), "--", ...agent];
  const r = await runChild(process.execPath, args, work, env, 300_000);
  model.close();
  const compacted = model.seen.filter((s) => s.body.includes(SUMMARY_HEADER)).length;
  const rec = model.recalls[0];
  console.log(`${name} recall: exit ${r.code}, ${model.seen.length} model requests, ${compacted} compacted, ${model.refused.length} refused, ${model.summaries.length} distinct cliff summaries, ${model.recalls.length} recall(s)${rec === undefined ? "" : ` after ${rec.afterCliffs} cliffs, of ref ${rec.ref}: ${rec.expected.length} chars expected, ${rec.got.length} received in ${rec.pages} page(s), identical ${rec.got === rec.expected}`}; agent said ${JSON.stringify(r.out.trim().slice(-80))}\n${r.err.split("\n").filter((l) => l.startsWith("cliffcompaction")).join("\n")}`);
  if (looked !== undefined) console.log(`${name}: watch --once while the model held its final answer:\n${looked.frame}`);
  return { code: r.code, timedOut: r.timedOut, out: r.out, err: r.err, model, looked };
}

function expectRecalled(run: Run): void {
  expect(run.timedOut, run.err.slice(-2000)).toBe(false);
  const { model } = run;
  expect(model.refused).toEqual([]);
  expect(model.summaries.length).toBeGreaterThanOrEqual(2);
  expect(model.recalls).toHaveLength(1);
  const rec = model.recalls[0];
  expect(rec.afterCliffs).toBeGreaterThanOrEqual(2);
  expect(rec.isError).toBe(false);
  // The ref the summary named is the one of the text the model kept.
  expect(createHash("sha256").update(rec.expected, "utf8").digest("hex").slice(0, 12)).toBe(rec.ref);
  // Longer than a page (20,000 characters), it comes back in two.
  expect(rec.expected.length).toBeGreaterThan(10_000);
  expect(rec.pages).toBe(rec.expected.length > 20_000 ? 2 : 1);
  expect(rec.got === rec.expected, `recalled ${rec.got.length} chars, expected ${rec.expected.length}`).toBe(true);
  expect(run.code, run.err.slice(-2000)).toBe(0);
  expect(run.out).toContain(`ALL DONE: recalled ${rec.ref}, ${rec.expected.length} chars, byte for byte`);
  // The client's next request holds what it received of the recall turn: the line, no call of the tool.
  expect(model.after).toHaveLength(1);
  const after = model.seen.find((s) => s.body === model.after[0])!;
  expect(recallCallsIn(after.path, after.body)).toBe(0);
  expect(after.body).toContain(`[cliffcompaction recalled ref ${rec.ref}`);
  expect(run.out).not.toContain(RECALL);
}

describe("a recall after two cliffs, answered by the proxy, through run", () => {
  it("Codex CLI 0.171 (API key)", async () => {
    const agent = [CODEX, "-c", "features.plugins=false", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", PROMPT];
    expectRecalled(await session("codex", agent, (url) => ["--openai-upstream", url + "/v1"]));
  });

  it("Claude Code 2.1.332 in its default permission mode; the status and watch count the recall against its cliff", async () => {
    const agent = [CLAUDE, "-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text"];
    const run = await session("claude", agent, (url) => ["--anthropic-upstream", url], { look: true });
    expectRecalled(run);
    // Each page is one call of the tool and one round upstream, counted against the cliff whose summary named the ref.
    const pages = run.model.recalls[0].pages;
    const mine = run.looked!.status.sessions.find((x: any) => x.recalls.calls > 0);
    expect(mine.recalls).toMatchObject({ calls: pages, rounds: pages });
    expect(mine.recalls.cliffs).toHaveLength(1);
    expect(run.looked!.status.recalls).toEqual({ calls: pages, rounds: pages, tokens: mine.recalls.tokens });
    expect(run.looked!.frame.split("\n").find((l) => l.includes(mine.id))).toMatch(new RegExp(` ${mine.cliffs} +${pages} \\([\\d.]+k\\) `));
  });

  it("OpenCode 1.18.33 (Anthropic, API key)", async () => {
    const agent = [OPENCODE, "run", "-m", "anthropic/claude-sonnet-4-5", PROMPT];
    expectRecalled(await session("opencode", agent, (url) => ["--anthropic-upstream", url], { env: () => ({ OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" }) }));
  });

  it("Copilot CLI 1.0.102 (BYOK, Chat Completions, offline)", async () => {
    const agent = [COPILOT, "-p", PROMPT, "--allow-all-tools", "-s"];
    const env = (url: string) => ({ COPILOT_OFFLINE: "true", COPILOT_API_URL: "", COPILOT_PROVIDER_BASE_URL: `${url}/v1`, COPILOT_PROVIDER_API_KEY: "sk-byok-test", COPILOT_PROVIDER_TYPE: "openai", COPILOT_MODEL: "gpt-5.4", COPILOT_AUTO_UPDATE: "false" });
    // Copilot keeps a shell output over about 20 KB out of the request: 900 lines (18,900 characters), one page.
    expectRecalled(await session("copilot", agent, () => [], { env, lines: 900, threshold: 20_000 }));
  });

  it("Gemini CLI 0.61 (API key, streamGenerateContent with alt=sse)", async () => {
    const agent = [GEMINI, "-p", PROMPT, "--approval-mode", "yolo", "-m", "gemini-3-flash-preview", "--output-format", "text"];
    const env = () => ({ GEMINI_API_KEY: "test-gemini-key", NO_COLOR: "1", GOOGLE_GEMINI_BASE_URL: "", GOOGLE_VERTEX_BASE_URL: "", CODE_ASSIST_ENDPOINT: "" });
    const run = await session("gemini", agent, (url) => ["--gemini-upstream", url], { env, home: geminiHome("gemini-api-key"), threshold: 14_000 });
    expectRecalled(run);
    // Gemini CLI streams: the recall went on inside the one stream it reads.
    expect(run.model.seen.filter((s) => s.path.endsWith(":streamGenerateContent")).length).toBeGreaterThan(0);
  });

  it("Gemini CLI 0.61 signed in with Google (Code Assist's envelope, streamed)", async () => {
    const agent = [GEMINI, "-p", PROMPT, "--approval-mode", "yolo", "-m", "gemini-3-flash-preview", "--output-format", "text"];
    // An access token in the environment stands for the sign-in: Gemini CLI asks Google nothing but who the user is, and goes on without the answer.
    const env = () => ({ GOOGLE_GENAI_USE_GCA: "true", GOOGLE_CLOUD_ACCESS_TOKEN: "ya29.cliff-test", GEMINI_API_KEY: "", NO_COLOR: "1", GOOGLE_GEMINI_BASE_URL: "", GOOGLE_VERTEX_BASE_URL: "", CODE_ASSIST_ENDPOINT: "" });
    const run = await session("gemini-code-assist", agent, (url) => ["--codeassist-upstream", url], { env, home: geminiHome("oauth-personal"), threshold: 14_000 });
    expectRecalled(run);
    const generate = run.model.seen.filter((s) => /\/v1internal:streamGenerateContent$/.test(s.path));
    expect(generate.length).toBeGreaterThanOrEqual(run.model.seen.length - 1);
    // The envelope went out as Gemini CLI wrote it, the recall tool inside its request.
    for (const s of generate) expect(Object.keys(JSON.parse(s.body)).sort()).toEqual(expect.arrayContaining(["model", "project", "request"]));
  });
});

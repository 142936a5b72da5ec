/**
 * Opt-in (`npm run test:agents`): the clients' own compaction answered by `cliffcompaction run`
 * (its default, `--answer-compaction`), against the scripted model on 127.0.0.1.
 *
 * Claude Code 2.1.332: a session that ran its task, then `claude --continue -p "/compact"` through
 * `run`: the compaction is answered by the proxy, the model gets no request at all, and the log says
 * `answered`; then `claude --continue` goes on from the proxy's summary (its first request carries
 * it) and finishes its task.
 *
 * Codex 0.169.0 and 0.171.0 (signed in with ChatGPT), told a small window so that they compact by
 * themselves mid-task: every compaction turn (`request_kind: "compaction"`) is answered by the
 * proxy and none reaches the model, the turns after it carry the proxy's summary, and Codex
 * finishes its task. Codex 0.169.0 and 0.171.0 with an API key and the scripted model as their OpenAI upstream
 * (not OpenAI's, said with --no-remote-compaction): its remote compaction v2 (`compaction_trigger`) is answered with a compaction item
 * of ours and the model receives the summary in its place. The control: with
 * `--no-answer-compaction` the same requests reach the model untouched.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatgptSignIn, installFromRegistry } from "./registry-install.js";
import { mockModel, SUMMARISING, type MockModel, type Seen } from "./mock-model.js";
import { runChild, type Finished } from "../helpers/child.js";

const SUMMARY_HEADER = "The following is a summary of your previous actions";
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
const CLAUDE_VERSION = "2.1.332";
const CODEX_VERSIONS = ["0.169.0", "0.171.0"];
/** Where the agents are installed once (CLIFF_AGENTS_DIR overrides it: a folder with one subfolder per package@version). */
const ROOT = process.env.CLIFF_AGENTS_DIR ?? join(tmpdir(), "cliffcompaction-agents-answer");

function installed(pkg: string, version: string, bin: string[]): string {
  const dir = join(ROOT, `${pkg.replace("/", "+")}@${version}`);
  const path = join(dir, "node_modules", ...bin);
  if (existsSync(path)) return path;
  installFromRegistry(dir, [`${pkg}@${version}`], `${pkg}@${version}`);
  if (!existsSync(path)) throw new Error(`could not install ${pkg}@${version} from the registry`);
  return path;
}

const baseEnv = (home: string): NodeJS.ProcessEnv => ({
  ...process.env, HOME: home, CODEX_HOME: join(home, ".codex"), IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "",
});

/** `cliffcompaction run` (answering on by default) around `agent`; its output and the proxy's log. */
async function run(flags: string[], agent: string[], home: string, env: NodeJS.ProcessEnv): Promise<Finished & { log: string }> {
  const r = await runChild(process.execPath, [join(process.cwd(), "dist/cli.mjs"), "run", ...flags, "--", ...agent], home, env, 300_000);
  const path = /log: ([^\s;]+)/.exec(r.err)?.[1];
  return { ...r, log: path !== undefined && existsSync(path) ? readFileSync(path, "utf8") : "" };
}

const posts = (m: MockModel, from = 0): Seen[] => m.seen.slice(from).filter((s) => s.body.length > 0 && /\/(messages|responses)(\/compact)?$/.test(s.path.split("?")[0]));
describe("a client's own compaction answered by run", () => {
  it(`Claude Code ${CLAUDE_VERSION}: /compact is answered by the proxy with no upstream request, and the session goes on from its summary to the end`, async () => {
    const claude = installed("@anthropic-ai/claude-code", CLAUDE_VERSION, ["@anthropic-ai", "claude-code", "bin", "claude.exe"]);
    const model = await mockModel({ calls: 4, lifetimeMs: 900_000 });
    const home = mkdtempSync(join(tmpdir(), "cliff-answer-claude-"));
    const env = { ...baseEnv(home), ANTHROPIC_API_KEY: "sk-ant-test" };
    const flags = ["--anthropic-upstream", model.url];
    try {
      const first = await run(flags, [claude, "-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text"], home, env);
      expect(first.code, first.err.slice(-2000)).toBe(0);
      expect(first.out).toContain("ALL DONE");
      const before = model.seen.length;
      const compacted = await run(flags, [claude, "--continue", "-p", "/compact", "--output-format", "text"], home, env);
      console.log(`claude /compact: exit ${compacted.code}; the model saw ${posts(model, before).length} requests; log:\n${compacted.log}`);
      expect(compacted.code, compacted.err.slice(-2000)).toBe(0);
      expect(posts(model, before)).toEqual([]);
      expect(compacted.log).toMatch(/anthropic \d+→0 msgs [\d,]+→0 tok answered \(a compaction request: claude-code\)/);
      const after = model.seen.length;
      const next = await run(flags, [claude, "--continue", "-p", "Print the numbers once more with seq, then say ALL DONE.", "--allowedTools", "Bash", "--output-format", "text"], home, env);
      expect(next.code, next.err.slice(-2000)).toBe(0);
      expect(next.out).toContain("ALL DONE");
      const resumed = posts(model, after);
      expect(resumed.length).toBeGreaterThan(0);
      // It goes on from the proxy's summary: the first request holds it, and not the old history.
      expect(resumed[0].body).toContain(SUMMARY_HEADER);
      expect(resumed[0].body).toContain("The task, as the user gave it");
      expect(resumed.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
    } finally {
      model.close();
    }
  });

  for (const version of CODEX_VERSIONS) {
    it(`Codex ${version}: every compaction turn is answered by the proxy, none reaches the model, and Codex finishes its task`, async () => {
      const codex = installed("@openai/codex", version, [".bin", "codex"]);
      const model = await mockModel({ calls: 10, lifetimeMs: 900_000 });
      const home = mkdtempSync(join(tmpdir(), "cliff-answer-codex-"));
      chatgptSignIn(home);
      const env = baseEnv(home);
      delete env.OPENAI_API_KEY;
      // A small window and limit, so that Codex compacts by itself several times in this short task.
      const agent = [codex, "-c", "features.plugins=false", "-c", "model_context_window=20000", "-c", "model_auto_compact_token_limit=6000", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", PROMPT];
      try {
        const r = await run(["--chatgpt-upstream", model.url], agent, home, env);
        const seen = posts(model);
        const kinds = seen.map((s) => /"request_kind":"(\w+)"/.exec(String(s.headers["x-codex-turn-metadata"] ?? ""))?.[1] ?? "?");
        const answered = (r.log.match(/answered \(a compaction request: codex\)/g) ?? []).length;
        console.log(`codex ${version}: exit ${r.code}; the model saw ${seen.length} requests (${kinds.join(" ")}); the proxy answered ${answered} compaction turn(s)`);
        expect(r.code, r.err.slice(-2000)).toBe(0);
        expect(r.out).toContain("ALL DONE");
        expect(answered).toBeGreaterThan(0);
        expect(kinds.filter((k) => k === "compaction")).toEqual([]);
        expect(seen.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
        // The turns after a compaction carry the proxy's summary in Codex's handoff message.
        expect(seen.some((s) => s.body.includes(SUMMARY_HEADER))).toBe(true);
      } finally {
        model.close();
      }
    });
  }

  for (const version of CODEX_VERSIONS) it(`Codex ${version} with an API key and an upstream that is not OpenAI's: its remote compaction (a compaction_trigger) is answered with a compaction item, and the turns after it reach the model with the summary`, async () => {
    const codex = installed("@openai/codex", version, [".bin", "codex"]);
    const model = await mockModel({ calls: 8, lifetimeMs: 900_000 });
    const home = mkdtempSync(join(tmpdir(), "cliff-answer-codex-key-"));
    mkdirSync(join(home, ".codex"), { recursive: true });
    const env = { ...baseEnv(home), OPENAI_API_KEY: "sk-test" };
    const agent = [codex, "-c", "features.plugins=false", "-c", "model_context_window=20000", "-c", "model_auto_compact_token_limit=6000", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", PROMPT];
    try {
      const r = await run(["--openai-upstream", model.url + "/v1", "--no-remote-compaction"], agent, home, env);
      const seen = posts(model);
      const answered = (r.log.match(/answered \(a compaction request: compaction-trigger\)/g) ?? []).length;
      console.log(`codex ${version} (API key): exit ${r.code}; the model saw ${seen.length} requests; the proxy answered ${answered} compaction trigger(s)`);
      expect(r.code, r.err.slice(-2000)).toBe(0);
      expect(r.err).not.toContain("expected exactly one compaction output item");
      expect(r.out).toContain("ALL DONE");
      expect(answered).toBeGreaterThan(0);
      expect(seen.filter((s) => s.body.includes("compaction_trigger"))).toEqual([]);
      expect(seen.some((s) => s.body.includes(SUMMARY_HEADER) && !s.body.includes("cliffcompaction-summary:"))).toBe(true);
    } finally {
      model.close();
    }
  });

  it("the control: with --no-answer-compaction, Claude Code's /compact and Codex's compaction turns reach the model, untouched", async () => {
    const claude = installed("@anthropic-ai/claude-code", CLAUDE_VERSION, ["@anthropic-ai", "claude-code", "bin", "claude.exe"]);
    const codex = installed("@openai/codex", CODEX_VERSIONS[CODEX_VERSIONS.length - 1], [".bin", "codex"]);
    const model = await mockModel({ calls: 10, lifetimeMs: 900_000 });
    try {
      const home = mkdtempSync(join(tmpdir(), "cliff-answer-control-"));
      const env = { ...baseEnv(home), ANTHROPIC_API_KEY: "sk-ant-test" };
      const flags = ["--anthropic-upstream", model.url, "--no-answer-compaction"];
      expect((await run(flags, [claude, "-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text"], home, env)).code).toBe(0);
      const before = model.seen.length;
      const compacted = await run(flags, [claude, "--continue", "-p", "/compact", "--output-format", "text"], home, env);
      expect(compacted.code).toBe(0);
      expect(posts(model, before).filter((x) => SUMMARISING.test(x.body)).length).toBe(1);
      expect(compacted.log).toContain("pass (a compaction request: claude-code)");
      const codexHome = mkdtempSync(join(tmpdir(), "cliff-answer-control-codex-"));
      chatgptSignIn(codexHome);
      const codexEnv = baseEnv(codexHome);
      delete codexEnv.OPENAI_API_KEY;
      // A model of its own: the one above has issued its calls.
      const second = await mockModel({ calls: 10, lifetimeMs: 900_000 });
      const agent = [codex, "-c", "features.plugins=false", "-c", "model_context_window=20000", "-c", "model_auto_compact_token_limit=6000", "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", PROMPT];
      const r = await run(["--chatgpt-upstream", second.url, "--no-answer-compaction"], agent, codexHome, codexEnv);
      second.close();
      expect(r.code, r.err.slice(-2000)).toBe(0);
      const turns = posts(second).filter((x) => String(x.headers["x-codex-turn-metadata"] ?? "").includes('"request_kind":"compaction"'));
      expect(turns.length).toBeGreaterThan(0);
      expect(r.log).not.toContain("answered");
    } finally {
      model.close();
    }
  });
});

/**
 * Opt-in (`npm run test:agents`): preserved thinking with the real Claude Code. The current Claude
 * Code from the registry runs through `cliffcompaction run` against the preserved-thinking mock
 * (test/helpers/preserved-thinking.ts: every thinking block it writes is signed over a hash of its
 * prefix, and a block sent back under another prefix is refused with the API's 400 or dropped as
 * the request asks). On `claude-opus-5-5`, a model that runs the check, Claude Code turns thinking
 * on by itself (`thinking: {type: "adaptive"}`, no setting needed) and sends every thinking block
 * back. The mock answers each turn with a signed thinking block and a shell call whose output
 * carries the history over the threshold again and again, numbering its calls from the results the
 * request holds so the session moves on after each cliff. Through the proxy every request must be
 * accepted over several cliffs; with `--no-preserved-thinking` the first compacted request is refused.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChild, type Finished } from "../helpers/child.js";
import { BETA, preservedThinkingMock, type Exchange } from "../helpers/preserved-thinking.js";

const CURRENT = "@anthropic-ai/claude-code@2.1.332";
// The folder the other agent tests install the same version into.
const DIR = join(tmpdir(), "cliffcompaction-agents");
const CLAUDE = join(DIR, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const MODEL = "claude-opus-5-5";
const CALLS = 20;
const THRESHOLD = 30_000;
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const REFUSAL = "bound to a different conversation";

function install(): string {
  if (existsSync(CLAUDE)) return CLAUDE;
  mkdirSync(DIR, { recursive: true });
  if (!existsSync(join(DIR, "package.json"))) writeFileSync(join(DIR, "package.json"), '{"private":true}');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", CURRENT], { cwd: DIR, stdio: "inherit" });
  if (r.status !== 0 || !existsSync(CLAUDE)) throw new Error(`could not install ${CURRENT} from the registry`);
  return CLAUDE;
}

interface ThinkingRun {
  finished: Finished;
  exchanges: Exchange[];
  /** The proxy's action on each request it could compact (its --debug-dir records, in order). */
  actions: string[];
}

/** One session of `CALLS` shell calls of about 2,000 lines each, through `run` with these extra flags. */
async function thinkingRun(flags: string[]): Promise<ThinkingRun> {
  const mock = await preservedThinkingMock({ steps: true, calls: CALLS, command: (n) => `seq ${n * 10_000} ${n * 10_000 + 2000}`, lifetimeMs: 400_000 });
  const home = mkdtempSync(join(tmpdir(), "cliff-thinking-home-"));
  const work = mkdtempSync(join(tmpdir(), "cliff-thinking-work-"));
  const debugDir = join(home, "debug");
  const env: NodeJS.ProcessEnv = {
    ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "",
  };
  const agent = [install(), "-p", "Run the commands you are given, then say ALL DONE.", "--model", MODEL, "--allowedTools", "Bash", "--output-format", "text"];
  const cli = join(process.cwd(), "dist", "cli.mjs");
  const args = [cli, "run", "--port", "0", "--anthropic-upstream", mock.url, "--threshold", String(THRESHOLD), "--debug-dir", debugDir, ...flags, "--", ...agent];
  const finished = await runChild(process.execPath, args, work, env, 300_000);
  await mock.close();
  // The dump's writes are not awaited by the proxy: give the last one a moment.
  await new Promise((r) => setTimeout(r, 300));
  let actions: string[] = [];
  try {
    actions = readdirSync(debugDir).sort().map((n) => String(JSON.parse(readFileSync(join(debugDir, n), "utf8")).action));
  } catch {
    // no request was compactable
  }
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
  return { finished, exchanges: mock.exchanges, actions };
}

const messagesOf = (e: Exchange): any[] => (Array.isArray(e.body.messages) ? e.body.messages : []);
const holdsSummary = (e: Exchange): boolean => e.raw.includes(SUMMARY_HEADER);
/** The message that carries the summary, as sent: one per distinct cliff the upstream received. */
const summaryOf = (e: Exchange): string => JSON.stringify(messagesOf(e).find((m) => JSON.stringify(m).includes(SUMMARY_HEADER)));
const thinkingBlocks = (e: Exchange): number => messagesOf(e).flatMap((m) => (Array.isArray(m?.content) ? m.content : [])).filter((b: any) => b?.type === "thinking").length;
const answersCall = (e: Exchange, n: number): boolean => e.raw.includes(`"tool_use_id":"toolu_mock_${n}"`);
const betasOf = (e: Exchange): string[] => String(e.headers["anthropic-beta"] ?? "").split(",").map((s) => s.trim());

function report(label: string, run: ThinkingRun): void {
  const x = run.exchanges;
  const dropped = x.reduce((n, e) => n + e.dropped.length, 0);
  console.log(`${label}: exit ${run.finished.code}; ${x.length} requests upstream (${x.filter((e) => e.status === 200).length} accepted, ${x.filter((e) => e.status === 400).length} refused), ${new Set(x.filter(holdsSummary).map(summaryOf)).size} distinct summaries, ${dropped} thinking blocks dropped; proxy: ${run.actions.join(" ")}`);
}

describe(`Claude Code 2.1.332 with thinking on (${MODEL}) through run, against the preserved-thinking mock`, () => {
  it("every request is accepted over at least 3 cliffs, blocks dropped only where a summary is sent", async () => {
    const run = await thinkingRun([]);
    report("preserved thinking", run);
    const x = run.exchanges;
    expect(run.finished.timedOut, run.finished.err.slice(-2000)).toBe(false);
    expect(run.finished.code, run.finished.err.slice(-2000)).toBe(0);
    expect(run.finished.out).toContain("ALL DONE");
    // Thinking is on in every request, and Claude Code sends its signed blocks back.
    expect(x.every((e) => (e.body.thinking as any)?.type === "adaptive")).toBe(true);
    expect(x.filter((e) => !holdsSummary(e) && thinkingBlocks(e) > 0).length).toBeGreaterThan(0);
    // The session ran to its end: the last call's result reached the model.
    expect(x.some((e) => answersCall(e, CALLS - 1))).toBe(true);
    const refused = x.filter((e) => e.status !== 200).map((e) => `${e.status} ${e.error}`);
    expect(refused).toEqual([]);
    const compacted = x.filter(holdsSummary);
    expect(new Set(compacted.map(summaryOf)).size).toBeGreaterThanOrEqual(3);
    // Blocks are dropped on the requests that send a summary, never on the others (whose blocks are all valid).
    for (const e of x) {
      if (holdsSummary(e)) continue;
      expect(e.invalid).toEqual([]);
      expect(e.body.thinking).not.toHaveProperty("block_binding");
      expect(betasOf(e)).not.toContain(BETA);
    }
    for (const e of compacted) {
      expect((e.body.thinking as any).block_binding).toEqual({ prefix_mismatch_behavior: "drop_block" });
      expect(betasOf(e)).toContain(BETA);
      expect(betasOf(e)).toContain("claude-code-20250219");
      expect(e.dropped).toEqual(e.invalid);
    }
    expect(compacted.filter((e) => e.dropped.length > 0).length).toBeGreaterThanOrEqual(3);
  });

  it("control: with --no-preserved-thinking the first compacted request is refused as bound to a different conversation", async () => {
    const run = await thinkingRun(["--no-preserved-thinking"]);
    report("--no-preserved-thinking", run);
    const x = run.exchanges;
    const first = x.findIndex(holdsSummary);
    expect(first).toBeGreaterThan(0);
    expect(x.slice(0, first).every((e) => e.status === 200)).toBe(true);
    expect(x[first].status).toBe(400);
    expect(x[first].message).toContain(REFUSAL);
    expect(x[first].raw).not.toContain(BETA);
    expect(x[first].invalid.length).toBeGreaterThan(0);
    // Every compacted request is refused; the proxy's fallback sends the client's own request, which is accepted.
    for (const e of x.filter(holdsSummary)) expect(e.status).toBe(400);
    expect(x[first + 1].status).toBe(200);
    expect(holdsSummary(x[first + 1])).toBe(false);
  });

  // Claude Code 2.1.332 recognises this refusal itself (its "prefix lock heal"): it sends the turn
  // again without any thinking block, which the cliff cannot invalidate. The session survives, at
  // a refused round trip per cliff and the loss of every thinking block before it.
  it("control: with --no-preserved-thinking --no-fallback the refusal reaches Claude Code, which resends the turn without its thinking blocks", async () => {
    const run = await thinkingRun(["--no-preserved-thinking", "--no-fallback"]);
    report("--no-preserved-thinking --no-fallback", run);
    const x = run.exchanges;
    const first = x.findIndex(holdsSummary);
    expect(first).toBeGreaterThan(0);
    expect(x[first].status).toBe(400);
    expect(x[first].message).toContain(REFUSAL);
    const refusedAt = x.map((e, i) => (e.status === 400 ? i : -1)).filter((i) => i >= 0);
    expect(refusedAt.length).toBeGreaterThanOrEqual(3);
    for (const i of refusedAt) {
      expect(x[i].message).toContain(REFUSAL);
      expect(x[i + 1].status).toBe(200);
      expect(thinkingBlocks(x[i + 1])).toBe(0);
    }
    expect(run.finished.code, run.finished.err.slice(-2000)).toBe(0);
  });
});

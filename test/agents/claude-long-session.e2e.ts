/**
 * Opt-in (`npm run test:agents`): Claude Code 2.1.332 (its default model, claude-opus-5-5, its own
 * auto-compaction sized at 300K with `--autocompact`) through `cliffcompaction run` with no
 * threshold flag, against the scripted model, over a session whose history grows past 300K tokens.
 * The proxy keeps every request at its 200,000 threshold, and Claude Code, reading the usage the
 * proxy passes back, never compacts itself: no summarisation request reaches the model, while the
 * proxy's status (read as the model holds its final answer) shows the history as received past
 * 300K. The control run, straight to the model, compacts itself.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { mockModel, SUMMARISING } from "./mock-model.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";

const VERSION = "@anthropic-ai/claude-code@2.1.332";
const AGENTS = join(tmpdir(), "cliffcompaction-agents-332");
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const SUMMARY_HEADER = "The following is a summary of your previous actions";
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
// Claude Code's own auto-compaction sized at 300K (`--autocompact`, its window for compaction): past
// the proxy's 200,000 threshold, and short of the 1M window, so a session of ~420K tokens crosses it.
const CLAUDE_ARGS = ["-p", PROMPT, "--allowedTools", "Bash", "--output-format", "text", "--autocompact", "300k"];
const CALLS = 48;

function install(): void {
  if (existsSync(CLAUDE)) return;
  installFromRegistry(AGENTS, [VERSION], "Claude Code");
}

describe("Claude Code 2.1.332 over 200K tokens of history through run", () => {
  it("no client compaction: every request at the proxy's threshold, the history past 300K", async () => {
    install();
    const port = await freePort();
    let status: any = null;
    const model = await mockModel({
      calls: CALLS, command: "seq 1 6000", lifetimeMs: 900_000,
      beforeFinal: async () => void (status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json()),
    });
    const home = mkdtempSync(join(tmpdir(), "cliff-claude-long-home-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "",
    };
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--port", String(port), "--no-answer-compaction", "--anthropic-upstream", model.url, "--", CLAUDE, ...CLAUDE_ARGS], process.cwd(), env, 600_000);
    model.close();
    const posts = model.seen.filter((s) => s.body.length > 0 && s.path.split("?")[0].endsWith("/messages"));
    const agent = posts.filter((s) => JSON.parse(s.body).tools?.some((t: any) => t.name === "Bash"));
    const largest = Math.max(...agent.map((s) => s.tokens));
    const compacted = agent.filter((s) => s.body.includes(SUMMARY_HEADER)).length;
    const session = status?.sessions?.find((s: any) => s.model === "claude-opus-5-5");
    console.log(`claude 2.1.332 long: exit ${r.code}, ${agent.length} agent requests, ${compacted} compacted, largest at the model ${largest.toLocaleString("en-US")} tokens, newest request as received ${session?.tokensIn?.toLocaleString("en-US")} estimated tokens, threshold ${session?.threshold}`);
    expect(r.timedOut, r.err.slice(-2000)).toBe(false);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(r.out).toContain("ALL DONE");
    // (Answering is off: a compaction of Claude Code's own would reach the model.)
    expect(posts.filter((s) => SUMMARISING.test(s.body))).toEqual([]);
    expect(compacted).toBeGreaterThan(5);
    // The history Claude Code holds went past 200K tokens; what reached the model stayed at the
    // threshold (the model counts a quarter of the body's characters, the proxy its own estimate).
    expect(session.tokensIn).toBeGreaterThan(300_000);
    expect(largest).toBeLessThan(200_000 * 1.05);
  }, 700_000);

  it("the control run: the same session straight to the model", async () => {
    install();
    const model = await mockModel({ calls: CALLS, command: "seq 1 6000", lifetimeMs: 900_000 });
    const home = mkdtempSync(join(tmpdir(), "cliff-claude-long-control-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: model.url,
    };
    const r = await runChild(CLAUDE, CLAUDE_ARGS, process.cwd(), env, 600_000);
    model.close();
    const posts = model.seen.filter((s) => s.body.length > 0 && s.path.split("?")[0].endsWith("/messages"));
    const summarising = posts.findIndex((s) => SUMMARISING.test(s.body));
    const before = Math.max(...posts.slice(0, summarising < 0 ? posts.length : summarising).map((s) => s.tokens));
    console.log(`claude 2.1.332 long, control: exit ${r.code}, ${posts.length} requests, ${summarising < 0 ? "no" : "a"} summarisation request${summarising < 0 ? "" : ` after a request of ${before.toLocaleString("en-US")} tokens`}`);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    // Alone, it compacts itself once its history passes its own threshold.
    expect(summarising).toBeGreaterThan(0);
    expect(before).toBeGreaterThan(200_000);
  }, 700_000);
});

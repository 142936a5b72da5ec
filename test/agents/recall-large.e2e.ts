/**
 * Opt-in (`npm run test:agents`): nothing lost of an output Claude Code kept out of the request. Real
 * Claude Code 2.1.332 in its default permission mode (no tool allowed beforehand) through
 * `cliffcompaction run` at a low threshold: the scripted model's
 * first command prints 60,900 characters, which Claude Code replaces with its `<persisted-output>`
 * placeholder; more commands until two cliffs; then it recalls the placeholder's ref, and the answer
 * names the client's file. Claude Code's own Read reads that file in pages of 1,000 lines, and the
 * pages put together are the output byte for byte; the agent finishes, and never saw `cliff_recall`.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { BIG, largeOutputScript, PAGE_LINES } from "./large-output-script.js";
import { RECALL, refOf, SUMMARY_HEADER } from "./recall-script.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";

/** The files Claude Code saved outputs to under `home`: every session's tool-results folder. */
function savedOutputs(home: string): string[] {
  const projects = join(home, ".claude", "projects");
  if (!existsSync(projects)) return [];
  return readdirSync(projects, { recursive: true, encoding: "utf8" }).filter((p) => /(^|\/)tool-results\/[^/]+\.txt$/.test(p)).map((p) => join(projects, p));
}

describe("an output Claude Code kept out of the request, after two cliffs, through run", () => {
  it("Claude Code 2.1.332 in its default permission mode: the recall names its file, its Read brings the 60,900 characters back", async () => {
    if (!existsSync(CLAUDE)) installFromRegistry(AGENTS, ["@anthropic-ai/claude-code@2.1.332", "@openai/codex@0.171.0"], "the agents");
    const port = await freePort();
    const model = await largeOutputScript();
    const home = mkdtempSync(join(tmpdir(), "cliff-recall-large-home-"));
    const work = mkdtempSync(join(tmpdir(), "cliff-recall-large-work-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env, HOME: home, IS_SANDBOX: "1", DISABLE_TELEMETRY: "1", DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "", XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", XDG_STATE_HOME: "",
    };
    // No --allowedTools: seq is a read-only command Claude Code runs unasked, and its Read of its own saved output needs no grant.
    const agent = [CLAUDE, "-p", PROMPT, "--output-format", "text"];
    const args = [resolve("dist/cli.mjs"), "run", "--port", String(port), "--no-answer-compaction", "--anthropic-upstream", model.url, "--threshold", "12000", "--keep-recent", "1", "--", ...agent];
    const r = await runChild(process.execPath, args, work, env, 300_000);
    model.close();
    const compacted = model.seen.filter((s) => s.body.includes(SUMMARY_HEADER)).length;
    const rec = model.recall;
    console.log(
      `claude large output: exit ${r.code}, ${model.seen.length} model requests, ${compacted} compacted, ${model.summaries.length} distinct cliff summaries; ` +
        `${rec === undefined ? "no recall" : `recalled ${rec.ref} (${rec.placeholder.length} chars) after ${rec.afterCliffs} cliffs; the answer: ${JSON.stringify(rec.answer.split("\n")[0])}`}; ` +
        `summary named the file: ${model.summaryNamedFile}; Read ${model.pages.length} page(s) at ${model.pages.map((p) => p.offset).join(", ")}: ${model.got.length} chars, identical ${model.got === BIG.text}; agent said ${JSON.stringify(r.out.trim().slice(-90))}`,
    );
    expect(r.timedOut, r.err.slice(-2000)).toBe(false);
    expect(rec, r.err.slice(-2000)).toBeDefined();
    // What reached the proxy for the big output, up to the recall: Claude Code's placeholder, never the output's end.
    expect(model.seen.slice(0, rec!.at).some((s) => s.body.includes("00000000000000102899"))).toBe(false);
    expect(rec!.placeholder).toMatch(/^<persisted-output>\nOutput too large \(59\.5KB\)\. Full output saved to: \S+\.txt\n\nPreview \(first 2KB\):\n00000000000000100000\n/);
    expect(refOf(rec!.placeholder)).toBe(rec!.ref);
    expect(rec!.afterCliffs).toBeGreaterThanOrEqual(2);
    // The answer says where the output is, then gives the placeholder exactly.
    expect(rec!.isError).toBe(false);
    expect(rec!.answer.slice(rec!.answer.indexOf("\n") + 1)).toBe(rec!.placeholder);
    const saved = savedOutputs(home);
    expect(saved).toContain(model.file);
    expect(readFileSync(model.file!, "utf8")).toBe(BIG.text);
    expect(model.summaryNamedFile).toBe(true);
    // Read, in the default permission mode, in pages: 1,000 + 1,000 + 900 lines and the empty one after the last newline.
    expect(model.pages.map((p) => p.offset)).toEqual([1, 1 + PAGE_LINES, 1 + 2 * PAGE_LINES]);
    expect(model.got === BIG.text, `read back ${model.got.length} chars, expected ${BIG.text.length}`).toBe(true);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(r.out).toContain(`ALL DONE: read the whole output back, ${BIG.text.length} chars, byte for byte`);
    // The client's history after the recall round: the recall line and its own Read call, no call of the tool.
    expect(model.after).toBeDefined();
    expect(model.after).toContain(`[cliffcompaction recalled ref ${rec!.ref}, ${rec!.placeholder.length.toLocaleString("en-US")} chars]`);
    expect(model.after).not.toContain(`"name":"${RECALL}","input"`);
    expect(r.out).not.toContain(RECALL);
  }, 330_000);
});

/**
 * Opt-in (`npm run test:agents`): nothing lost of an output the client kept out of the request. Real
 * Claude Code 2.1.332 in its default permission mode (no tool allowed beforehand), and real OpenCode
 * 1.18.33 in its default permissions, and real Copilot CLI 1.0.102 (with `--allow-all-tools`, as
 * `-p` needs), through `cliffcompaction run` at a low threshold: the scripted
 * model's first command prints 60,900 characters (2,900 lines), which the client replaces with its
 * placeholder (Claude Code: `<persisted-output>`; OpenCode: a line naming its file, then the last
 * 2,000 lines; Copilot CLI: a line naming its temporary file, then a preview); more commands until two cliffs; then it recalls the placeholder's ref, and the answer
 * names the client's file. The client's own read tool reads that file in pages of 1,000 lines, and the
 * pages put together are the output byte for byte; the agent finishes, and never saw `cliff_recall`.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { BIG, COPILOT, COPILOT_PAGE_LINES, largeOutputScript, OPENCODE, PAGE_LINES } from "./large-output-script.js";
import { RECALL, refOf, SUMMARY_HEADER } from "./recall-script.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents");
const CLAUDE = join(AGENTS, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const PROMPT = "Print the numbers with seq, several times, then say ALL DONE.";
const CLIENTS = join(tmpdir(), "cliffcompaction-agents-clients");
const OPENCODE_BIN = join(CLIENTS, "node_modules", ".bin", "opencode");
const COPILOT_BIN = join(CLIENTS, "node_modules", ".bin", "copilot");

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

  it("OpenCode 1.18.33 in its default permissions: the recall names its file, its read brings the 2,900 lines back", async () => {
    if (!existsSync(OPENCODE_BIN)) installFromRegistry(CLIENTS, ["opencode-ai@1.18.33", "@github/copilot@1.0.102"], "OpenCode and Copilot CLI");
    const port = await freePort();
    const model = await largeOutputScript(OPENCODE);
    const home = mkdtempSync(join(tmpdir(), "cliff-recall-large-opencode-home-"));
    const work = mkdtempSync(join(tmpdir(), "cliff-recall-large-opencode-work-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env, HOME: home, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1",
      // OpenCode takes its project folder from PWD.
      PWD: work, XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", XDG_STATE_HOME: "", XDG_CACHE_HOME: "", OPENCODE_CONFIG_CONTENT: "",
    };
    const agent = [OPENCODE_BIN, "run", "-m", "anthropic/claude-sonnet-4-5", PROMPT];
    // Its first request with the big output (its 30 KB of system prompt and tools, 42 KB of output) stays whole: the model sees the placeholder before a cliff drops it.
    const args = [resolve("dist/cli.mjs"), "run", "--port", String(port), "--no-answer-compaction", "--anthropic-upstream", model.url, "--threshold", "24000", "--keep-recent", "1", "--", ...agent];
    const r = await runChild(process.execPath, args, work, env, 300_000);
    model.close();
    const compacted = model.seen.filter((s) => s.body.includes(SUMMARY_HEADER)).length;
    const rec = model.recall;
    console.log(
      `opencode large output: exit ${r.code}, ${model.seen.length} model requests, ${compacted} compacted, ${model.summaries.length} distinct cliff summaries; ` +
        `${rec === undefined ? "no recall" : `recalled ${rec.ref} (${rec.placeholder.length} chars) after ${rec.afterCliffs} cliffs; the answer: ${JSON.stringify(rec.answer.split("\n")[0])}`}; ` +
        `summary named the file: ${model.summaryNamedFile}; read ${model.pages.length} page(s) at ${model.pages.map((p) => p.offset).join(", ")}: ${model.got.length} chars, identical ${model.got === BIG.text}; agent said ${JSON.stringify(r.out.trim().slice(-90))}`,
    );
    expect(r.timedOut, r.err.slice(-2000)).toBe(false);
    expect(rec, r.err.slice(-2000)).toBeDefined();
    // What reached the proxy for the big output, up to the recall: OpenCode's line and the last 2,000 lines, never the first.
    expect(model.seen.slice(0, rec!.at).some((s) => s.body.includes("00000000000000100000"))).toBe(false);
    expect(rec!.placeholder).toMatch(/^\.\.\.output truncated\.\.\.\n\nFull output saved to: \S+\/opencode\/tool-output\/tool_\w+\n\n00000000000000100901\n/);
    expect(rec!.placeholder.endsWith("00000000000000102899\n")).toBe(true);
    expect(refOf(rec!.placeholder)).toBe(rec!.ref);
    expect(rec!.afterCliffs).toBeGreaterThanOrEqual(2);
    // The answer says where the output is, then the page line, then the text's first 20,000 characters exactly.
    expect(rec!.isError).toBe(false);
    expect(rec!.answer.split("\n")[0]).toContain("(OpenCode: read, in pages of offset and limit lines when it is long)");
    expect(rec!.answer.split("\n")[1]).toMatch(new RegExp(`^\\[ref ${rec!.ref}: characters 0 to 20,000 of `));
    expect(rec!.answer.endsWith("\n" + rec!.placeholder.slice(0, 20_000))).toBe(true);
    expect(model.file!.startsWith(join(home, ".local", "share", "opencode", "tool-output", "tool_"))).toBe(true);
    expect(readFileSync(model.file!, "utf8")).toBe(BIG.text);
    expect(model.summaryNamedFile).toBe(true);
    // OpenCode's read, in its default permissions (its own tool-output folder), in pages: 1,000 + 1,000 + 900 lines.
    expect(model.pages.map((p) => p.offset)).toEqual([1, 1 + PAGE_LINES, 1 + 2 * PAGE_LINES]);
    expect(model.pages[0].text).toContain("(Showing lines 1-1000 of 2900. Use offset=1001 to continue.)");
    expect(model.got === BIG.text, `read back ${model.got.length} chars, expected ${BIG.text.length}`).toBe(true);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(r.out).toContain(`ALL DONE: read the whole output back, ${BIG.text.length} chars, byte for byte`);
    expect(model.after).toBeDefined();
    // The recall line says how much of the text the model was given: its first page.
    const line = `[cliffcompaction recalled ref ${rec!.ref}, 20,000 of ${rec!.placeholder.length.toLocaleString("en-US")} chars]`;
    expect(model.after!.includes(line), line).toBe(true);
    expect(model.after).not.toContain(`"name":"${RECALL}","input"`);
    expect(r.out).not.toContain(RECALL);
  }, 330_000);

  it("Copilot CLI 1.0.102: the recall names its temporary file, its view brings the 2,900 lines back", async () => {
    if (!existsSync(COPILOT_BIN)) installFromRegistry(CLIENTS, ["opencode-ai@1.18.33", "@github/copilot@1.0.102"], "OpenCode and Copilot CLI");
    const port = await freePort();
    const model = await largeOutputScript(COPILOT);
    const home = mkdtempSync(join(tmpdir(), "cliff-recall-large-copilot-home-"));
    const work = mkdtempSync(join(tmpdir(), "cliff-recall-large-copilot-work-"));
    // Copilot CLI saves a large output in the system's temporary folder: one of the test's own.
    const tmp = mkdtempSync(join(tmpdir(), "cliff-recall-large-copilot-tmp-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env, HOME: home, TMPDIR: tmp, PWD: work, XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", XDG_STATE_HOME: "", OPENAI_BASE_URL: "",
      COPILOT_OFFLINE: "true", COPILOT_API_URL: "", COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`, COPILOT_PROVIDER_API_KEY: "sk-byok-test", COPILOT_PROVIDER_TYPE: "openai", COPILOT_MODEL: "gpt-5.4", COPILOT_AUTO_UPDATE: "false",
    };
    const agent = [COPILOT_BIN, "-p", PROMPT, "--allow-all-tools", "-s"];
    const args = [resolve("dist/cli.mjs"), "run", "--port", String(port), "--no-answer-compaction", "--threshold", "20000", "--keep-recent", "1", "--", ...agent];
    const r = await runChild(process.execPath, args, work, env, 300_000);
    model.close();
    const compacted = model.seen.filter((s) => s.body.includes(SUMMARY_HEADER)).length;
    const rec = model.recall;
    console.log(
      `copilot large output: exit ${r.code}, ${model.seen.length} model requests, ${compacted} compacted, ${model.summaries.length} distinct cliff summaries; ` +
        `${rec === undefined ? "no recall" : `recalled ${rec.ref} (${rec.placeholder.length} chars) after ${rec.afterCliffs} cliffs; the answer: ${JSON.stringify(rec.answer.split("\n")[0])}`}; ` +
        `summary named the file: ${model.summaryNamedFile}; view ${model.pages.length} page(s) at ${model.pages.map((p) => p.offset).join(", ")}: ${model.got.length} chars, identical ${model.got === BIG.text}; agent said ${JSON.stringify(r.out.trim().slice(-90))}`,
    );
    expect(r.timedOut, r.err.slice(-2000)).toBe(false);
    expect(rec, r.err.slice(-2000)).toBeDefined();
    // What reached the proxy for the big output, up to the recall: Copilot CLI's line and a preview, never the output's end.
    expect(model.seen.slice(0, rec!.at).some((s) => s.body.includes("00000000000000102899"))).toBe(false);
    expect(rec!.placeholder).toMatch(/^Output too large to read at once \(59\.5 KB\)\. Saved to: \S+copilot-tool-output\S+\.txt\nConsider using tools like /);
    expect(refOf(rec!.placeholder)).toBe(rec!.ref);
    expect(rec!.afterCliffs).toBeGreaterThanOrEqual(2);
    expect(rec!.isError).toBe(false);
    expect(rec!.answer.split("\n")[0]).toContain("(Copilot CLI: view, in pages of view_range lines when it is long)");
    expect(rec!.answer.slice(rec!.answer.indexOf("\n") + 1)).toBe(rec!.placeholder);
    expect(model.file!.startsWith(tmp + "/")).toBe(true);
    expect(model.summaryNamedFile).toBe(true);
    // view in pages of 800 lines: 800 + 800 + 800 + 500.
    expect(model.pages.map((p) => p.offset)).toEqual([0, 1, 2, 3].map((k) => 1 + k * COPILOT_PAGE_LINES));
    expect(model.got === BIG.text, `read back ${model.got.length} chars, expected ${BIG.text.length}`).toBe(true);
    expect(r.code, r.err.slice(-2000)).toBe(0);
    expect(r.out).toContain(`ALL DONE: read the whole output back, ${BIG.text.length} chars, byte for byte`);
    expect(model.after).toBeDefined();
    const line = `[cliffcompaction recalled ref ${rec!.ref}, ${rec!.placeholder.length.toLocaleString("en-US")} chars]`;
    expect(model.after!.includes(line), line).toBe(true);
    // The tool is declared there; no call of it is.
    expect(model.after).not.toContain(`"name":"${RECALL}","arguments"`);
    expect(r.out).not.toContain(RECALL);
  }, 330_000);
});

/**
 * Opt-in (`npm run test:agents`): the real Gemini CLI 0.61 from the registry, run headless through
 * `cliffcompaction run` against a scripted Gemini API on 127.0.0.1 (test/helpers/gemini-model.ts)
 * that refuses what the API refuses: two contents of one role in a row, a response not paired with
 * its call by name, order and id, a function-call step of the current turn without the signature the
 * model gave it, a signature moved. The script is 24 tool calls (shell commands with long outputs, file reads, a write, an
 * edit) in one user turn, so every cliff cuts the turn the API checks. Gemini CLI must finish; every
 * request is accepted, none falls back; the proxy's status, read while the model holds its final answer, shows the
 * session, its cliffs, the usage the model reported and its bill; Gemini CLI's own compression never
 * runs (it decides from the prompt tokens the API reports, the compacted count).
 *
 * With CLIFF_CAPTURE_GEMINI=1 a short second session's file, as Gemini CLI saved it, is written
 * redacted to test/fixtures/sessions/gemini-cli-session.jsonl for the reader's tests in npm test.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { installFromRegistry } from "./registry-install.js";
import { geminiModel, type GeminiModel, type GeminiStep } from "../helpers/gemini-model.js";
import { runChild } from "../helpers/child.js";
import { freePort } from "../helpers/free-port.js";

const AGENTS = join(tmpdir(), "cliffcompaction-agents-gemini");
const VERSION = "@google/gemini-cli@0.61.0";
const GEMINI = join(AGENTS, "node_modules", ".bin", "gemini");
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";
const MODEL = "gemini-3-flash-preview";
const CLI = join(process.cwd(), "dist", "cli.mjs");

function install(): void {
  if (existsSync(GEMINI)) return;
  // The optional native modules (a pty, the keychain) are not needed headless.
  installFromRegistry(AGENTS, [VERSION], "Gemini CLI", ["--omit=optional"]);
}

/** Twenty-four calls: long shell outputs, reads, a write and an edit of the file written. */
const STEPS: GeminiStep[] = Array.from({ length: 24 }, (_, i): GeminiStep => {
  if (i === 5) return { name: "write_file", args: { file_path: "plan.md", content: "# Plan\n- count\n- read\n" } };
  if (i === 9) return { name: "replace", args: { file_path: "plan.md", instruction: "Mark the plan done", old_string: "- read\n", new_string: "- read (done)\n" } };
  if (i % 3 === 2) return { name: "read_file", args: { file_path: "notes.txt" } };
  return { name: "run_shell_command", args: { command: `seq 1 ${400 + i}`, description: `Count to ${400 + i}` } };
});

const SHORT: GeminiStep[] = [
  { name: "run_shell_command", args: { command: "seq 1 12", description: "Count to twelve" } },
  { name: "read_file", args: { file_path: "notes.txt" } },
  { name: "write_file", args: { file_path: "plan.md", content: "# Plan\n- count\n" } },
  { name: "replace", args: { file_path: "plan.md", instruction: "Mark it done", old_string: "- count\n", new_string: "- count (done)\n" } },
  { name: "list_directory", args: { dir_path: "." } },
];

interface Run {
  code: number | null;
  timedOut: boolean;
  out: string;
  err: string;
  home: string;
  work: string;
  model: GeminiModel;
  status: any;
}

/** A home signed in with an API key (settings as `gemini` leaves them after choosing one), and a project folder. */
function prepare(): { home: string; work: string } {
  const home = mkdtempSync(join(tmpdir(), "cliff-gemini-home-"));
  const work = mkdtempSync(join(tmpdir(), "cliff-gemini-work-"));
  writeFileSync(join(work, "notes.txt"), "A note the agent reads.\n".repeat(60));
  mkdirSync(join(home, ".gemini"));
  writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } }, privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true } }));
  return { home, work };
}

async function session(steps: GeminiStep[], runFlags: string[]): Promise<Run> {
  install();
  const port = await freePort();
  let status: any = null;
  const model = await geminiModel(steps, "ALL DONE", 600_000, async () => {
    // Until the status has counted every answer so far (the exchange ends just after its answer).
    for (let i = 0; i < 20; i++) {
      status = await (await fetch(`http://127.0.0.1:${port}/_cliff/status`)).json();
      if (status.sessions?.[0]?.requests >= steps.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  });
  const { home, work } = prepare();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GEMINI_API_KEY: "test-gemini-key", NO_COLOR: "1", GOOGLE_GEMINI_BASE_URL: "", GOOGLE_VERTEX_BASE_URL: "" };
  const args = [CLI, "run", "--port", String(port), "--gemini-upstream", model.url, ...runFlags, "--", GEMINI, "-p", "Run the commands you are given, then say ALL DONE.", "--approval-mode", "yolo", "-m", MODEL, "--output-format", "text"];
  const r = await runChild(process.execPath, args, work, env, 300_000);
  await model.close();
  const order = model.seen.map((s) => (s.refused !== null ? "R" : s.body.includes("<state_snapshot>") ? "S" : s.body.includes(SUMMARY_HEADER) ? "c" : ".")).join("");
  console.log(`gemini: exit ${r.code}, ${model.seen.length} requests (. plain, c compacted, R refused, S Gemini CLI's own compression: ${order}); agent said ${JSON.stringify(r.out.trim().slice(-40))}\n${r.err.split("\n").filter((l) => l.startsWith("cliffcompaction")).join("\n")}`);
  return { ...r, home, work, model, status };
}

/** The session file Gemini CLI saved, its paths and ids redacted. */
function savedSession(run: Run): string {
  const tmp = join(run.home, ".gemini", "tmp");
  const project = readdirSync(tmp).find((d) => existsSync(join(tmp, d, "chats")))!;
  const chats = join(tmp, project, "chats");
  const file = readdirSync(chats).find((f) => f.endsWith(".jsonl"))!;
  return readFileSync(join(chats, file), "utf8")
    .replaceAll(run.home, "/home/user")
    .replaceAll(run.work, "/home/user/project")
    .replaceAll(project, "project")
    .replace(/Process Group PGID: \d+/g, "Process Group PGID: 4242");
}

describe("the real Gemini CLI through cliffcompaction run", () => {
  it("24 tool calls over several cliffs in one turn: every request accepted, Gemini CLI finishes, the status shows the session and its bill", async () => {
    const run = await session(STEPS, ["--threshold", "14000", "--keep-recent", "1"]);
    expect(run.timedOut, run.err.slice(-2000)).toBe(false);
    expect(run.code, run.err.slice(-2000)).toBe(0);
    expect(run.out).toContain("ALL DONE");
    const turns = run.model.seen.filter((s) => s.step >= 0);
    expect(Math.max(...turns.map((s) => s.step))).toBe(STEPS.length);
    expect(run.model.seen.filter((s) => s.refused !== null).map((s) => s.refused)).toEqual([]);
    const compacted = turns.filter((s) => s.body.includes(SUMMARY_HEADER));
    expect(compacted.length).toBeGreaterThanOrEqual(2);
    // Gemini CLI's own compression (its <state_snapshot> prompt) never ran.
    expect(run.model.seen.filter((s) => s.body.includes("<state_snapshot>"))).toEqual([]);
    // Every compacted request still holds signed steps after its summary: the turn the API checks was cut and stayed valid.
    for (const s of compacted) expect(JSON.parse(s.body).contents.some((c: any) => c.role === "model" && c.parts.some((p: any) => p.thoughtSignature !== undefined))).toBe(true);
    const status = run.status;
    expect(status, "the final answer was never held").not.toBeNull();
    const mine = status.sessions.find((x: any) => x.api === "gemini");
    expect(mine).toBeDefined();
    console.log(`gemini: the status while the final answer waited: ${JSON.stringify({ ...mine, context: undefined, cliffAt: undefined, ledger: { ...mine.ledger, bills: mine.ledger.bills.length } })}`);
    expect(mine.model).toMatch(/^gemini-/);
    expect(mine.cliffs).toBeGreaterThanOrEqual(2);
    // No compacted request was refused and resent whole.
    expect(mine.fallbacks).toBe(0);
    expect(mine.ledger.bills.length).toBe(mine.cliffs);
    const answered = run.model.seen.filter((s) => s.usage !== undefined && s.step < STEPS.length);
    const prompt = answered.reduce((n, s) => n + s.usage!.promptTokenCount, 0);
    const cached = answered.reduce((n, s) => n + s.usage!.cachedContentTokenCount, 0);
    expect(status.usage.input + status.usage.cacheRead).toBe(prompt);
    expect(status.usage.cacheRead).toBe(cached);
    expect(mine.dollars).toBeGreaterThan(0);
    expect(mine.ledger.netDollars).not.toBeNull();
    for (const s of run.model.seen) expect(s.headers["x-goog-api-key"]).toBe("test-gemini-key");
  });

  it.runIf(process.env.CLIFF_CAPTURE_GEMINI === "1")("captures a short session as Gemini CLI saved it (redacted) for the reader's tests", async () => {
    const run = await session(SHORT, []);
    expect(run.code, run.err.slice(-2000)).toBe(0);
    writeFileSync(join(process.cwd(), "test", "fixtures", "sessions", "gemini-cli-session.jsonl"), savedSession(run));
  });
});

/**
 * Opt-in (`npm run test:agents`): a re-read that comes back empty, with real Claude Code from the
 * registry through `cliffcompaction run` against the scripted model (script-model.ts). The pinned
 * 2.1.185 answers the second read of an unchanged file with a stub: in both profiles, at a
 * threshold under the agent's fixed prompt (8,000: every request cliffs) and one the session
 * crosses midway (30,000), every request that reached the model holding the stub must hold the
 * file's text too. The current Claude Code edits instead and says the file's state is in context:
 * in the recall profile every request holding that claim must hold the file's text. The agents are
 * installed once into folders in the temporary directory.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readCommandsRead, stubRun, type StubRun } from "./read-stub-run.js";
import type { Step } from "./script-model.js";

const PINNED = "@anthropic-ai/claude-code@2.1.185";
const CURRENT = "@anthropic-ai/claude-code@2.1.332";
const claudeIn = (dir: string): string => join(dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
const OLD_DIR = join(tmpdir(), "cliffcompaction-agents-claude-2.1.185");
// The folder the other agent tests install into (the same current version).
const NEW_DIR = join(tmpdir(), "cliffcompaction-agents");

function install(dir: string, spec: string): string {
  const bin = claudeIn(dir);
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{"private":true}');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", spec], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0 || !existsSync(bin)) throw new Error(`could not install ${spec} from the registry`);
  return bin;
}

// Lines of notes.txt as a request's JSON holds them (a tab is written \t there).
const FILE_MARKS = ["setting-01 = value-7919 # marker QX1037", "setting-74 = value-", "The deploy key lives in vault path secret/build/farm-42; rotate it every 30 days."];
const holdsFile = (body: string): boolean => FILE_MARKS.every((m) => body.includes(m));
const SUMMARY_HEADER = "The following is a summary of your previous actions (long observations omitted):";

/** The requests of the agent's turns that reached the model holding `claim`, each of which must hold the file too. */
function expectFileWherever(run: StubRun, claim: string, label: string): void {
  expect(run.finished.timedOut, run.finished.err.slice(-2000)).toBe(false);
  expect(run.finished.code, run.finished.err.slice(-2000)).toBe(0);
  expect(run.finished.out).toContain("ALL DONE");
  const turns = run.seen.filter((s) => s.step >= 0);
  const claiming = turns.filter((s) => s.body.includes(claim));
  const compacted = claiming.filter((s) => s.body.includes(SUMMARY_HEADER));
  const missing = claiming.filter((s) => !holdsFile(s.body)).map((s) => s.step);
  console.log(`${label}: ${turns.length} agent requests (proxy: ${run.debug.map((d) => d.action).join(" ")}); ${claiming.length} hold the claim, ${compacted.length} of them compacted; without the file: [${missing.join(", ")}]`);
  expect(claiming.length).toBeGreaterThan(0);
  expect(compacted.length).toBeGreaterThan(0);
  expect(missing).toEqual([]);
}

const STUB = "Wasted call \u2014 file unchanged since your last Read.";
const TRAILER = "(file state is current in your context \u2014 no need to Read it back)";

describe("Claude Code 2.1.185: a re-read answered with a stub, through run", () => {
  const commands = { 8000: ["seq 1 1500", "seq 1501 3000", "seq 3001 4500"], 30000: ["seq 1 5000", "seq 5001 9000", "seq 9001 13000"] };

  it("direct, without the proxy, the first read is still in the request that holds the stub (the control run)", async () => {
    const run = await stubRun({ claude: install(OLD_DIR, PINNED), profile: "reference", threshold: 0, direct: true });
    const last = run.seen.filter((s) => s.step >= 0).pop()!;
    expect(last.body).toContain(STUB);
    expect(holdsFile(last.body)).toBe(true);
  });

  for (const profile of ["reference", "recall"] as const) {
    for (const threshold of [8000, 30000] as const) {
      it(`${profile}, threshold ${threshold}: every request holding the stub holds the file's text`, async () => {
        const run = await stubRun({ claude: install(OLD_DIR, PINNED), profile, threshold, steps: (file) => readCommandsRead(file, commands[threshold]) });
        expectFileWherever(run, STUB, `2.1.185 ${profile} ${threshold}`);
      });
    }
  }
});

describe("current Claude Code: edit, then continue (recall profile)", () => {
  const editThenContinue = (file: string): Step[] => [
    { name: "Read", input: { file_path: file } },
    { name: "Edit", input: { file_path: file, old_string: "setting-01 = value-7919", new_string: "setting-01 = value-1" } },
    ...["seq 1 1500", "seq 1501 3000", "seq 3001 4500"].map((command) => ({ name: "Bash", input: { command, description: "print numbers" } })),
  ];
  // After the edit the file's first setting reads value-1: its other lines are what the Read showed.
  const EDITED_MARKS = ["setting-02 = value-5831 # marker QX1074", "The deploy key lives in vault path secret/build/farm-42; rotate it every 30 days."];

  it("every request holding the Edit result's claim holds the file's text", async () => {
    const run = await stubRun({
      claude: install(NEW_DIR, CURRENT), profile: "recall", threshold: 8000, steps: editThenContinue,
      prompt: "Read notes.txt, change setting-01 to value-1, run the three commands you are given, then say ALL DONE.",
    });
    expect(run.finished.code, run.finished.err.slice(-2000)).toBe(0);
    const turns = run.seen.filter((s) => s.step >= 0);
    const claiming = turns.filter((s) => s.body.includes(TRAILER));
    const compacted = claiming.filter((s) => s.body.includes(SUMMARY_HEADER));
    const missing = claiming.filter((s) => !EDITED_MARKS.every((m) => s.body.includes(m))).map((s) => s.step);
    console.log(`current recall 8000: ${turns.length} agent requests (proxy: ${run.debug.map((d) => d.action).join(" ")}); ${claiming.length} hold the claim, ${compacted.length} compacted; without the file: [${missing.join(", ")}]`);
    expect(claiming.length).toBeGreaterThan(0);
    expect(compacted.length).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});

/**
 * The readers on the shapes a new user's sessions have: a Gemini CLI session's token anatomy,
 * OpenCode's apply_patch (`patchText`) and folders opened with `read`, the model that
 * mini-swe-agent, SWE-agent and OpenHands record, and a JSON-lines session whose last line is
 * still being written. Each runs on a small fixture of the same shape; where the corpus of real
 * sessions is present the same assertions run on its files too.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { filesTouched } from "../../core/index.js";
import { readSession, withoutFolders, type Session } from "../../cli/readers/index.js";
import { anatomy } from "../../cli/report/data.js";

const FIX = new URL("../fixtures/sessions/", import.meta.url).pathname;
const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const tmp = mkdtempSync(join(tmpdir(), "cliff-readers-"));
const read = (path: string): Session => readSession(readFileSync(path, "utf8"), path);
/** The corpus files of this list that are present (none on a machine without the corpus). */
const corpus = (...names: string[]): string[] => names.map((n) => join(CORPUS, n)).filter((p) => existsSync(p));
const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000, env: { ...process.env, HOME: tmp, XDG_CACHE_HOME: join(tmp, "cache") } });

describe("a Gemini CLI session's anatomy", () => {
  for (const path of [join(FIX, "gemini-cli-session.jsonl"), ...corpus("gemini_axe.jsonl")]) {
    it(`${path.split("/").pop()}: tool results, calls and text each counted from the parts`, () => {
      const s = read(path);
      expect(s.dialect).toBe("gemini");
      const a = anatomy(s.messages);
      expect(a.toolResults).toBeGreaterThan(0);
      expect(a.toolCalls).toBeGreaterThan(0);
      expect(a.humanText).toBeGreaterThan(0);
      expect(a.assistantText + a.toolCalls + a.toolResults + a.humanText).toBeGreaterThan(0);
    });
  }
  it("an image in a part is counted as an image, not text", () => {
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    const a = anatomy([{ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: png } }] }, { role: "model", parts: [{ functionCall: { name: "read_file", args: { file_path: "a.ts" } } }] }]);
    expect(a.images).toBeGreaterThan(0);
    expect(a.toolCalls).toBeGreaterThan(0);
    expect(a.humanText).toBeGreaterThan(0);
  });
});

describe("OpenCode: apply_patch with patchText, folders opened with read", () => {
  it("the fixture: both patched files modified, the folder not a file read", () => {
    const s = read(join(FIX, "opencode-apply-patch.json"));
    expect(s.folders).toEqual(["/repo/src"]);
    const lists = withoutFolders(filesTouched(s.messages, s.dialect), s);
    expect(lists.modified).toEqual(["/repo/src/hello.ts", "/repo/test/hello.test.ts"]);
    expect(lists.read).toEqual([]);
    const out = cli(["compact", join(FIX, "opencode-apply-patch.json"), "--keep-recent", "1"]).stdout;
    expect(out).toMatch(/2 modified \(newest first\): \/repo\/test\/hello\.test\.ts, \/repo\/src\/hello\.ts/);
    expect(out).not.toMatch(/read: .*\/repo\/src(,|$)/m);
  });
  for (const [name, patches] of [["opencode_task66-session2.json", 26], ["opencode_w1t92-bugfix.json", 19]] as const) {
    for (const path of corpus(name)) {
      it(`${name}: its ${patches} patches give modified files, no folder listed as read`, () => {
        const raw = JSON.parse(readFileSync(path, "utf8")) as { messages: { parts: { type: string; tool?: string; state?: { input?: { patchText?: string } } }[] }[] };
        const counted = raw.messages.flatMap((m) => m.parts).filter((p) => p.type === "tool" && p.tool === "apply_patch" && typeof p.state?.input?.patchText === "string").length;
        expect(counted).toBe(patches);
        const s = read(path);
        const lists = withoutFolders(filesTouched(s.messages, s.dialect), s);
        expect(lists.modified.length).toBeGreaterThan(10);
        for (const folder of s.folders ?? []) expect(lists.read).not.toContain(folder);
      });
    }
  }
  it("task66's folder reads are found, even those whose result OpenCode cleared", () => {
    for (const path of corpus("opencode_task66-session2.json")) {
      const s = read(path);
      expect(s.folders).toEqual(expect.arrayContaining([expect.stringMatching(/repo$/), expect.stringMatching(/repo\\frontend$/)]));
    }
  });
});

describe("the model a trajectory records", () => {
  const cases: [string, string | undefined][] = [
    [join(FIX, "mini-swe-agent-model.traj.json"), "deepseek/deepseek-chat"],
    [join(FIX, "swe-agent-model.traj"), "openrouter/qwen/qwen3-coder"],
    [join(FIX, "swe-agent-replay.traj"), undefined],
    [join(FIX, "llm-call-log.json"), "litellm_proxy/anthropic.claude-3-5-sonnet-20241022-v2:0"],
    [join(FIX, "openhands-trajectory.json"), "gpt-4o"],
    [join(FIX, "openhands-output.jsonl"), "gpt-4o"],
    ...corpus("minisweagent_django-11138-gemini3pro.traj.json").map((p): [string, string] => [p, "google/gemini-3-pro-preview"]),
    ...corpus("minisweagent-marshmallow-1343.traj.json").map((p): [string, string] => [p, "deepseek/deepseek-chat"]),
    ...corpus("sweagent_requests-2931-qwen3coder.traj").map((p): [string, string] => [p, "openrouter/qwen/qwen3-coder"]),
    ...corpus("openhands_llmcompl-django-11087.json").map((p): [string, string] => [p, "litellm_proxy/anthropic.claude-3-5-sonnet-20241022-v2:0"]),
  ];
  for (const [path, model] of cases) {
    it(`${path.split("/").pop()}: ${model ?? "none (a replay is no model)"}`, () => {
      expect(read(path).model).toBe(model);
    });
  }
  it("simulate names the model and its window, not the 128,000 assumed", () => {
    const out = cli(["simulate", join(FIX, "llm-call-log.json")]).stdout;
    expect(out).toContain("model litellm_proxy/anthropic.claude-3-5-sonnet-20241022-v2:0");
    expect(out).toContain("half its 200,000-token window");
    expect(out).not.toContain("no model recorded");
  });
});

describe("a JSON-lines session whose last line is still being written", () => {
  const sources = [join(FIX, "claude-code-compacted.jsonl"), join(FIX, "codex-rollout.jsonl"), join(FIX, "pi-session-v3.jsonl").replace("sessions/", ""), ...corpus("claudecode_task64-develop.jsonl", "codex_raze.jsonl", "pi_welpy.jsonl")];
  for (const path of sources) {
    it(`${path.split("/").pop()}: read up to the line before, with one warning naming the line`, () => {
      const text = readFileSync(path, "utf8");
      const lines = text.split("\n").filter((l) => l.trim() !== "");
      const whole = lines.slice(0, -1).join("\n") + "\n";
      const cut = whole + lines[lines.length - 1].slice(0, Math.floor(lines[lines.length - 1].length / 2));
      const complete = readSession(whole, "live.jsonl");
      const partial = readSession(cut, "live.jsonl");
      expect(partial.messages).toEqual(complete.messages);
      expect(partial.warnings).toEqual([`live.jsonl: line ${lines.length}, the last, is not complete JSON (still being written?): read the session up to line ${lines.length - 1}`]);
      expect(complete.warnings).toBeUndefined();
    });
  }
  it("the command prints the warning once on standard error and its report on standard output", () => {
    const text = readFileSync(join(FIX, "codex-rollout.jsonl"), "utf8").trimEnd();
    const file = join(tmp, "live.jsonl");
    writeFileSync(file, text + '\n{"timestamp":"2026-11-30T10:0');
    const r = cli(["compact", file, "--keep-recent", "1"]);
    expect(r.status).toBe(0);
    expect(r.stderr.match(/warning: .*not complete JSON/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/^session /);
  });
  it("a bad line that is not the last is still refused", () => {
    const text = readFileSync(join(FIX, "codex-rollout.jsonl"), "utf8").trimEnd().split("\n");
    text.splice(1, 0, '{"broken');
    expect(() => readSession(text.join("\n"), "bad.jsonl")).toThrow(/bad\.jsonl:line 2: not valid JSON/);
  });
});

describe("a bad last line that was finished", () => {
  it("a last line followed by its newline was written whole: a bad one is still refused", () => {
    const text = readFileSync(join(FIX, "codex-rollout.jsonl"), "utf8").trimEnd() + '\n{"broken\n';
    expect(() => readSession(text, "done.jsonl")).toThrow(/done\.jsonl:line \d+: not valid JSON/);
  });
});

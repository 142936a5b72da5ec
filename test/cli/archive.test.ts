/** The CLI's archive: `compact --archive DIR`, `simulate --archive DIR`, the recall profile, --no-archive and CLIFF_ARCHIVE*. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POINTER_LINE } from "../../core/index.js";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;
const SESSION = new URL("../../examples/session.json", import.meta.url).pathname;
const CODEX = new URL("../fixtures/sessions/codex-rollout.jsonl", import.meta.url).pathname;

function run(args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CLIFF_")));
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...clean, NO_COLOR: "1", ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const temp = (): string => mkdtempSync(join(tmpdir(), "cliff-cli-archive-"));
const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort() : []);

function pointers(summary: string): { kind: string; length: string; path: string }[] {
  return summary.split("\n").flatMap((l) => {
    const m = POINTER_LINE.exec(l);
    return m === null ? [] : [{ kind: m[1], length: m[2], path: m[3] }];
  });
}

describe("cliffcompaction compact --archive DIR", () => {
  it("writes a file for every dropped result of a corpus session and names each in the summary", () => {
    const dir = join(temp(), "archive");
    const r = run(["compact", SESSION, "--archive", dir, "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    const ps = pointers(out.summary);
    expect(ps.length).toBe(out.parts.resultsDropped);
    expect(ps.length).toBeGreaterThan(10);
    expect(out.archive).toEqual({ dir, results: ps.length, calls: 0, failures: 0 });
    // Every pointer names a file under DIR holding a tool result of the session, of the stated length.
    const contents = new Set((JSON.parse(readFileSync(SESSION, "utf8")).messages as { content: string }[]).map((m) => m.content));
    for (const p of ps) {
      expect(p.path.startsWith(dir + "/")).toBe(true);
      const text = readFileSync(p.path, "utf8");
      expect(contents.has(text)).toBe(true);
      expect(text.length.toLocaleString("en-US")).toBe(p.length);
    }
    expect(files(dir)).toEqual([...new Set(ps.map((p) => p.path))].sort());
  });

  it("in a Codex rollout too, with a line in the report", () => {
    const dir = join(temp(), "a");
    const r = run(["compact", CODEX, "--keep-recent", "1", "--archive", dir, "--lines", "0"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(new RegExp(`archive   3 dropped result\\(s\\) and 0 cut call\\(s\\) kept in ${dir}`));
    for (const p of pointers(r.out)) expect(existsSync(p.path)).toBe(true);
  });

  it("is on by default (the recall profile; CLIFF_ARCHIVE_DIR names the folder), off in the reference profile, off again with --no-archive or CLIFF_ARCHIVE=0", () => {
    const base = temp();
    const home = join(base, "home");
    expect(pointers(run(["compact", SESSION, "--profile", "reference", "--lines", "0"], { HOME: home, XDG_CACHE_HOME: "" }).out)).toEqual([]);
    expect(existsSync(home)).toBe(false);
    const viaEnv = join(base, "env");
    const recall = run(["compact", SESSION, "--lines", "0"], { CLIFF_ARCHIVE_DIR: viaEnv });
    expect(pointers(recall.out).length).toBeGreaterThan(0);
    expect(files(viaEnv).length).toBeGreaterThan(0);
    const defaulted = run(["compact", SESSION, "--lines", "0"], { HOME: home, XDG_CACHE_HOME: "" });
    expect(pointers(defaulted.out)[0].path.startsWith(join(home, ".cache", "cliffcompaction", "archive") + "/")).toBe(true);
    for (const off of [["--no-archive"], []]) {
      const dir = join(base, "off" + off.length);
      const r = run(["compact", SESSION, ...off, "--lines", "0"], { CLIFF_ARCHIVE_DIR: dir, ...(off.length === 0 ? { CLIFF_ARCHIVE: "0" } : {}) });
      expect(r.code, r.err).toBe(0);
      expect(pointers(r.out)).toEqual([]);
      expect(existsSync(dir)).toBe(false);
    }
  });

  it("a folder it cannot write gives the usual lines and one line on standard error", () => {
    const dir = join(temp(), "file");
    spawnSync("sh", ["-c", `printf x > ${dir}`]);
    const r = run(["compact", SESSION, "--profile", "reference", "--archive", dir, "--lines", "0"]);
    expect(r.code).toBe(0);
    expect(pointers(r.out)).toEqual([]);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/archive: cannot keep a dropped text in .*not a folder/);
    expect(r.out).toMatch(/\narchive   0 dropped result\(s\) and 0 cut call\(s\) kept in .* \(51 could not be written: their usual lines stand\)\n/);
    expect(r.out.replace(/\narchive .*/, "")).toBe(run(["compact", SESSION, "--profile", "reference", "--lines", "0"]).out);
  });

  it("refuses --archive with --host agentparley, and an empty DIR", () => {
    const a = run(["compact", SESSION, "--host", "agentparley", "--archive", temp()]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--archive does not apply to --host agentparley/);
    const b = run(["compact", SESSION, "--archive", ""]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--archive needs a folder/);
  });
});

describe("cliffcompaction simulate --archive DIR", () => {
  it("every cliff of the replay keeps what it drops", () => {
    const dir = join(temp(), "sim");
    const r = run(["simulate", SESSION, "--threshold", "12000", "--archive", dir, "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.archive.written).toBeGreaterThan(10);
    expect(out.archive.failures).toBe(0);
    expect(files(dir)).toHaveLength(out.archive.written);
  });
});

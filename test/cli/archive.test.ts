/** The CLI's export: `compact --archive DIR`, `simulate --archive DIR`, nothing written by default, --no-archive and CLIFF_ARCHIVE*. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { REF_LINE } from "../../core/index.js";
import { refOf } from "../../core/recall/index.js";

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

function refLines(summary: string): { kind: string; length: string; ref: string }[] {
  return summary.split("\n").flatMap((l) => {
    const m = REF_LINE.exec(l);
    return m === null ? [] : [{ kind: m[1], length: m[2], ref: m[3] }];
  });
}

describe("cliffcompaction compact --archive DIR", () => {
  it("writes a file for every dropped result of a session; the summary names each by its ref, the same bytes as without the export", () => {
    const dir = join(temp(), "archive");
    const r = run(["compact", SESSION, "--archive", dir, "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    const refs = refLines(out.summary);
    expect(refs.length).toBe(out.parts.resultsDropped);
    expect(refs.length).toBeGreaterThan(10);
    expect(out.archive).toEqual({ dir, results: new Set(refs.map((p) => p.ref)).size, calls: 0, failures: 0 });
    // Every ref names a file under DIR holding a tool result of the session, of the stated length, named by its whole hash.
    const contents = new Set((JSON.parse(readFileSync(SESSION, "utf8")).messages as { content: string }[]).map((m) => m.content));
    const written = files(dir);
    for (const p of refs) {
      const path = written.find((f) => basename(f).startsWith(p.ref));
      expect(path, p.ref).toBeDefined();
      const text = readFileSync(path!, "utf8");
      expect(refOf(text)).toBe(p.ref);
      expect(contents.has(text)).toBe(true);
      expect(text.length.toLocaleString("en-US")).toBe(p.length);
    }
    expect(written).toHaveLength(new Set(refs.map((p) => p.ref)).size);
    expect(out.summary).not.toContain(dir);
    expect(out.summary).toBe(JSON.parse(run(["compact", SESSION, "--json"]).out).summary);
  });

  it("in a Codex rollout too, with a line in the report", () => {
    const dir = join(temp(), "a");
    const r = run(["compact", CODEX, "--keep-recent", "1", "--archive", dir, "--lines", "0"]);
    expect(r.code, r.err).toBe(0);
    // Three results of the same text: three ref lines, one file.
    expect(r.out).toMatch(new RegExp(`archive   1 dropped result\\(s\\) and 0 cut call\\(s\\) written to ${dir}\n`));
    expect(refLines(run(["compact", CODEX, "--keep-recent", "1", "--lines", "400"]).out)).toHaveLength(3);
    expect(files(dir)).toHaveLength(1);
  });

  it("writes nothing by default (the recall profile names refs, the reference profile its own lines); CLIFF_ARCHIVE_DIR alone turns nothing on, CLIFF_ARCHIVE=1 does, --no-archive off again", () => {
    const base = temp();
    const home = join(base, "home");
    const env = { HOME: home, XDG_CACHE_HOME: "" };
    const reference = run(["compact", SESSION, "--profile", "reference", "--lines", "0"], env);
    expect(reference.out).not.toMatch(/chars, ref |\narchive /);
    const recall = run(["compact", SESSION, "--lines", "0"], env);
    expect(recall.code, recall.err).toBe(0);
    expect(recall.out).toMatch(/\nresult: dropped [\d,]+ chars, ref [0-9a-f]{12}\n/);
    expect(recall.out).not.toMatch(/\narchive /);
    for (const command of [["simulate", SESSION, "--threshold", "12000"], ["report", SESSION, "--threshold", "12000", "-o", join(base, "report.html")]]) {
      const r = run(command, env);
      expect(r.code, r.err).toBe(0);
    }
    expect(existsSync(home)).toBe(false);
    const viaEnv = join(base, "env");
    run(["compact", SESSION, "--lines", "0"], { ...env, CLIFF_ARCHIVE_DIR: viaEnv });
    expect(existsSync(viaEnv)).toBe(false);
    const on = run(["compact", SESSION, "--lines", "0"], { ...env, CLIFF_ARCHIVE_DIR: viaEnv, CLIFF_ARCHIVE: "1" });
    expect(on.out).toContain(`written to ${viaEnv}`);
    expect(files(viaEnv).length).toBeGreaterThan(0);
    const off = join(base, "off");
    const r = run(["compact", SESSION, "--no-archive", "--lines", "0"], { ...env, CLIFF_ARCHIVE_DIR: off, CLIFF_ARCHIVE: "1" });
    expect(r.code, r.err).toBe(0);
    expect(existsSync(off)).toBe(false);
  });

  it("a folder it cannot write gives the same summary and one line on standard error", () => {
    const dir = join(temp(), "file");
    spawnSync("sh", ["-c", `printf x > ${dir}`]);
    const r = run(["compact", SESSION, "--archive", dir, "--lines", "0"]);
    expect(r.code).toBe(0);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(/archive: cannot keep a dropped text in .*not a folder/);
    expect(r.out).toMatch(/\narchive   0 dropped result\(s\) and 0 cut call\(s\) written to .* \(51 could not be written\)\n/);
    expect(r.out.replace(/\narchive .*/, "")).toBe(run(["compact", SESSION, "--lines", "0"]).out);
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
  it("every cliff of the replay hands what it drops to the export", () => {
    const dir = join(temp(), "sim");
    const r = run(["simulate", SESSION, "--threshold", "12000", "--archive", dir, "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.archive.written).toBeGreaterThan(10);
    expect(out.archive.failures).toBe(0);
    expect(files(dir)).toHaveLength(out.archive.written);
  });
});

/**
 * simulate --json's cliffs[].refetches: after each cliff, the calls of the turns it stood for that
 * repeat a call whose result it dropped; on a written session (the count is exact) and, when the
 * corpus is present, on a real Codex session under both profiles.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { session, type Step } from "../helpers/tool-steps.js";

const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000 });
const lines = (label: string) => Array.from({ length: 80 }, (_, i) => `${label} line ${i} of the output`).join("\n");
const dir = mkdtempSync(join(tmpdir(), "cliff-refetch-"));

describe("simulate --json: re-fetches per cliff", () => {
  it("a file the first cliff dropped, read again after it, is that cliff's one re-fetch; a file never read before is none", () => {
    const make = (i: number): Step => ({ name: "Bash", args: { command: `make target-${i}` }, result: lines(`make ${i}`) });
    const steps: Step[] = [{ name: "Read", args: { file_path: "src/widget.ts" }, result: lines("widget") }, make(1), make(2), make(3), make(4), { name: "Read", args: { file_path: "src/widget.ts" }, result: lines("widget") }, { name: "Read", args: { file_path: "src/new.ts" }, result: lines("new") }];
    const file = join(dir, "session.json");
    writeFileSync(file, JSON.stringify({ model: "m", max_tokens: 100, messages: session("anthropic", steps) }));
    const r = cli("simulate", file, "--threshold", "3000", "--keep-recent", "1", "--json", "--profile", "reference");
    expect(r.status, r.stderr).toBe(0);
    const cliffs = JSON.parse(r.stdout).cliffs;
    expect(cliffs.length).toBeGreaterThan(0);
    const all = cliffs.flatMap((c: any) => c.refetches.calls);
    expect(all).toEqual([expect.objectContaining({ tool: "Read", path: "src/widget.ts", message: 11 })]);
    expect(cliffs.reduce((n: number, c: any) => n + c.refetches.count, 0)).toBe(1);
    expect(all[0].tokens).toBeGreaterThan(400);
    // report: the two profiles side by side, each with its re-fetches.
    const out = join(dir, "report.html");
    const rep = cli("report", file, "--threshold", "3000", "--keep-recent", "1", "--profile", "reference", "-o", out);
    expect(rep.status, rep.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain("<th>re-fetches</th>");
    expect(html).toMatch(new RegExp(`<tr class="profile-reference">.*?<td>1 \\(${all[0].tokens} tokens\\)</td></tr>`));
  });

  const corpus = "/work/shared/corpus/codex_meridianops.jsonl";
  it.skipIf(!existsSync(corpus))("a real Codex session: every cliff has its count, and recall is sent back less often than reference", () => {
    const counts = (profile: string) => {
      const r = cli("simulate", corpus, "--threshold", "60000", "--json", "--profile", profile);
      expect(r.status, r.stderr).toBe(0);
      const cliffs = JSON.parse(r.stdout).cliffs;
      for (const c of cliffs) expect(c.refetches.count).toBe(c.refetches.calls.length);
      return cliffs.reduce((n: number, c: any) => n + c.refetches.count, 0);
    };
    const ref = counts("reference");
    expect(ref).toBeGreaterThan(0);
    expect(counts("recall")).toBeLessThan(ref);
  });
});

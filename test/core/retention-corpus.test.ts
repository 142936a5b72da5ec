/** The retention bench's corpus: every session file read through the CLI's readers, families, source groups and the fixed sides. */
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusFiles, corpusSources, familyOf, groupOfRepository, halves, SESSION_FILE, sourceGroups } from "../../bench/retention-corpus.js";
import { byFamily, familyTable, gapTable, paysTable, reachTable, targetLines, type Measured, type Tally } from "../../bench/retention-tables.js";
import { policies, rulesOff, RECALL_RULES } from "../../bench/retention-policies.js";

const chat = (n: number): string => JSON.stringify({ model: "m", messages: [{ role: "user", content: `task ${n}` }, { role: "assistant", content: "done" }] });

describe("the retention bench's corpus", () => {
  it("takes every extension the readers accept, .traj included, and nothing else", () => {
    for (const f of ["a.jsonl", "b.json", "c.traj", "d.traj.json"]) expect(SESSION_FILE.test(f), f).toBe(true);
    for (const f of ["README.md", "notes.txt", "x.jsonl.bak"]) expect(SESSION_FILE.test(f), f).toBe(false);
  });

  it("names a file's family by its name up to the first _ or -", () => {
    expect(familyOf("claudecode_scout.jsonl")).toBe("claudecode");
    expect(familyOf("minisweagent-marshmallow-1343.traj.json")).toBe("minisweagent");
    expect(familyOf("pi-large-session.jsonl")).toBe("pi");
  });

  it("reads each file's source group from the README's tables, merging the groups it names", () => {
    const readme = [
      "| file | format | source |",
      "|---|---|---|",
      "| `claudecode_a.jsonl` | Claude Code | 1 MB | 10 | opus | kesslerio/attio-mcp-server @ bbf59cabac8f : logs/chat.json |",
      "| `codex_b.jsonl` | Codex | 1 MB | 10 | gpt | Strawhat404/TASK-32 @ 8fd449b3c2e6 : sessions/session.json (blob 305f) | db03 | |",
      "| `minisweagent-c.traj.json` | mini | 1 MB | 10 | deepseek | SWE-agent/mini-swe-agent : output/x.traj.json |",
    ].join("\n");
    expect(Object.fromEntries(sourceGroups(readme))).toEqual({ "claudecode_a.jsonl": "kesslerio/attio-mcp-server", "codex_b.jsonl": "task harness", "minisweagent-c.traj.json": "SWE-agent" });
    expect(groupOfRepository("whiteowly/task-w1t92")).toBe("task harness");
    expect(groupOfRepository("gruckion/mini-swe-agent")).toBe("gruckion/mini-swe-agent");
  });

  it("puts whole source groups on a side, never alternate sessions of one; each family on both sides where it has several groups", () => {
    const files = ["cc_1.jsonl", "cc_2.jsonl", "cc_3.jsonl", "cc_4.jsonl", "cx_1.jsonl", "cx_2.jsonl", "cx_3.jsonl", "pi_1.jsonl"];
    const groups = new Map([["cc_1.jsonl", "harness"], ["cc_2.jsonl", "harness"], ["cx_1.jsonl", "harness"], ["cc_3.jsonl", "r/a"], ["cx_2.jsonl", "r/b"], ["cx_3.jsonl", "r/c"], ["cc_4.jsonl", "r/d"]]);
    const h = halves(files, groups);
    // The largest group first, to checking (no side holds anything yet); the others to the side with
    // fewer of their family's sessions, then fewer sessions: r/c ties on both and goes to checking.
    expect(Object.fromEntries(h)).toEqual({
      "cc_1.jsonl": "checking", "cc_2.jsonl": "checking", "cx_1.jsonl": "checking",
      "pi_1.jsonl": "tuning", "cc_3.jsonl": "tuning", "cx_2.jsonl": "tuning", "cx_3.jsonl": "checking", "cc_4.jsonl": "tuning",
    });
    for (const [f, g] of groups) for (const [f2, g2] of groups) if (g === g2) expect(h.get(f), `${f} and ${f2}`).toBe(h.get(f2));
  });

  it("is empty when the folder is absent, and a present file the readers cannot read fails", () => {
    expect(corpusFiles(join(tmpdir(), "no-such-corpus-here"))).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), "cliff-corpus-"));
    writeFileSync(join(dir, "README.md"), "# not a session");
    writeFileSync(join(dir, "x_1.json"), chat(1));
    writeFileSync(join(dir, "x_2.json"), chat(2));
    const read = corpusSources(dir);
    // No README row: each file is a group of its own.
    expect(read.map((s) => [s.name, s.family, s.source, s.half, s.dialect])).toEqual([["x_1.json", "x", "x_1.json", "checking", "openai-chat"], ["x_2.json", "x", "x_2.json", "tuning", "openai-chat"]]);
    expect(corpusSources(dir, "checking").map((s) => s.name)).toEqual(["x_1.json"]);
    // A format no reader recognises is left out and named; a file a reader fails on throws.
    writeFileSync(join(dir, "z_1.jsonl"), '{"kind":"unknown"}\n');
    const skipped: string[] = [];
    expect(corpusSources(dir, undefined, skipped).map((s) => s.name)).toEqual(["x_1.json", "x_2.json"]);
    expect(skipped).toEqual(["z_1.jsonl"]);
    writeFileSync(join(dir, "y_1.traj"), "{ not json");
    expect(() => corpusSources(dir)).toThrow(/y_1\.traj/);
  });
});

describe("the retention bench's tables", () => {
  const named = [...policies(""), ...rulesOff()];
  const t = (held: number, kept: number, reachable = 0, recalls = 0): Tally => ({ needed: 100, held, kept, history: 100, reachable, recalls, recallTokens: 500 * recalls, cuts: 5 });
  // reference, paper, recall, masking, tail, then one per rule off.
  const row = (family: string, recall: number, masking: number): Measured => ({
    src: { name: family, group: "corpus", dialect: "anthropic", messages: [], family },
    tallies: [t(50, 20), t(50, 20), t(recall, 30), t(masking, 60), t(40, 10), ...RECALL_RULES.map(() => t(recall - 5, 25))],
  });

  it("sums per family and pooled, and checks the targets against masking and head + tail of the same run", () => {
    const rows = [row("a", 90, 90), row("b", 80, 85)];
    expect(byFamily(rows).map(([f, x]) => [f, x[2].held, x[2].needed])).toEqual([["a", 90, 100], ["b", 80, 100], ["pooled", 170, 200]]);
    expect(familyTable(rows, named.slice(0, 5))).toHaveLength(4);
    const target = targetLines(rows, named);
    expect(target[0]).toMatch(/short in b 80\.0 < 85\.0; pooled 85\.0 < 87\.5/);
    // kept: tail 10 + (60 - 10) / 2 = 35 ≥ recall's 30.
    expect(target[1]).toMatch(/recall 30\.0% against 35\.0%: met/);
    expect(targetLines([row("a", 90, 90)], named)[0]).toMatch(/met$/);
  });

  it("gives the recall policy's held, held or named by a ref, and the recalls that bring the named back, per family", () => {
    const r = row("a", 90, 90);
    r.tallies[2] = t(90, 30, 6, 2);
    const lines = reachTable([r], named);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^  a\s+100\s+90\.0\s+96\.0\s+2\s+1000\s+0\.40$/);
  });

  it("gives the gap between the sides per family: tuning's held minus checking's", () => {
    const side = (r: Measured, half: "tuning" | "checking"): Measured => ({ ...r, src: { ...r.src, half } });
    const gap = gapTable([side(row("a", 90, 90), "tuning"), side(row("a", 80, 90), "checking"), side(row("b", 70, 90), "tuning")], named.slice(0, 5));
    expect(gap).toHaveLength(4);
    expect(gap[1]).toMatch(/^  a\s+\+0\.0\s+\+0\.0\s+\+10\.0\s+\+0\.0\s+\+0\.0$/);
    expect(gap[2]).toMatch(/^  b\s+-\s+-/);
    expect(gap[3]).toMatch(/^  pooled\s+\+0\.0\s+\+0\.0\s+\+0\.0/);
  });

  it("says what each rule pays, in points of held and kept, per family", () => {
    const pays = paysTable([row("a", 90, 90)], named);
    expect(pays).toHaveLength(1 + RECALL_RULES.length);
    expect(pays[1]).toMatch(/^  recall -editMaxChars\s+\+5\.0\/\+5\.0\s+\+5\.0\/\+5\.0$/);
  });
});

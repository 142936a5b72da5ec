/** The retention bench's corpus: every session file read through the CLI's readers, families and the fixed halves. */
import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { corpusFiles, corpusSources, familyOf, halves, SESSION_FILE } from "../../bench/retention-corpus.js";
import { byFamily, familyTable, paysTable, targetLines, type Measured } from "../../bench/retention-tables.js";
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

  it("splits each family alternately in name order, the first file tuning", () => {
    const h = halves(["pi_b.jsonl", "codex_a.jsonl", "pi_a.jsonl", "pi-c.jsonl", "codex_b.jsonl"]);
    // Name order: pi-c < pi_a < pi_b ('-' sorts before '_').
    expect(Object.fromEntries(h)).toEqual({ "codex_a.jsonl": "tuning", "codex_b.jsonl": "checking", "pi-c.jsonl": "tuning", "pi_a.jsonl": "checking", "pi_b.jsonl": "tuning" });
  });

  it("is empty when the folder is absent, and a present file the readers cannot read fails", () => {
    expect(corpusFiles(join(tmpdir(), "no-such-corpus-here"))).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), "cliff-corpus-"));
    writeFileSync(join(dir, "README.md"), "# not a session");
    writeFileSync(join(dir, "x_1.json"), chat(1));
    writeFileSync(join(dir, "x_2.json"), chat(2));
    const read = corpusSources(dir);
    expect(read.map((s) => [s.name, s.family, s.half, s.dialect])).toEqual([["x_1.json", "x", "tuning", "openai-chat"], ["x_2.json", "x", "checking", "openai-chat"]]);
    expect(corpusSources(dir, "checking").map((s) => s.name)).toEqual(["x_2.json"]);
    writeFileSync(join(dir, "y_1.traj"), "{ not json");
    expect(() => corpusSources(dir)).toThrow(/y_1\.traj/);
  });
});

describe("the retention bench's tables", () => {
  const named = [...policies(""), ...rulesOff()];
  const t = (held: number, kept: number) => ({ needed: 100, held, kept, history: 100 });
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

  it("says what each rule pays, in points of held and kept, per family", () => {
    const pays = paysTable([row("a", 90, 90)], named);
    expect(pays).toHaveLength(1 + RECALL_RULES.length);
    expect(pays[1]).toMatch(/^  recall -editMaxChars\s+\+5\.0\/\+5\.0\s+\+5\.0\/\+5\.0$/);
  });
});

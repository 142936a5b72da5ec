/**
 * Which rule kept each needed token a cliff held (cliffCost's heldBy): the head, the kept tail, or
 * the summary line a rule made, named with its config key. Every held token is named once, by the
 * first rule in a fixed order (the reference's own rules before the recall rules), so a recall rule
 * is credited only with what nothing else kept.
 */
import { describe, expect, it } from "vitest";
import { compact, resolveConfig, type Config } from "../../core/index.js";
import { cliffCost, type HeldItem } from "../../core/retention/cliff-cost.js";
import { TokenReader } from "../../core/retention/retention.js";
import { READ_STUB_OPENINGS } from "../../core/parts/index.js";

const filler = "a line of a long file that the defaults drop whole\n".repeat(12);

type Msg = Record<string, unknown>;

function turn(msgs: unknown[], id: string, name: string, input: unknown, result: string, error = false): void {
  msgs.push({ role: "assistant", content: [{ type: "text", text: `step ${id}` }, { type: "tool_use", id, name, input }] });
  msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result, ...(error ? { is_error: true } : {}) }] });
}

/** Claude Code shapes: a task naming a file, a short result, a long read, an edit past the signature cap, a failed test run, filler turns. */
function history(): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the totals in lib/totals_v1.ts." }];
  turn(msgs, "t0", "Bash", { command: "ls build_dir_7" }, "out_file_9.txt");
  turn(msgs, "t1", "Read", { file_path: "lib/a.ts" }, `${filler}export function computeTotalV2() {}\n`);
  turn(msgs, "t2", "Edit", { file_path: "lib/a.ts", old_string: "x", new_string: `${"y".repeat(200)}\nconst helperFnV3 = 1;` }, "ok");
  turn(msgs, "t3", "Bash", { command: "npm test" }, `${filler}FAIL test/totals.test.ts\nAssertionError: expected sumOfRows_4 to equal 12\nExit code: 1`, true);
  for (let i = 0; i < 3; i++) turn(msgs, `f${i}`, "Bash", { command: "npm run lint" }, `passed keptTail_${i}`);
  return msgs;
}

const FUTURE_TEXT = "lib/totals_v1.ts build_dir_7 out_file_9.txt computeTotalV2 helperFnV3 sumOfRows_4 keptTail_2";
const future = [{ role: "assistant", content: [{ type: "text", text: FUTURE_TEXT }] }];

function heldBy(input: unknown[], cfg: Config): { items: HeldItem[]; held: number; needed: number } {
  const r = compact(input, "anthropic", cfg)!;
  const cost = cliffCost(input, future, r, cfg, new TokenReader("anthropic"));
  return { items: cost.heldBy, held: cost.held, needed: cost.needed };
}

const byRule = (items: HeldItem[]): Record<string, string[]> => Object.fromEntries(items.map((i) => [i.rule, i.tokens]));

describe("which rule kept each needed token a cliff held", () => {
  it("the reference profile: the head, the kept tail, a short result whole and a call's signature line, each named with its key", () => {
    const { items, held, needed } = heldBy(history(), resolveConfig({ profile: "reference" }));
    expect(needed).toBe(7);
    expect(held).toBe(4);
    expect(items).toEqual([
      { rule: "head", key: null, tokens: ["lib/totals_v1.ts"] },
      { rule: "tail", key: "keepRecent", tokens: ["keptTail_2"] },
      { rule: "result", key: "resultMaxChars", tokens: ["out_file_9.txt"] },
      { rule: "call", key: "cmdMaxChars", tokens: ["build_dir_7"] },
    ]);
  });

  it("the recall rules: an edit's new text, the working set's newest read, a failed result's end, each by its own key", () => {
    const cfg = resolveConfig({ profile: "reference", editMaxChars: 8000, workingSetFileMaxChars: 4000, errorTailMaxChars: 300 });
    const { items, held, needed } = heldBy(history(), cfg);
    expect([held, needed]).toEqual([7, 7]);
    const rules = byRule(items);
    expect(rules.edit).toEqual(["helperFnV3"]);
    expect(rules["working-set"]).toEqual(["computeTotalV2"]);
    expect(rules["error-tail"]).toEqual(["sumOfRows_4"]);
    expect(items.find((i) => i.rule === "edit")!.key).toBe("editMaxChars");
    expect(items.find((i) => i.rule === "working-set")!.key).toBe("workingSetFileMaxChars");
    expect(items.find((i) => i.rule === "error-tail")!.key).toBe("errorTailMaxChars");
  });

  it("the tail focus and a pinned file, each by its own key", () => {
    const msgs = history();
    // The kept tail names the failing test: the focus keeps the lines of the dropped run that mention it.
    (msgs[msgs.length - 2] as Msg).content = [{ type: "text", text: "look at test/totals.test.ts" }, { type: "tool_use", id: "f2", name: "Bash", input: { command: "npm run lint" } }];
    const focus = byRule(heldBy(msgs, resolveConfig({ profile: "reference", tailFocus: true, focusContextLines: 1 })).items);
    expect(focus.focus).toContain("sumOfRows_4");
    expect(heldBy(msgs, resolveConfig({ profile: "reference", tailFocus: true })).items.find((i) => i.rule === "focus")!.key).toBe("tailFocus");
    const pinned = heldBy(history(), resolveConfig({ profile: "reference", keepFiles: ["lib/a.ts"] })).items;
    expect(byRule(pinned).pinned).toEqual(["computeTotalV2"]);
    expect(pinned.find((i) => i.rule === "pinned")!.key).toBe("keepFiles");
  });

  it("back-references: the lines of a dropped result a later step names (backRefMaxChars)", () => {
    const msgs = history();
    // A step after the failed run names the assertion; the next turns use the row it failed on.
    msgs.splice(9, 0, { role: "assistant", content: [{ type: "text", text: "the AssertionError again" }] });
    const items = heldBy(msgs, resolveConfig({ profile: "reference", backRefMaxChars: 800 })).items;
    expect(byRule(items)["back-ref"]).toEqual(["sumOfRows_4"]);
    expect(items.find((i) => i.rule === "back-ref")!.key).toBe("backRefMaxChars");
  });

  it("a file Claude Code answers with a re-read stub: the stubbed read keeps it (keepStubbedReads)", () => {
    const msgs = history();
    // The newest kept turn reads lib/a.ts again and gets the stub.
    msgs.splice(msgs.length - 2, 2);
    turn(msgs, "f2", "Read", { file_path: "lib/a.ts" }, READ_STUB_OPENINGS[0]);
    const items = heldBy(msgs, resolveConfig({ profile: "reference" })).items;
    expect(byRule(items)["stubbed-read"]).toEqual(["computeTotalV2"]);
    expect(items.find((i) => i.rule === "stubbed-read")!.key).toBe("keepStubbedReads");
  });

  it("names every held token once, whatever rules are on, and a superseded copy keeps nothing", () => {
    const msgs: unknown[] = [{ role: "user", content: "Fix lib/a.ts" }];
    turn(msgs, "r1", "Read", { file_path: "lib/a.ts" }, `${filler}const oldCopyOnly_1 = 1;\nconst sharedLine_2 = 2;\n`);
    turn(msgs, "r2", "Read", { file_path: "lib/a.ts" }, `${filler}const newCopyOnly_3 = 3;\nconst sharedLine_2 = 2;\n`);
    for (let i = 0; i < 3; i++) turn(msgs, `f${i}`, "Bash", { command: "npm run lint" }, `passed keptTail_${i}`);
    const later = [{ role: "assistant", content: "oldCopyOnly_1 sharedLine_2 newCopyOnly_3 keptTail_1" }];
    for (const profile of ["reference", "recall"] as const) {
      const cfg = resolveConfig({ profile, archive: false });
      const r = compact(msgs, "anthropic", cfg)!;
      const cost = cliffCost(msgs, later, r, cfg, new TokenReader("anthropic"));
      const named = cost.heldBy.flatMap((i) => i.tokens);
      expect(named.length).toBe(cost.held);
      expect(new Set(named).size).toBe(named.length);
      if (profile === "recall") expect(byRule(cost.heldBy)["working-set"]).toEqual(["sharedLine_2", "newCopyOnly_3"]);
    }
  });

  it("ref lines read the same without the export: lines with refs are still credited to their rule, and nothing is exported again", () => {
    const written: string[] = [];
    const archive = (text: string): string => (written.push(text), `/arch/${text.length}.txt`);
    const cfg = resolveConfig({ profile: "reference", editMaxChars: 100, refs: true, recallTool: true, archive: true });
    const input = history();
    const r = compact(input, "anthropic", cfg, { archive })!;
    const before = written.length;
    expect(before).toBeGreaterThan(0);
    const cost = cliffCost(input, future, r, cfg, new TokenReader("anthropic"));
    expect(written.length).toBe(before);
    expect(r.summaryText).toMatch(/\ncall: cut [\d,]+ chars, ref [0-9a-f]{12}(\n|$)/);
    expect(byRule(cost.heldBy).other).toBeUndefined();
  });
});

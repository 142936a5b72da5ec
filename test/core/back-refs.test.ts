/**
 * Back-references (backRefMaxChars, backRefTotalMaxChars): a long result the length rule drops,
 * that a later model message of the compacted span names (a distinctive line's word, an error
 * code, a path), gives the lines that name it, verbatim, in every dialect. Off in the reference
 * profile; warm = cold through the engine with it on.
 */
import { describe, expect, it } from "vitest";
import { compact, Engine, resolveConfig } from "../../core/index.js";
import { BACK_REF_TAG } from "../../core/parts/back-refs.js";
import { ALL_DIALECTS, filler, session, type Step } from "../helpers/tool-steps.js";

const pad = (label: string, n: number): string => Array.from({ length: n }, (_, i) => `${label} filler ${i} of a long listing`).join("\n");
const TEST_RUN = `${pad("before", 20)}\nFAIL test/totals.test.ts\nAssertionError: expected sumOfRows_4 to equal 12\n    at Object.<anonymous> (test/totals.test.ts:41:7)\n${pad("after", 20)}`;
const COMPILE = `${pad("tsc", 20)}\nsrc/grid.ts(14,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.\n${pad("tsc tail", 20)}`;
const GREP = `${pad("grep", 20)}\nsrc/lib/parse_util.ts:12:export function parseCell(raw) {\n${pad("grep tail", 20)}`;
const ON = { backRefMaxChars: 800, backRefTotalMaxChars: 2000 };
const tail: Step[] = [0, 1, 2].map(filler);

function summaryOf(steps: Step[], dialect: (typeof ALL_DIALECTS)[number], cfg: Record<string, unknown> = {}): string {
  const r = compact(session(dialect, steps), dialect, { profile: "reference", keepRecent: 3, ...cfg });
  expect(r).not.toBeNull();
  return r!.summaryText;
}

/** The back-reference lines of a summary, without their tag. */
function backRefLines(summary: string): string[] {
  return summary.split("\n\n---\n\n").filter((p) => p.startsWith(BACK_REF_TAG)).flatMap((p) => p.slice(BACK_REF_TAG.length).split("\n"));
}

describe("back-references: a dropped result a later message names gives the lines that name it", () => {
  it.each(ALL_DIALECTS)("%s: a distinctive line's word, an error code and a path, each named by a later step", (dialect) => {
    const steps: Step[] = [
      { name: "bash", args: { command: "npm test" }, result: TEST_RUN },
      { name: "bash", args: { command: "npx tsc" }, result: COMPILE },
      { name: "bash", args: { command: "grep -rn parseCell src" }, result: GREP },
      { name: "bash", args: { command: "git status" }, result: "clean", say: "sumOfRows_4 is off by one; TS2345 in grid; see src/lib/parse_util.ts" },
      ...tail,
    ];
    const without = summaryOf(steps, dialect);
    expect(without).not.toContain("sumOfRows_4 to equal");
    const s = summaryOf(steps, dialect, ON);
    const lines = backRefLines(s);
    expect(lines).toContain("AssertionError: expected sumOfRows_4 to equal 12");
    expect(lines).toContain("src/grid.ts(14,3): error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.");
    expect(lines).toContain("src/lib/parse_util.ts:12:export function parseCell(raw) {");
    // Verbatim: every line is a whole line of one of the results.
    const source = new Set([TEST_RUN, COMPILE, GREP].flatMap((t) => t.split("\n")));
    for (const l of lines) expect(source.has(l), l).toBe(true);
    // Everything the rule-less summary had is still there, in order.
    expect(s.split("\n\n---\n\n").filter((p) => !p.startsWith(BACK_REF_TAG)).join("\n\n---\n\n")).toBe(without);
  });

  it("a word named only before the result, or only in the kept tail, gives nothing", () => {
    const steps: Step[] = [
      { name: "bash", args: { command: "echo" }, result: "ok", say: "looking for sumOfRows_4" },
      { name: "bash", args: { command: "npm test" }, result: TEST_RUN },
      { name: "bash", args: { command: "git status" }, result: "clean", say: "nothing to see" },
      ...tail,
    ];
    expect(backRefLines(summaryOf(steps, "anthropic", ON))).toEqual([]);
  });

  it("off in the reference profile, on in the recall profile; the caps hold", () => {
    expect(resolveConfig({ profile: "reference" }).backRefMaxChars).toBe(0);
    expect(resolveConfig({ profile: "recall" }).backRefMaxChars).toBeGreaterThan(0);
    const steps: Step[] = [
      ...Array.from({ length: 6 }, (_, i): Step => ({ name: "bash", args: { command: `npm test ${i}` }, result: TEST_RUN })),
      { name: "bash", args: { command: "git status" }, result: "clean", say: "sumOfRows_4 and filler again" },
      ...tail,
    ];
    const s = summaryOf(steps, "anthropic", { backRefMaxChars: 120, backRefTotalMaxChars: 300 });
    const parts = s.split("\n\n---\n\n").filter((p) => p.startsWith(BACK_REF_TAG)).map((p) => p.slice(BACK_REF_TAG.length));
    expect(parts.length).toBeGreaterThan(0);
    // A cut excerpt ends with "...", as the focus's do.
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(120 + 3);
    expect(parts.reduce((n, p) => n + p.length, 0)).toBeLessThanOrEqual(300 + 3);
  });

  it("a result the working set keeps whole is not repeated", () => {
    const steps: Step[] = [
      { name: "Read", args: { file_path: "src/totals.ts" }, result: TEST_RUN },
      { name: "bash", args: { command: "git status" }, result: "clean", say: "sumOfRows_4 is off by one" },
      ...tail,
    ];
    const s = summaryOf(steps, "anthropic", { ...ON, workingSetFileMaxChars: 8000 });
    expect(s).toContain("AssertionError: expected sumOfRows_4 to equal 12");
    expect(backRefLines(s)).toEqual([]);
  });

  it("warm = cold through the engine with the rule on: every request's body whatever the engine saw before", () => {
    const steps: Step[] = [];
    for (let i = 0; i < 12; i++) {
      steps.push({ name: "bash", args: { command: `npm test -- part_${i}` }, result: TEST_RUN.replace("sumOfRows_4", `sumOfRows_${i}_x`) });
      steps.push({ name: "bash", args: { command: "git status" }, result: "clean", say: `sumOfRows_${i}_x is off by one` });
    }
    const messages = session("anthropic", steps);
    const cfg = { profile: "recall" as const, archive: false, thresholdTokens: 3000, minGainTokens: 0 };
    const body = (k: number) => ({ model: "m", max_tokens: 100, messages: messages.slice(0, k) });
    const warm = new Engine(cfg);
    let named = 0;
    for (let k = 3; k <= messages.length; k += 2) {
      const w = JSON.stringify(warm.prepare(body(k), "anthropic").outgoingBody());
      expect(JSON.stringify(new Engine(cfg).prepare(body(k), "anthropic").outgoingBody()), `request ${k}`).toBe(w);
      if (w.includes(BACK_REF_TAG)) named++;
    }
    expect(named).toBeGreaterThan(0);
  });
});

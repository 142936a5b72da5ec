/**
 * simulate's verdict line against its own bill: the amounts it names are the table's, and the
 * percentages it states follow from the table's column (in dollars where the model is priced, the
 * LLM summary's calls' output included; in billed input tokens where it is not).
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { against, dollarFormat, verdictLine } from "../../cli/simulate/index.js";

const FIX = new URL("../fixtures/sessions/", import.meta.url).pathname;
const CORPUS = new URL("../../../shared/corpus/", import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), "cliff-verdict-"));
const simulate = (args: string[]): string => {
  const r = spawnSync(process.execPath, ["dist/cli.mjs", "simulate", ...args], { encoding: "utf8", timeout: 180_000, env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, "cache") } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};

const number = (s: string): number => Number(s.replace(/[$,]/g, ""));

/** The table's value for each row (the dollars column where there is one, else billed) and the text of that cell. */
function column(out: string, priced: boolean): Record<"cliff" | "none" | "llm", { text: string; value: number; unit: number }> {
  const row = (label: string) => {
    const line = out.split("\n").find((l) => l.trimStart().startsWith(label))!;
    const cells = line.slice(line.indexOf(label) + label.length).trim().split(/\s+/);
    const text = priced ? cells[3] : cells[2];
    const decimals = text.includes(".") ? text.split(".")[1].length : 0;
    return { text, value: number(text), unit: 10 ** -decimals };
  };
  return { cliff: row("cliffcompaction"), none: row("no compaction"), llm: row("LLM summary, same cliffs") };
}

/** The percentage (less positive, more negative) the column allows for a against b, given its rounding. */
function allowed(a: { value: number; unit: number }, b: { value: number; unit: number }): [number, number] {
  const lo = 100 * (1 - (a.value + a.unit / 2) / Math.max(1e-9, b.value - b.unit / 2));
  const hi = 100 * (1 - (a.value - a.unit / 2) / (b.value + b.unit / 2));
  return [lo - 0.05, hi + 0.05];
}

const signed = (phrase: string): number => (phrase.endsWith("less") ? 1 : -1) * Number(phrase.split("%")[0]);

function checkVerdict(out: string, priced: boolean): void {
  const verdict = out.split("\n").find((l) => l.startsWith("cliffcompaction costs") || l.startsWith("cliffcompaction bills"))!;
  expect(verdict, out).toBeDefined();
  const col = column(out, priced);
  if (priced) {
    expect(verdict.startsWith(`cliffcompaction costs ${col.cliff.text}:`)).toBe(true);
    expect(verdict).toContain(`than no compaction (${col.none.text})`);
  } else {
    expect(verdict.startsWith(`cliffcompaction bills ${col.cliff.text} input tokens:`)).toBe(true);
    expect(verdict).toContain(`than no compaction (${col.none.text})`);
  }
  const phrases = [...verdict.matchAll(/(\d+\.\d)% (less|more)/g)].map((m) => `${m[1]}% ${m[2]}`);
  expect(phrases.length).toBeGreaterThanOrEqual(1);
  const [lo, hi] = allowed(col.cliff, col.none);
  expect(signed(phrases[0])).toBeGreaterThanOrEqual(lo);
  expect(signed(phrases[0])).toBeLessThanOrEqual(hi);
  if (phrases.length > 1) {
    expect(verdict).toContain(`(${col.llm.text},`);
    const [lo2, hi2] = allowed(col.cliff, col.llm);
    expect(signed(phrases[1])).toBeGreaterThanOrEqual(lo2);
    expect(signed(phrases[1])).toBeLessThanOrEqual(hi2);
  }
}

describe("simulate's verdict line and its dollar column", () => {
  it("a priced session (Codex, gpt-5-codex): dollars, the summary call's output in the LLM summary's, costing more said as more, with why", () => {
    const out = simulate([join(FIX, "codex-rollout.jsonl"), "--threshold", "2000"]);
    expect(out).toContain("dollars at the model's list prices");
    checkVerdict(out, true);
    expect(out).toMatch(/% more than no compaction/);
    expect(out).toContain("a cliff writes the prompt cache afresh");
    expect(out).not.toMatch(/-\d+\.\d% less/);
  });
  it("an unpriced session: billed input tokens, the summary calls' output named", () => {
    const out = simulate(["examples/session.json", "--threshold", "20000"]);
    checkVerdict(out, false);
    expect(out).toMatch(/whose 2 summary calls also write [\d,]+ output tokens/);
  });
  for (const [name, extra] of [["claudecode_task64-develop.jsonl", []], ["gemini_axe.jsonl", ["--threshold", "33000"]]] as const) {
    const path = join(CORPUS, name);
    if (!existsSync(path)) continue;
    it(`${name}: the verdict's percentages are the dollar column's`, () => {
      checkVerdict(simulate([path, ...extra]), true);
    });
  }
});

describe("the verdict's words", () => {
  it("less, more, the same", () => {
    expect(against(50, 100)).toBe("50.0% less");
    expect(against(110, 100)).toBe("10.0% more");
    expect(against(100, 100)).toBe("the same");
  });
  it("dollars written with the digits their size needs", () => {
    expect(dollarFormat([15.03, 38.58])(15.031)).toBe("$15.03");
    expect(dollarFormat([0.153, 0.229])(0.1534)).toBe("$0.153");
    expect(dollarFormat([0.0053, 0.0044])(0.00531)).toBe("$0.0053");
  });
  it("nothing billed: no verdict", () => {
    const zero = { input: 0, cached: 0, billed: 0, extraCalls: 0, extraOutput: 0, written: 0, dollars: 0, tiered: 0, expired: 0 };
    expect(verdictLine({ priced: true, cliff: zero, none: zero, llm: zero })).toBeNull();
  });
});

/**
 * Asked twice (askedTwiceMaxChars, askedTwiceTotalMaxChars): the newest result of a call the
 * history repeats keeps its text at the next cliff; a call made once keeps what the other rules
 * keep. Each test states what the rule's absence gives, so it fails while the rule is missing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compact, Engine, getDialect, PROFILES, resolveConfig, type CompactResult } from "../../core/index.js";
import { compactWith, PartsCache } from "../../core/compact.js";
import { rungConfig, type Rung } from "../../core/ladder.js";
import { DIALECT_SESSIONS } from "../helpers/arbitraries.js";
import { callKey } from "../../core/repeats/call-key.js";
import { ALL_DIALECTS, filler, numberedLines, session, type Step } from "../helpers/tool-steps.js";

const fillers = (n = 3): Step[] => Array.from({ length: n }, (_, i) => filler(i));
const ON = { askedTwiceMaxChars: 8000, askedTwiceTotalMaxChars: 16000 };
const summary = (msgs: unknown[], dialect: string, cfg: Record<string, unknown> = {}, prior?: Map<string, number>): string => {
  const r: CompactResult | null = compact(msgs, dialect, { profile: "reference", keepRecent: 3, ...cfg }, { priorCalls: prior });
  expect(r).not.toBeNull();
  return r!.summaryText;
};
const out1 = numberedLines("FAIL test/widget.spec.ts first run", 30);
const out2 = numberedLines("FAIL test/widget.spec.ts second run", 30);

describe("asked twice: the newest result of a repeated call stays", () => {
  it.each(ALL_DIALECTS)("%s: a command run twice keeps its newest output whole, the older one as before", (dialect) => {
    const steps: Step[] = [
      { name: "bash", args: { command: "npm test" }, result: out1 },
      { name: "bash", args: { command: "npm  test" }, result: out2 },
      ...fillers(),
    ];
    const msgs = session(dialect, steps);
    expect(summary(msgs, dialect)).not.toContain("second run line 29");
    const s = summary(msgs, dialect, ON);
    expect(s).toContain(`result: ${out2}`);
    expect(s).not.toContain("first run line 29");
  });

  it.each(ALL_DIALECTS)("%s: a file read twice keeps its newest read (the working set off)", (dialect) => {
    const steps: Step[] = [
      { name: "Read", args: { file_path: "src/widget.ts" }, result: out1 },
      { name: "Read", args: { file_path: "./src/widget.ts" }, result: out2 },
      ...fillers(),
    ];
    const s = summary(session(dialect, steps), dialect, ON);
    expect(s).toContain(`result: ${out2}`);
  });

  it("a call made once keeps what the other rules keep", () => {
    const msgs = session("anthropic", [{ name: "bash", args: { command: "npm test" }, result: out1 }, { name: "bash", args: { command: "npm run lint" }, result: out2 }, ...fillers()]);
    expect(summary(msgs, "anthropic", ON)).toBe(summary(msgs, "anthropic"));
  });

  it("a call an earlier cliff replaced counts: made once in the span and once before, its result stays", () => {
    const msgs = session("anthropic", [{ name: "bash", args: { command: "npm test" }, result: out2 }, ...fillers()]);
    expect(summary(msgs, "anthropic", ON)).not.toContain("second run line 29");
    const prior = new Map([[callKey("bash", { command: "npm test" }), 1]]);
    expect(summary(msgs, "anthropic", ON, prior)).toContain(`result: ${out2}`);
  });

  it("each result within askedTwiceMaxChars, all within askedTwiceTotalMaxChars, newest first", () => {
    const steps: Step[] = [];
    for (const c of ["make a", "make b", "make c"]) steps.push({ name: "bash", args: { command: c }, result: numberedLines(`${c} out`, 30) }, { name: "bash", args: { command: c }, result: numberedLines(`${c} again`, 30) });
    const msgs = session("anthropic", [...steps, ...fillers()]);
    const one = numberedLines("make a again", 30).length + "result: ".length;
    const s = summary(msgs, "anthropic", { askedTwiceMaxChars: 8000, askedTwiceTotalMaxChars: one * 2 + 10 });
    expect(s).toContain("make c again line 29");
    expect(s).toContain("make b again line 29");
    expect(s).not.toContain("make a again line 29");
    const capped = summary(msgs, "anthropic", { askedTwiceMaxChars: 100, askedTwiceTotalMaxChars: 16000 });
    expect(capped).toContain("make c again line 0");
    expect(capped).not.toContain("make c again line 29");
  });

  it("a file read twice that the working set lets fall back past its total stays on this rule's budget", () => {
    const big = (label: string) => numberedLines(label, 40);
    const steps: Step[] = [
      { name: "Read", args: { file_path: "src/twice.ts" }, result: big("twice v1") },
      { name: "Read", args: { file_path: "src/twice.ts" }, result: big("twice v2") },
      { name: "Read", args: { file_path: "src/once.ts" }, result: big("once only") },
      ...fillers(),
    ];
    const msgs = session("anthropic", steps);
    const ws = { workingSetFileMaxChars: 16000, workingSetMaxChars: big("once only").length + 20 };
    expect(summary(msgs, "anthropic", ws)).not.toContain("twice v2 line 39");
    const s = summary(msgs, "anthropic", { ...ws, ...ON });
    expect(s).toContain("twice v2 line 39");
    expect(s).toContain("once only line 39");
    expect(s).not.toContain("twice v1 line 39");
  });

  it("on in the recall profile, off in the reference one", () => {
    expect(PROFILES.recall.askedTwiceMaxChars).toBeGreaterThan(0);
    // The reference profile sets it back to the reference's value (the recall profile is the default).
    expect(PROFILES.reference.askedTwiceMaxChars).toBe(0);
    expect(new Engine({ profile: "reference" }).config.askedTwiceMaxChars).toBe(0);
  });
});

describe("asked twice keeps the parts cache correct", () => {
  for (const [name, sessions] of DIALECT_SESSIONS) {
    it(`${name}: every rung's summary under the rule (with the working set) equals a fresh compaction's`, () => {
      fc.assert(
        fc.property(sessions, fc.shuffledSubarray([0, 1, 2, 0, 2, 1] as Rung[], { minLength: 1 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), (messages, rungs, keepRecent, ws) => {
          const d = getDialect(name);
          const base = resolveConfig({ profile: "reference", keepRecent, thoughtMaxChars: 40, askedTwiceMaxChars: 60, askedTwiceTotalMaxChars: 150, ...(ws ? { workingSetFileMaxChars: 80, workingSetMaxChars: 100 } : {}) });
          const cache = new PartsCache();
          const prior = new Map([[callKey("read", { path: "a.ts" }), 1]]);
          for (const rung of rungs) {
            const cfg = rungConfig(base, rung);
            const shared = compactWith(messages, d, cfg, { partsCache: cache, priorCalls: prior });
            const fresh = compactWith(messages, d, cfg, { priorCalls: prior });
            expect(shared?.summaryText ?? null).toEqual(fresh?.summaryText ?? null);
          }
        }),
        { numRuns: 200 },
      );
    });
  }
});

import { describe, expect, it } from "vitest";
import { compactToBudget, estimateTokens, maxRung, planCliff, resolveConfig, rungConfig, toConfig, DEFAULT_CONFIG, SUMMARY_HEADER } from "../../core/index.js";
import { aSession } from "../helpers/sessions.js";

function fatSession(turns: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "thinking", thinking: `think ${i} `.repeat(40) }, { type: "text", text: `Step ${i} `.repeat(100) }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `cmd ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `short ${i}` }] });
  }
  return msgs;
}

describe("compactToBudget", () => {
  it("rung knobs: 1 lowers keepRecent to at most 1 (never raises 0); 2 caps thoughts at 300 and drops thinking", () => {
    expect(rungConfig({ ...DEFAULT_CONFIG }, 1).keepRecent).toBe(1);
    expect(rungConfig({ ...DEFAULT_CONFIG, keepRecent: 0 }, 1).keepRecent).toBe(0);
    expect(rungConfig({ ...DEFAULT_CONFIG }, 2)).toMatchObject({ keepRecent: 1, thoughtMaxChars: 300, keepThinking: false });
    expect(rungConfig({ ...DEFAULT_CONFIG, thoughtMaxChars: 100 }, 2).thoughtMaxChars).toBe(100);
  });

  it("stays on rung 0 when the base cliff fits", () => {
    const r = compactToBudget(aSession(10), "anthropic", { keepRecent: 2 }, 100000);
    expect(r.rung).toBe(0);
    expect(r.overBudget).toBe(false);
    expect(r.estTokens).toBe(estimateTokens(r.result!.messages));
  });

  it("walks up the rungs until the estimate fits, keeping head and tail", () => {
    const msgs = fatSession(8);
    const base = compactToBudget(msgs, "anthropic", { keepRecent: 3 }, 1e9);
    const r1 = compactToBudget(msgs, "anthropic", { keepRecent: 3 }, base.estTokens - 1);
    expect(r1.rung).toBeGreaterThanOrEqual(1);
    expect(r1.result!.messages.filter((m) => (m as { role: string }).role === "assistant")).toHaveLength(1);
    const r2budget = compactToBudget(msgs, "anthropic", { keepRecent: 3 }, 0, { maxRung: 1 });
    expect(r2budget.rung).toBe(1);
    expect(compactToBudget(msgs, "anthropic", { keepRecent: 3 }, r2budget.estTokens - 1).rung).toBeGreaterThanOrEqual(2);
  });

  it("rung 3 keeps the newest contiguous parts that fit", () => {
    const msgs = fatSession(8);
    const rung2 = compactToBudget(msgs, "anthropic", {}, 0, { maxRung: 2 });
    expect(rung2.rung).toBe(2);
    const tight = rung2.estTokens - 200;
    const r = compactToBudget(msgs, "anthropic", {}, tight);
    expect(r.rung).toBe(3);
    expect(r.overBudget).toBe(false);
    expect(r.estTokens).toBeLessThanOrEqual(tight);
    expect(r.result!.summaryText.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(r.result!.summaryText).toContain("Step 6 ");
    expect(r.result!.summaryText).not.toContain("Step 0 ");
    expect(r.result!.messages[0]).toBe(msgs[0]);
    expect(r.result!.messages.at(-1)).toBe(msgs.at(-1));
  });

  it("reports overBudget when even the bare header does not fit; never cuts head or tail", () => {
    const r = compactToBudget(fatSession(4), "anthropic", {}, 5);
    expect(r.overBudget).toBe(true);
    expect(r.rung).toBe(3);
    expect(r.result!.summaryText).toBe(SUMMARY_HEADER);
  });

  it("non-arrays give a null result", () => {
    expect(compactToBudget("x", "anthropic", {}, 10).result).toBeNull();
  });

  it("shed drops host sections after rung 2 and before rung 3, and the lowest rung that then fits wins", () => {
    const msgs = fatSession(8);
    const rung0 = planCliff(msgs, "anthropic", {}, Infinity, { maxRung: 0 });
    let extra = 1_000_000;
    const sheds: number[] = [];
    const plan = planCliff(msgs, "anthropic", {}, rung0.estTokens, {
      measure: (r) => estimateTokens(r.messages) + extra,
      shed: () => {
        sheds.push(extra);
        if (extra === 0) return false;
        extra = 0;
        return true;
      },
    });
    expect(sheds).toEqual([1_000_000]);
    expect(plan.rung).toBe(0);
    expect(plan.overBudget).toBe(false);
    // With nothing left to shed the walk goes on to rung 3.
    const r3 = planCliff(msgs, "anthropic", {}, 10, { shed: () => false });
    expect(r3.rung).toBe(3);
  });

  it("head policy: before-first-turn keeps an old-summary-looking head message that detect would cut", () => {
    const msgs = [{ role: "user", content: SUMMARY_HEADER + " pasted by the user" }, ...fatSession(6).slice(1)];
    const detect = planCliff(msgs, "anthropic", { keepRecent: 1 }, 0);
    const before = planCliff(msgs, "anthropic", { keepRecent: 1 }, 0, { head: "before-first-turn" });
    expect(detect.result!.headLen).toBe(0);
    expect(before.result!.headLen).toBe(1);
    expect(before.result!.messages[0]).toBe(msgs[0]);
  });

  it("maxRung: rung 3 only in strict mode", () => {
    expect(maxRung(resolveConfig({ strict: true }))).toBe(3);
    expect(maxRung(resolveConfig())).toBe(2);
  });

  it("a config from resolveConfig is used as it is; anything else is validated", () => {
    const cfg = resolveConfig({ keepRecent: 2 });
    expect(toConfig(cfg)).toBe(cfg);
    expect(Object.isFrozen(cfg)).toBe(true);
    expect(toConfig({ keepRecent: 2 })).toEqual(cfg);
    expect(() => toConfig({ keepRecent: -1 })).toThrow(/keepRecent/);
    expect(() => toConfig({ ...cfg, keepRecent: 1.5 })).toThrow(/keepRecent/);
  });
});

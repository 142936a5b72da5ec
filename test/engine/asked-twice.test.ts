/**
 * Asked twice through the engine: a call made before one cliff and again after it keeps its newest
 * result at the next cliff, though the first call lies before the working list's summary (the
 * replay counts it from the original history), and an engine that saw no earlier request sends
 * the same body.
 */
import { describe, expect, it } from "vitest";
import { Engine, summaryMessageText } from "../../core/index.js";
import { filler, numberedLines, session, type Step } from "../helpers/tool-steps.js";

const out = (label: string) => numberedLines(`FAIL test/widget.spec.ts ${label}`, 60);
const cfg = (profile: "recall" | "reference") => ({ profile, thresholdTokens: 1200, keepRecent: 2 });
const pad = (from: number, n: number): Step[] => Array.from({ length: n }, (_, i) => ({ ...filler(from + i), result: numberedLines(`pad ${from + i}`, 12) }));

describe("asked twice in the engine", () => {
  const steps: Step[] = [{ name: "bash", args: { command: "npm test" }, result: out("first") }, ...pad(0, 6), { name: "bash", args: { command: "npm test" }, result: out("again") }, ...pad(10, 8)];
  const msgs = session("anthropic", steps);
  const bodyAt = (n: number) => ({ model: "claude-sonnet-4-5", max_tokens: 100, messages: msgs.slice(0, n) });
  const ends = msgs.map((_, i) => i + 1).filter((n) => n % 2 === 1 && n > 2);

  it("keeps the repeated call's newest result at the next cliff (recall), warm and cold alike; reference does not", () => {
    const warm = new Engine(cfg("recall"));
    let seen: string | null = null;
    for (const n of ends) {
      const ctx = warm.prepare(bodyAt(n), "anthropic");
      const text = ctx.modified ? summaryMessageText(ctx.substituted[ctx.baseHead]) : "";
      // The second run went into a summary whose span does not hold the first: the rule had to count it from before.
      if (text.includes("FAIL test/widget.spec.ts again line 59") && (ctx as unknown as { baseSpan: number }).baseSpan > ctx.baseHead) seen = JSON.stringify(ctx.outgoingBody());
      const cold = new Engine(cfg("recall")).prepare(bodyAt(n), "anthropic");
      expect(JSON.stringify(cold.outgoingBody())).toBe(JSON.stringify(ctx.outgoingBody()));
    }
    expect(seen).not.toBeNull();
    const ref = new Engine(cfg("reference"));
    for (const n of ends) {
      const ctx = ref.prepare(bodyAt(n), "anthropic");
      if (ctx.modified) expect(summaryMessageText(ctx.substituted[ctx.baseHead])).not.toContain("again line 59");
    }
  });

  it("a command made once is not kept by the rule", () => {
    const once = session("anthropic", [{ name: "bash", args: { command: "npm run lint" }, result: out("once") }, ...pad(0, 14)]);
    const e = new Engine(cfg("recall"));
    for (let n = 3; n <= once.length; n += 2) {
      const ctx = e.prepare({ model: "claude-sonnet-4-5", max_tokens: 100, messages: once.slice(0, n) }, "anthropic");
      if (ctx.modified) expect(summaryMessageText(ctx.substituted[ctx.baseHead])).not.toContain("once line 59");
    }
  });
});

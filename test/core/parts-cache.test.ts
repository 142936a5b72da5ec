import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactWith, PartsCache } from "../../core/compact.js";
import { resolveConfig } from "../../core/config/index.js";
import { getDialect } from "../../core/index.js";
import { rungConfig, planCliff, type Rung } from "../../core/ladder.js";
import type { Dialect } from "../../core/dialects/types.js";
import { DIALECT_SESSIONS } from "../helpers/arbitraries.js";

/** The dialect with its summarize calls counted. */
function counted(name: string): { d: Dialect; calls: () => number } {
  const base = getDialect(name);
  let n = 0;
  const d: Dialect = { ...base, summarize: (m, ctx) => (n++, base.summarize(m, ctx)) };
  return { d, calls: () => n };
}

describe("parts shared across the rungs of one plan", () => {
  for (const [name, sessions] of DIALECT_SESSIONS) {
    it(`${name}: every rung's parts equal a fresh compaction's, in any rung order`, () => {
      fc.assert(
        fc.property(sessions, fc.shuffledSubarray([0, 1, 2, 0, 2, 1] as Rung[], { minLength: 1 }), fc.integer({ min: 0, max: 3 }), (messages, rungs, keepRecent) => {
          const d = getDialect(name);
          const base = resolveConfig({ keepRecent, thoughtMaxChars: 40, thinkingMaxChars: 30 });
          const cache = new PartsCache();
          for (const rung of rungs) {
            const cfg = rungConfig(base, rung);
            const shared = compactWith(messages, d, cfg, { partsCache: cache });
            const fresh = compactWith(messages, d, cfg);
            expect(shared?.parts ?? null).toEqual(fresh?.parts ?? null);
            expect(shared?.summaryText ?? null).toEqual(fresh?.summaryText ?? null);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  for (const [name, sessions] of DIALECT_SESSIONS) {
    it(`${name}, recall rules: every rung's parts equal a fresh compaction's (the latest plan and the tail focus depend on the cut)`, () => {
      const focus = fc.option(fc.constantFrom({ text: "line", terms: ["line"] }, { text: "x", terms: ["xx", "todos"] }), { nil: undefined });
      fc.assert(
        fc.property(sessions, fc.shuffledSubarray([0, 1, 2, 0, 2, 1] as Rung[], { minLength: 1 }), fc.integer({ min: 0, max: 3 }), focus, fc.boolean(), (messages, rungs, keepRecent, userFocus, tailFocus) => {
          const d = getDialect(name);
          const base = resolveConfig({ keepRecent, thoughtMaxChars: 40, editMaxChars: 30, errorTailMaxChars: 25, planMaxChars: 40, tailFocus, focusTotalMaxChars: 120 });
          const cache = new PartsCache();
          for (const rung of rungs) {
            const cfg = rungConfig(base, rung);
            const shared = compactWith(messages, d, cfg, { partsCache: cache, focus: userFocus });
            const fresh = compactWith(messages, d, cfg, { focus: userFocus });
            expect(shared?.summaryText ?? null).toEqual(fresh?.summaryText ?? null);
          }
        }),
        { numRuns: 300 },
      );
    });
  }

  // Two calls alike, each with a long result: the older falls back to what the other rules keep of it,
  // a focus excerpt of the word only the 3-turn tail names (rung 0's tail, not rung 2's).
  const twice = (call: { name: string; arguments: string }): unknown[] => {
    const long = (word: string) => Array.from({ length: 60 }, (_, i) => (i === 30 ? `the ${word} line` : `filler ${i}`)).join("\n");
    const asks = (id: string) => ({ role: "assistant", content: "", tool_calls: [{ id, type: "function", function: call }] });
    return [
      { role: "system", content: "sys" },
      { role: "user", content: "task" },
      asks("c1"),
      { role: "tool", tool_call_id: "c1", content: long("zeta_word_9") },
      asks("c2"),
      { role: "tool", tool_call_id: "c2", content: long("other") },
      { role: "assistant", content: "now zeta_word_9 matters" },
      { role: "assistant", content: "step" },
      { role: "assistant", content: "done" },
    ];
  };
  for (const [rule, call, overrides] of [
    ["the working set", { name: "read", arguments: JSON.stringify({ path: "a.ts" }) }, { askedTwiceMaxChars: 0 }],
    ["asked twice", { name: "grep", arguments: JSON.stringify({ pattern: "x" }) }, {}],
  ] as const) {
    it(`${rule}: a copy's fallback read from the focus is the pass's own when its message is made again`, () => {
      const messages = twice(call);
      const d = getDialect("openai-chat");
      const base = resolveConfig({ keepRecent: 3, ...overrides });
      const cache = new PartsCache();
      for (const rung of [2, 0] as Rung[]) {
        const cfg = rungConfig(base, rung);
        const shared = compactWith(messages, d, cfg, { partsCache: cache });
        const fresh = compactWith(messages, d, cfg);
        expect(shared?.parts ?? null).toEqual(fresh?.parts ?? null);
        // Rung 2 keeps one turn, which does not name the word; rung 0's three do.
        expect(fresh!.parts.some((p) => p.startsWith("result (focus excerpt): ") && p.includes("zeta_word_9"))).toBe(rung === 0);
      }
    });
  }

  it("a message whose parts never read the thought settings is summarised once for every rung", () => {
    const messages: unknown[] = [{ role: "user", content: "task" }];
    for (let i = 0; i < 20; i++) {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "read", input: { path: `f${i}.ts` } }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "ok" }] });
    }
    const { d, calls } = counted("anthropic");
    planCliff(messages, d, { profile: "reference", keepRecent: 3, strict: true }, 1);
    // Rungs 0–3 all run (the budget is 1 token); each of the 40 messages before the kept tail is made once.
    expect(calls()).toBeLessThanOrEqual(messages.length - 1);
  });

  it("a message with thinking or visible text is made again under rung 2's thought settings", () => {
    const messages: unknown[] = [{ role: "user", content: "task" }];
    for (let i = 0; i < 10; i++) {
      messages.push({ role: "assistant", content: [{ type: "thinking", thinking: "hmm ".repeat(100), signature: "s" }, { type: "text", text: "I will look. ".repeat(50) }] });
      messages.push({ role: "user", content: "go on" });
    }
    const { d, calls } = counted("anthropic");
    const cache = new PartsCache();
    const base = resolveConfig({ keepRecent: 1 });
    const r0 = compactWith(messages, d, rungConfig(base, 0), { partsCache: cache });
    const afterFirst = calls();
    const r2 = compactWith(messages, d, rungConfig(base, 2), { partsCache: cache });
    // The 9 assistant messages before the tail are made again; the user messages are not.
    expect(calls() - afterFirst).toBe(9);
    expect(r2!.summaryText.length).toBeLessThan(r0!.summaryText.length);
    expect(r2!.summaryText).not.toContain("thinking: ");
  });
});

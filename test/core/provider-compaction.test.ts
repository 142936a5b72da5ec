/**
 * The provider's own compaction in a history: Anthropic's `compaction` content block and a
 * Responses `compaction` item. The head runs through the turn that holds the last one (the provider
 * ignores what comes before it), so it is never summarised, never quoted, never split from the rest
 * of its turn; reasoning items with encrypted content keep their place before their calls.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compact, Engine, SUMMARY_HEADER } from "../../core/index.js";
import { anthropicSession, responsesSession } from "../helpers/arbitraries.js";

const SECRET = "PROVIDER-SUMMARY-7c1e";
const CFG = { keepRecent: 1, thresholdTokens: 200 };

const anthropicTurns = (from: number, n: number): unknown[] =>
  Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return [
      { role: "assistant", content: [{ type: "text", text: `step ${i}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `make ${i}` } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `out ${i} `.repeat(40) }] },
    ];
  }).flat();

describe("Anthropic compaction blocks", () => {
  const compaction = { role: "assistant", content: [{ type: "compaction", content: SECRET }, { type: "text", text: "Continuing." }, { type: "tool_use", id: "tc", name: "bash", input: { command: "ls" } }] };
  const itsResult = { role: "user", content: [{ type: "tool_result", tool_use_id: "tc", content: "a b c" }] };
  const history = [{ role: "user", content: "Build it." }, ...anthropicTurns(0, 3), compaction, itsResult, ...anthropicTurns(3, 6)];

  it("the head runs through the compaction's turn; what follows is summarised; the block is never quoted", () => {
    const r = compact(history, "anthropic", CFG)!;
    const at = history.indexOf(compaction);
    expect(r.headLen).toBe(at + 2);
    expect(r.messages.slice(0, at + 2)).toEqual(history.slice(0, at + 2));
    for (let i = 0; i < at + 2; i++) expect(r.messages[i]).toBe(history[i]);
    expect(r.summaryText.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(r.summaryText).not.toContain(SECRET);
    expect(r.summaryText).toContain("make 3");
    expect(r.summaryText).not.toContain("make 0");
  });

  it("the engine keeps it where it is, request after request", () => {
    const engine = new Engine(CFG);
    for (let n = history.indexOf(compaction) + 1; n <= history.length; n++) {
      const p = engine.prepare({ model: "m", messages: history.slice(0, n) }, "anthropic");
      const out = p.substituted;
      const at = out.indexOf(compaction);
      expect(at).toBe(history.indexOf(compaction));
      if (n > at + 1) expect(out[at + 1]).toBe(itsResult);
      expect(JSON.stringify(out.filter((m) => m !== compaction))).not.toContain(SECRET);
    }
  });

  it("an engine that cliffed before the provider compacted goes on cliffing after the compaction, which stays where the client put it", () => {
    const engine = new Engine(CFG);
    const before = [{ role: "user", content: "Build it." }, ...anthropicTurns(0, 6)];
    expect(engine.prepare({ model: "m", messages: before }, "anthropic").compacted).toBe(true);
    const after = [...before, compaction, itsResult, ...anthropicTurns(6, 6)];
    for (let n = before.length + 2; n <= after.length; n++) {
      const out = engine.prepare({ model: "m", messages: after.slice(0, n) }, "anthropic").substituted;
      expect(out.slice(0, before.length + 2)).toEqual(after.slice(0, before.length + 2));
      if (n === after.length) {
        expect(out.length).toBeLessThan(n);
        expect(JSON.stringify(out[before.length + 2])).toContain(SUMMARY_HEADER);
      }
    }
  });

  it("sent back first (beta compact-2026-09-04), request after request: the head ends at our summary and the list ends as the client's does", () => {
    const first = { role: "assistant", content: [{ type: "compaction", content: SECRET, signature: "sig" }] };
    const go = { role: "user", content: [{ type: "text", text: "Go on." }] };
    const all = [first, go, ...anthropicTurns(0, 30)];
    const engine = new Engine({ keepRecent: 2, thresholdTokens: 600, minGainTokens: 60 });
    let cliffs = 0;
    for (let n = 4; n <= all.length; n += 2) {
      const out = engine.prepare({ model: "m", messages: all.slice(0, n) }, "anthropic").substituted;
      expect(out.slice(0, 2)).toEqual([first, go]);
      expect(out.slice(-4)).toEqual(all.slice(n - 4, n));
      if (out.length < n) {
        cliffs++;
        expect(JSON.stringify(out[2])).toContain(SUMMARY_HEADER);
      }
    }
    expect(cliffs).toBeGreaterThan(5);
  });

  it("a property: inserted anywhere in a random session, the compaction and everything before it stay, never in a summary", () => {
    fc.assert(
      fc.property(anthropicSession, fc.nat(), fc.integer({ min: 20, max: 400 }), (msgs, where, threshold) => {
        const i = msgs.length === 0 ? 0 : where % msgs.length;
        const block = { role: "assistant", content: [{ type: "compaction", content: SECRET }] };
        const history = [...msgs.slice(0, i), block, ...msgs.slice(i)];
        const p = new Engine({ keepRecent: 1, thresholdTokens: threshold }).prepare({ model: "m", messages: history }, "anthropic");
        const at = p.substituted.indexOf(block);
        expect(at).toBe(i);
        for (let k = 0; k <= i; k++) expect(p.substituted[k]).toBe(history[k]);
        expect(JSON.stringify(p.substituted.filter((m) => m !== block))).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });
});

describe("Responses compaction items", () => {
  const compaction = { type: "compaction", id: "cmp_1", encrypted_content: SECRET };
  const turns = (from: number, n: number): unknown[] =>
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      return [
        { type: "reasoning", id: `rs_${i}`, summary: [{ type: "summary_text", text: `think ${i}` }], encrypted_content: `ENC-${i}` },
        { type: "function_call", call_id: `c${i}`, name: "shell", arguments: JSON.stringify({ command: ["make", String(i)] }) },
        { type: "function_call_output", call_id: `c${i}`, output: `out ${i} `.repeat(40) },
      ];
    }).flat();
  const history = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Build it." }] }, compaction, { type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] }, ...turns(0, 6)];

  it("the compaction item and what follows it up to the next model turn stay in the head; never quoted", () => {
    const r = compact(history, "openai-responses", CFG)!;
    expect(r.headLen).toBe(3);
    for (let i = 0; i < 3; i++) expect(r.messages[i]).toBe(history[i]);
    expect(r.summaryText).not.toContain(SECRET);
  });

  it("reasoning items with encrypted content keep their place: each kept one directly before the call it produced", () => {
    const engine = new Engine(CFG);
    for (let n = 4; n <= history.length; n++) {
      const out = engine.prepare({ model: "m", input: history.slice(0, n) }, "openai-responses").substituted;
      expect(out.indexOf(compaction)).toBe(1);
      out.forEach((m, k) => {
        const item = m as { type?: string; encrypted_content?: string };
        if (item.type === "reasoning") expect(out[k + 1] === undefined || out[k + 1] === history[history.indexOf(m) + 1]).toBe(true);
      });
      expect(JSON.stringify(out.filter((m) => m !== compaction))).not.toContain(SECRET);
    }
  });

  it("a property on random Responses sessions", () => {
    fc.assert(
      fc.property(responsesSession, fc.nat(), fc.integer({ min: 20, max: 400 }), (items, where, threshold) => {
        const i = items.length === 0 ? 0 : where % items.length;
        const block = { type: "compaction", encrypted_content: SECRET };
        const history = [...items.slice(0, i), block, ...items.slice(i)];
        const p = new Engine({ keepRecent: 1, thresholdTokens: threshold }).prepare({ model: "m", input: history }, "openai-responses");
        expect(p.substituted.indexOf(block)).toBe(i);
        for (let k = 0; k <= i; k++) expect(p.substituted[k]).toBe(history[k]);
        expect(JSON.stringify(p.substituted.filter((m) => m !== block))).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });
});

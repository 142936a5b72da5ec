import { refOf } from "../../core/recall/index.js";
import { nodeSha256 } from "../../node/sha256.js";
import { describe, expect, it } from "vitest";
import { compact, estimateTokens, isWellFormed, SUMMARY_HEADER } from "../../core/index.js";

const task = { role: "user", content: "task" };

describe("bad input never throws out of compact / estimateTokens", () => {
  it("non-array messages give null; estimates of odd values are defined", () => {
    for (const v of [undefined, null, 42, "text", { messages: [] }]) expect(compact(v, "anthropic")).toBeNull();
    expect(estimateTokens(undefined)).toBe(1);
    expect(estimateTokens(null)).toBe(1);
    expect(estimateTokens(12345)).toBe(1);
    expect(estimateTokens({})).toBe(0);
  });

  it("null / number / object content and unknown blocks summarise to nothing", () => {
    const msgs = [
      task,
      { role: "assistant", content: null },
      { role: "user", content: 7 },
      { role: "assistant", content: { weird: true } },
      { role: "user", content: [{ type: "mystery", data: 1 }, null, 5, "bare"] },
      { role: "assistant", content: "last" },
    ];
    for (const d of ["anthropic", "openai-chat", "pi", "plain"]) {
      const r = compact(msgs, d, { keepRecent: 1 });
      expect(r, d).not.toBeNull();
      expect(r!.messages.at(-1)).toBe(msgs[5]);
    }
    expect(compact(msgs, "anthropic", { keepRecent: 1 })!.summaryText).toBe(SUMMARY_HEADER);
  });

  it("missing roles: the messages are not turns and fold as their content", () => {
    const msgs = [task, { content: "no role" }, { role: "assistant", content: "a" }, { foo: 1 }, { role: "assistant", content: "b" }];
    const r = compact(msgs, "anthropic", { keepRecent: 1 })!;
    expect(r.headLen).toBe(2);
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: a`);
    const p = compact(msgs, "plain", { keepRecent: 1 })!;
    expect(p.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: a`);
  });

  it("__proto__, constructor and prototype keys are plain data", () => {
    const evil = JSON.parse('{"role":"assistant","content":[{"type":"tool_use","name":"x","input":{"__proto__":{"polluted":1},"constructor":{"prototype":{"p":2}}}}]}');
    const r = compact([task, evil, { role: "user", content: [{ type: "tool_result", content: "L".repeat(900) }] }, { role: "assistant", content: "b" }], "anthropic", { keepRecent: 1 })!;
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\n[x] {"__proto__":{"polluted":1},"constructor":{"prototype":{"p":2}}}\n\n---\n\nresult: dropped 900 chars, ref ${refOf("L".repeat(900))}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("lone surrogates never reach the summary, and truncation never splits a pair", () => {
    const msgs = [task, { role: "assistant", content: "bad \ud800 half and 😀😀😀" }, { role: "user", content: "x\udc00" }, { role: "assistant", content: "b" }];
    const r = compact(msgs, "anthropic", { keepRecent: 1, thoughtMaxChars: 20 })!;
    expect(isWellFormed(r.summaryText)).toBe(true);
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: bad \ufffd half and 😀😀...\n\n---\n\nuser: x\ufffd`);
  });

  it("a 10,000-deep nested tool argument gives a capped signature", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10000; i++) deep = { a: deep };
    const msgs = [task, { role: "assistant", content: [{ type: "tool_use", name: "t", input: deep }] }, { role: "assistant", content: "b" }];
    const r = compact(msgs, "anthropic", { keepRecent: 1, cmdMaxChars: 12 })!;
    expect(r.summaryText).toMatch(new RegExp(`^${SUMMARY_HEADER.replace(/[()]/g, "\\$&")}\n\n\\[t\\] \\{"a":\\{"a":\\{"\\.\\.\\.\ncall: cut 60,001 chars, ref [0-9a-f]{12}$`));
    expect(estimateTokens(msgs)).toBeGreaterThan(10000);
  });

  it("a 50 MB tool result is dropped and still counted", () => {
    const big = "z".repeat(50 * 1024 * 1024);
    const msgs = [task, { role: "assistant", content: "run" }, { role: "user", content: [{ type: "tool_result", tool_use_id: "1", content: big }] }, { role: "assistant", content: "b" }];
    const r = compact(msgs, "anthropic", { keepRecent: 1 }, { sha256: nodeSha256 })!;
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: run\n\n---\n\nresult: dropped 52,428,800 chars, ref ${nodeSha256(big).slice(0, 12)}`);
    expect(estimateTokens(msgs)).toBeGreaterThan(big.length / 4);
  });

  it("an unknown dialect name is a clear error", () => {
    expect(() => compact([], "klingon")).toThrow(/unknown dialect "klingon"/);
  });
});

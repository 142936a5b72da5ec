import { describe, expect, it } from "vitest";
import { compact, estimateTokens, CliffInputError, DIALECT_NAMES } from "../../core/index.js";
import { distinctiveTokens, isDistinctive } from "../../core/retention/distinctive.js";
import { cutPoints, measureCut, neededTokens, TokenReader } from "../../core/retention/retention.js";
import { agentSession } from "../../bench/agent-dialects.js";
import { masking, headAndTail, policies, MASK_PLACEHOLDER } from "../../bench/retention-policies.js";

describe("distinctive tokens", () => {
  it("holds a digit, underscore, dot, slash, colon or dash, or an inner capital; numbers from three digits", () => {
    for (const t of ["src/app.ts", "parseHeader", "HTTPServer", "foo_bar", "--verbose", "v2", "a:b", "420", "3.14159", "2026-12-01", "JSONDecodeError"]) expect(isDistinctive(t), t).toBe(true);
    for (const t of ["hello", "Error", "ERROR", "TODO", "42", "1.5", "--", "..."]) expect(isDistinctive(t), t).toBe(false);
  });

  it("cuts words at anything but letters, digits and _ . / : -, and drops a closing dot or colon", () => {
    expect([...distinctiveTokens("See src/app.ts. It fails at line 1042: TypeError in parseHeader(x), ok.")]).toEqual(["src/app.ts", "1042", "TypeError", "parseHeader"]);
  });

  it("reads a JSON escape as the character it stands for (a signature line's \\n separates words)", () => {
    expect([...distinctiveTokens('[Edit] {"new_string":"a\\nparseHeader\\tsrc/x.ts"}')]).toEqual(["new_string", "parseHeader", "src/x.ts"]);
  });

  it("matches exactly and case-sensitively", () => {
    const t = distinctiveTokens("parseHeader");
    expect(t.has("parseheader")).toBe(false);
    expect(t.has("parseHeade")).toBe(false);
  });
});

const LONG = (word: string): string => `${"line of a long file that the defaults drop whole\n".repeat(12)}export function ${word}() {}\n`;

/** A Claude-Code-like session: a long read, then filler turns, then a turn that uses what the read showed. */
function session(): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the totals." }];
  const turn = (id: string, name: string, input: unknown, result: string, isError = false): void => {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id, name, input }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result, ...(isError ? { is_error: true } : {}) }] });
  };
  turn("toolu_01", "Read", { file_path: "lib/a.ts" }, LONG("computeTotalV2"));
  for (let i = 0; i < 4; i++) turn(`toolu_f${i}`, "Bash", { command: `echo ${i}` }, `ok ${i}`);
  turn("toolu_05", "Bash", { command: "npm test" }, "FAIL tail_only_token_77 at lib/b.ts:12:3", true);
  return msgs;
}

describe("needed tokens and what a compaction holds of them", () => {
  const reader = new TokenReader("anthropic");

  it("a token only in a dropped result is lost; the same in the kept tail is held", () => {
    const msgs = session();
    const cut = msgs.length;
    msgs.push({ role: "assistant", content: [{ type: "text", text: "computeTotalV2 and tail_only_token_77 again" }, { type: "tool_use", id: "toolu_06", name: "Edit", input: { file_path: "lib/b.ts", old_string: "x", new_string: "y" } }] });
    const needed = neededTokens(msgs, cut, reader);
    // Whole tokens only: the result's "lib/b.ts:12:3" is not the edit's "lib/b.ts".
    expect([...needed.keys()]).toEqual(["computeTotalV2", "tail_only_token_77"]);
    const history = msgs.slice(0, cut);
    const r = compact(history, "anthropic", { profile: "reference" })!;
    const m = measureCut(msgs, cut, r.messages, reader, needed);
    expect(m.lost).toEqual(["computeTotalV2"]);
    expect(m.held).toBe(1);
    expect(m.keptTokens).toBe(estimateTokens(r.messages));
    expect(m.historyTokens).toBe(estimateTokens(history));
    // Uncompacted, everything is held.
    expect(measureCut(msgs, cut, history, reader).lost).toEqual([]);
  });

  it("ignores ids, model names, usage, tool names, argument keys and thinking", () => {
    const msgs: unknown[] = [
      { role: "user", content: "history says toolu_09XYZ claude-sonnet-4-5 12345 str_replace_editor file_path secretPlanB" },
      { role: "assistant", content: "ok" },
    ];
    const cut = msgs.length;
    msgs.push({
      role: "assistant", model: "claude-sonnet-4-5", usage: { input_tokens: 12345 },
      content: [{ type: "thinking", thinking: "secretPlanB", signature: "s" }, { type: "tool_use", id: "toolu_09XYZ", name: "str_replace_editor", input: { file_path: "plain" } }],
    });
    expect(neededTokens(msgs, cut, reader).size).toBe(0);
  });

  it("reads a cyclic summary once; a cyclic call is refused as compact refuses it, never looped over", () => {
    const summary: Record<string, unknown> = { role: "user", content: "The following is a summary of your previous actions (long observations omitted):\n\nsummaryToken_9" };
    summary.loop = summary;
    const msgs: unknown[] = [{ role: "user", content: "lib/cyclic_1.ts" }, summary, { role: "assistant", content: "ok" }];
    const cut = msgs.length;
    msgs.push({ role: "assistant", content: "summaryToken_9" });
    expect([...neededTokens(msgs, cut, reader).keys()]).toEqual(["summaryToken_9"]);
    const args: Record<string, unknown> = { path: "lib/cyclic_1.ts" };
    args.self = args;
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: "t", name: "Read", input: args }] });
    expect(() => neededTokens(msgs, cut, new TokenReader("anthropic"))).toThrow(CliffInputError);
  });

  it("a token shown again after the cut, before its use, is not needed; one used beyond the next 8 turns is not counted", () => {
    const msgs: unknown[] = [{ role: "user", content: "alphaToken_1 betaToken_2" }, { role: "assistant", content: "start" }];
    const cut = msgs.length;
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "alphaToken_1" }] });
    msgs.push({ role: "assistant", content: "alphaToken_1" });
    for (let i = 0; i < 7; i++) msgs.push({ role: "assistant", content: "filler" });
    msgs.push({ role: "assistant", content: "betaToken_2" });
    expect(neededTokens(msgs, cut, reader).size).toBe(0);
    expect([...neededTokens(msgs, cut, reader, 11).keys()]).toEqual(["betaToken_2"]);
  });

  it("reads text and call values in every dialect, and the same story needs tokens in each", () => {
    for (const d of DIALECT_NAMES) {
      const msgs = agentSession(d, 5, 3);
      const cuts = cutPoints(msgs, d);
      expect(cuts.length, d).toBe(5);
      const r = new TokenReader(d);
      const total = cuts.reduce((n, c) => n + neededTokens(msgs, c, r).size, 0);
      expect(total, d).toBeGreaterThan(10);
      // No id, signature or timestamp is ever needed.
      for (const c of cuts) for (const t of neededTokens(msgs, c, r).keys()) expect(t, d).not.toMatch(/^(toolu_|call_|rs_|msg_|Eq)|^17645/);
    }
  });
});

describe("generated sessions and the comparison policies", () => {
  it("are deterministic from the seed", () => {
    expect(JSON.stringify(agentSession("pi", 7, 2))).toBe(JSON.stringify(agentSession("pi", 7, 2)));
    expect(JSON.stringify(agentSession("pi", 7, 2))).not.toBe(JSON.stringify(agentSession("pi", 8, 2)));
  });

  it("masking keeps the newest 3 results and replaces the rest; head + tail keeps no middle", () => {
    for (const d of DIALECT_NAMES) {
      const msgs = agentSession(d, 3, 2);
      const out = masking()(msgs, d);
      const placeholders = (list: unknown[]): number => JSON.stringify(list).split(MASK_PLACEHOLDER).length - 1;
      expect(placeholders(masking(0)(msgs, d)), d).toBeGreaterThan(6);
      expect(placeholders(masking(0)(msgs, d)) - placeholders(out), d).toBe(3);
      expect(out.length, d).toBe(msgs.length);
      expect(out.slice(-2), d).toEqual(msgs.slice(-2));
      const tail = headAndTail(msgs, d);
      const r = compact(msgs, d, {})!;
      expect(tail.length, d).toBe(r.messages.length - 1);
    }
  });

  it("compares the five policies and any named configuration besides", () => {
    const named = policies('{"cmd1000":{"cmdMaxChars":1000}}');
    expect(named.map((p) => p.name)).toEqual(["reference", "paper", "recall", "masking", "tail", "cmd1000"]);
    const msgs = agentSession("anthropic", 3, 2);
    const history = msgs.slice(0, cutPoints(msgs, "anthropic")[2]);
    const text = (k: number): string => JSON.stringify(named[k].policy(history, "anthropic"));
    expect(text(5).length).toBeGreaterThan(text(0).length);
  });
});

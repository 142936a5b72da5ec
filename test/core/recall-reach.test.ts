import { describe, expect, it } from "vitest";
import { compact, resolveConfig } from "../../core/index.js";
import { measureCut, neededTokens, TokenReader } from "../../core/retention/retention.js";
import { namedRefs, recallReach } from "../../core/retention/recall-reach.js";

const LONG = (word: string): string => `${"a line of build output that the defaults drop\n".repeat(200)}export function ${word}() {}\n`;

/** A long read whose token the next turn uses, then filler turns the cliff keeps as the tail. */
function session(): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the totals." }];
  const turn = (id: string, name: string, input: unknown, result: string): void => {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id, name, input }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result }] });
  };
  turn("toolu_01", "Bash", { command: "npm run build" }, LONG("computeTotalV2"));
  turn("toolu_02", "Bash", { command: "npm run lint" }, LONG("otherHelperV3"));
  for (let i = 0; i < 6; i++) turn(`toolu_f${i}`, "Bash", { command: `echo ${i}` }, `ok ${i}`);
  return msgs;
}

describe("recall reach: lost needed tokens inside a text the compacted request names by ref", () => {
  const reader = new TokenReader("anthropic");
  const cfg = resolveConfig({ profile: "recall" });

  it("a token in a dropped result named by its ref is reachable with one recall of that result", () => {
    const msgs = session();
    const cut = msgs.length;
    msgs.push({ role: "assistant", content: [{ type: "text", text: "computeTotalV2 is the one to change" }] });
    const history = msgs.slice(0, cut);
    const r = compact(history, "anthropic", cfg)!;
    const m = measureCut(msgs, cut, r.messages, reader, neededTokens(msgs, cut, reader));
    expect(m.lost).toEqual(["computeTotalV2"]);
    expect(namedRefs(r.messages).length).toBeGreaterThanOrEqual(2);
    const reach = recallReach(history, r.messages, m.lost, reader, cfg);
    expect(reach.reachable).toBe(1);
    expect(reach.recalls).toBe(1);
    expect(reach.recallTokens).toBe(Math.floor(LONG("computeTotalV2").length / 4));
  });

  it("two lost tokens in two results take two recalls; a lost token in no named text is not reachable", () => {
    const msgs = session();
    const cut = msgs.length;
    const history = msgs.slice(0, cut);
    const r = compact(history, "anthropic", cfg)!;
    const reach = recallReach(history, r.messages, ["computeTotalV2", "otherHelperV3", "nowhereToken_9"], reader, cfg);
    expect(reach).toEqual({ reachable: 2, recalls: 2, recallTokens: Math.floor(LONG("computeTotalV2").length / 4) + Math.floor(LONG("otherHelperV3").length / 4) });
  });

  it("the reference profile names no ref, so nothing is reachable", () => {
    const history = session();
    const r = compact(history, "anthropic", { profile: "reference" })!;
    expect(namedRefs(r.messages)).toEqual([]);
    expect(recallReach(history, r.messages, ["computeTotalV2"], reader, cfg)).toEqual({ reachable: 0, recalls: 0, recallTokens: 0 });
  });
});

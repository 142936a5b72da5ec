import { describe, expect, it } from "vitest";
import { compact, resolveConfig } from "../../core/index.js";
import { cliffCost } from "../../core/retention/cliff-cost.js";
import { TokenReader } from "../../core/retention/retention.js";

const filler = "a line of a long file that the defaults drop whole\n".repeat(12);

/** Claude Code shapes: a long read, an edit whose new text runs past the signature cap, filler turns. */
function history(): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the totals." }];
  const turn = (id: string, name: string, input: unknown, result: string): void => {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `step ${id}` }, { type: "tool_use", id, name, input }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result }] });
  };
  turn("t1", "Read", { file_path: "lib/a.ts" }, `${filler}export function computeTotalV2() {}\n`);
  turn("t2", "Edit", { file_path: "lib/a.ts", old_string: "x", new_string: `${"y".repeat(200)}\nconst helperFnV3 = 1;` }, "ok");
  for (let i = 0; i < 3; i++) turn(`f${i}`, "Bash", { command: "npm test" }, `passed keptTail_${i}`);
  return msgs;
}

describe("what a cliff cost the next turns", () => {
  const reader = new TokenReader("anthropic");
  const cfg = resolveConfig({ profile: "reference" });

  it("names the dropped result and the cut call that held what the next turns needed, by message index", () => {
    const input = history();
    const future = [{ role: "assistant", content: [{ type: "text", text: "computeTotalV2 calls helperFnV3; keptTail_2 is fine" }] }];
    const r = compact(input, "anthropic", cfg)!;
    const cost = cliffCost(input, future, r, cfg, reader);
    expect(cost.needed).toBe(3);
    expect(cost.held).toBe(1);
    expect(cost.items).toEqual([
      { index: 2, kind: "result", action: "dropped", tokens: ["computeTotalV2"] },
      { index: 3, kind: "call", action: "cut", tokens: ["helperFnV3"] },
    ]);
  });

  it("lists nothing when the compaction keeps every needed token", () => {
    const input = history();
    const future = [{ role: "assistant", content: "keptTail_1 and lib/a.ts" }];
    const r = compact(input, "anthropic", cfg)!;
    const cost = cliffCost(input, future, r, cfg, reader);
    expect([cost.needed, cost.held, cost.items]).toEqual([2, 2, []]);
  });

  it("judges the compacted request, not the list a host went on appending to", () => {
    const input = history();
    const future = [{ role: "user", content: "computeTotalV2" }, { role: "assistant", content: "computeTotalV2" }];
    const r = compact(input, "anthropic", cfg)!;
    r.messages.push(...future);
    // Shown again after the cut before its use: not needed at all.
    expect(cliffCost(input, future, r, cfg, reader).needed).toBe(0);
    const later = [{ role: "assistant", content: "computeTotalV2" }];
    const r2 = compact(input, "anthropic", cfg)!;
    r2.messages.push(...later);
    expect(cliffCost(input, later, r2, cfg, reader).items.map((i) => i.tokens)).toEqual([["computeTotalV2"]]);
  });
});

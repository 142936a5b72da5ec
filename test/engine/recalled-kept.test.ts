/**
 * A text the model recalled is kept: once the client's history holds the recall line (in the
 * answer the proxy gave it), every later compacted request holds that text again in its summary,
 * warm and cold alike, until the line itself is dropped; off with the recall tool off.
 */
import { describe, expect, it } from "vitest";
import { Engine, recallLine, refOf, answerRecall, RecallTexts, getDialect, resolveConfig } from "../../core/index.js";
import { stepTexts } from "../helpers/recall-history.js";

const TEXTS = stepTexts(10, 70);

function history(withLine: boolean): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
  TEXTS.forEach((t, i) => {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `make step${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: t }] });
    if (i === 7) {
      const texts = RecallTexts.of(msgs, getDialect("anthropic"), resolveConfig({}));
      const line = recallLine(answerRecall({ ref: refOf(TEXTS[1]) }, texts));
      msgs.push({ role: "assistant", content: [{ type: "text", text: withLine ? `Let me see.\n${line}\nStep 1 printed what I needed.` : "Step 1 printed what I needed." }] });
      msgs.push({ role: "user", content: "go on" });
    }
  });
  msgs.push({ role: "assistant", content: "Done." }, { role: "user", content: "next?" });
  return msgs;
}

const CFG = { thresholdTokens: 3000, keepRecent: 1, archive: false };
const summaryOf = (body: Record<string, unknown>): string => JSON.stringify((body.messages as unknown[]).find((m: any) => typeof m.content === "string" && m.content.startsWith("The following is a summary")));

describe("a recalled text kept", () => {
  it("the request holds the recalled text again in its summary once a recall line names it, warm and cold alike", () => {
    const msgs = history(true);
    const warm = new Engine(CFG);
    let kept = 0;
    for (let n = 3; n <= msgs.length; n++) {
      const body = { model: "m", messages: msgs.slice(0, n) };
      const w = JSON.stringify(warm.prepare(body, "anthropic").outgoingBody());
      const c = JSON.stringify(new Engine(CFG).prepare(JSON.parse(JSON.stringify(body)), "anthropic").outgoingBody());
      expect(w).toBe(c);
      if (w.includes(`[recalled] ref ${refOf(TEXTS[1])}`)) kept++;
    }
    expect(kept).toBeGreaterThan(3);
    const last = new Engine(CFG).prepare({ model: "m", messages: msgs }, "anthropic").outgoingBody();
    expect(summaryOf(last)).toContain(JSON.stringify(`[recalled] ref ${refOf(TEXTS[1])}\n${TEXTS[1]}`).slice(1, -1));
  });

  it("nothing without a line, nothing with the recall tool off", () => {
    const none = new Engine(CFG).prepare({ model: "m", messages: history(false) }, "anthropic").outgoingBody();
    expect(JSON.stringify(none)).not.toContain("[recalled]");
    const off = new Engine({ ...CFG, recallTool: false }).prepare({ model: "m", messages: history(true) }, "anthropic").outgoingBody();
    expect(JSON.stringify(off)).not.toContain("[recalled]");
  });
});

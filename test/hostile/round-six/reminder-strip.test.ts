/**
 * Round six, case 7: the answered compaction stripped `<system-reminder>` blocks from the head with
 * a lazy pattern before cutting it to 8,000 characters: each unclosed opening searched to the end,
 * quadratic (a 1.2 MB head: 10.5 s). Now one search per block, the first unclosed opening ending it.
 * Timed against a bound far from both (the quadratic figure is seconds, the linear one milliseconds).
 */
import { describe, expect, it } from "vitest";
import { performance } from "node:perf_hooks";
import { Engine, resolveConfig } from "../../../core/index.js";
import { compactionAnswerText } from "../../../proxy/decision/index.js";
import { claudeCodeSummaryRequest } from "../../helpers/compaction-requests.js";

/** Claude Code's summary request whose task message holds closed reminders, then `unclosed` openings with none closed after them. */
function request(unclosed: number): Record<string, unknown> {
  const body = claudeCodeSummaryRequest(12) as { messages: { role: string; content: unknown }[] };
  const task = "<system-reminder>as you answer, mind the repo</system-reminder>Fix the failing test in repo X.<system-reminder>one more</system-reminder> Then run it." + " <system-reminder>x".repeat(unclosed);
  body.messages[0] = { role: "user", content: task };
  return body;
}

describe("round six: the answered compaction's reminders", () => {
  it("7. a head of many unclosed reminder openings is stripped in time linear in the head", () => {
    const cfg = resolveConfig({ thresholdTokens: 2000, keepRecent: 1 });
    const prepared = new Engine(cfg).prepare(request(20_000), "anthropic"); // a 400 KB head
    const t0 = performance.now();
    const text = compactionAnswerText(prepared, cfg)!;
    const ms = performance.now() - t0;
    expect(text.startsWith("<summary>\nThe task, as the user gave it:\nFix the failing test in repo X. Then run it. <system-reminder>x <system-reminder>x")).toBe(true);
    // Quadratic: 20,000 openings each searched to the end of 400 KB (7 s here); linear: a few milliseconds.
    expect(ms).toBeLessThan(2000);
  });
});

/** Engine.prepare with a per-request threshold decides exactly as an engine configured with it, and keeps its cliffs apart. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Engine } from "../../core/index.js";
import { anthropicSession } from "../helpers/arbitraries.js";

describe("prepare(body, dialect, { thresholdTokens })", () => {
  it("equals an engine whose config has that threshold, warm, across thresholds sharing one engine", () => {
    fc.assert(
      fc.property(anthropicSession, fc.integer({ min: 50, max: 600 }), fc.integer({ min: 50, max: 600 }), (msgs, a, b) => {
        const shared = new Engine({ keepRecent: 1, thresholdTokens: 10_000 });
        const onlyA = new Engine({ keepRecent: 1, thresholdTokens: a });
        const onlyB = new Engine({ keepRecent: 1, thresholdTokens: b });
        for (let n = 2; n <= msgs.length; n++) {
          const body = { model: "m", messages: msgs.slice(0, n) };
          const pa = shared.prepare(body, "anthropic", { thresholdTokens: a });
          const pb = shared.prepare(body, "anthropic", { thresholdTokens: b });
          expect(JSON.stringify(pa.outgoingBody())).toBe(JSON.stringify(onlyA.prepare(body, "anthropic").outgoingBody()));
          expect(JSON.stringify(pb.outgoingBody())).toBe(JSON.stringify(onlyB.prepare(body, "anthropic").outgoingBody()));
          expect(pa.overBudget).toBe(pa.estTokensOut > a);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("refuses a threshold that is not a whole number ≥ 0", () => {
    expect(() => new Engine().prepare({ messages: [] }, "anthropic", { thresholdTokens: -1 })).toThrow(/thresholdTokens/);
    expect(() => new Engine().prepare({ messages: [] }, "anthropic", { thresholdTokens: 1.5 })).toThrow(/thresholdTokens/);
  });
});

/**
 * The default threshold rule and `modelThresholds`: below a long-context tier with the estimate's
 * 15% and the minimum gain to spare, else half the window capped at 200,000; globs over the model
 * id, first match wins.
 */
import { describe, expect, it } from "vitest";
import { defaultThreshold, ESTIMATE_SLACK, matchModelThreshold, parseModelThresholds, passesTier, tierCeiling, viewOf } from "../../core/models/index.js";

const TENTH = { share: 0.1 };
const rule = (model: string, oneMillion = false) => {
  const v = viewOf(model, oneMillion);
  return defaultThreshold(v.window, v.tier, TENTH);
};

describe("the default threshold", () => {
  it("keeps a tiered model's requests under its tier, estimate slack and gain included", () => {
    expect(rule("claude-sonnet-4-5-20250929", true)).toEqual({ tokens: 160_000, reason: "tier" });
    expect(rule("gemini-2.5-pro")).toEqual({ tokens: 160_000, reason: "tier" });
    expect(rule("google/gemini-3-pro-preview")).toEqual({ tokens: 160_000, reason: "tier" });
    expect(rule("claude-haiku-5-5")).toEqual({ tokens: 80_000, reason: "tier" });
    for (const [tier, t] of [[200_000, 160_000], [100_000, 80_000], [272_000, 217_600]]) {
      expect(t * ESTIMATE_SLACK + t * 0.1).toBeLessThanOrEqual(tier);
      expect(tierCeiling(tier, TENTH)).toBe(t);
    }
  });

  it("takes a fixed minimum gain off the tier before the slack", () => {
    expect(tierCeiling(200_000, { tokens: 20_000 })).toBe(Math.floor(180_000 / 1.15));
    expect(tierCeiling(200_000, {})).toBe(Math.floor(200_000 / 1.15));
  });

  it("gives other models half the window, capped at 200,000", () => {
    expect(rule("gpt-4.1")).toEqual({ tokens: 200_000, reason: "cap" });
    expect(rule("claude-opus-5-5")).toEqual({ tokens: 200_000, reason: "cap" });
    expect(rule("claude-sonnet-4-5-20250929")).toEqual({ tokens: 100_000, reason: "share" });
    expect(rule("gpt-5.3-codex")).toEqual({ tokens: 136_000, reason: "share" });
    expect(rule("mystery-model")).toEqual({ tokens: 64_000, reason: "share" });
  });

  it("keeps GPT-6 at the cap, which is under its 272K tier too", () => {
    const r = rule("gpt-6-astra");
    expect(r).toEqual({ tokens: 200_000, reason: "cap" });
    expect(passesTier(r.tokens, viewOf("gpt-6-astra").tier, TENTH)).toBe(false);
  });

  it("says when an explicit threshold lets requests past a tier", () => {
    const tier = viewOf("claude-sonnet-4-5", true).tier;
    expect(passesTier(160_000, tier, TENTH)).toBe(false);
    expect(passesTier(170_000, tier, TENTH)).toBe(true);
    expect(passesTier(500_000, null, TENTH)).toBe(false);
  });
});

describe("modelThresholds", () => {
  it("reads the flag's pairs in order, tokens or shares", () => {
    expect(parseModelThresholds("claude-*=40%, gpt-4.1*=150000,gemini-*=0.3")).toEqual([
      { glob: "claude-*", share: 0.4 }, { glob: "gpt-4.1*", tokens: 150_000 }, { glob: "gemini-*", share: 0.3 },
    ]);
  });

  it("reads a config file's object", () => {
    expect(parseModelThresholds({ "claude-opus-*": 120000, "claude-*": "40%" })).toEqual([{ glob: "claude-opus-*", tokens: 120_000 }, { glob: "claude-*", share: 0.4 }]);
  });

  it("refuses what is not a threshold", () => {
    for (const bad of ["claude-*", "claude-*=0", "claude-*=140%", "=5", "claude-*=many", 42, ["a"]]) expect(() => parseModelThresholds(bad), String(bad)).toThrow(/modelThresholds/);
  });

  it("matches the model id as the table spells it, first glob that matches wins", () => {
    const list = parseModelThresholds("claude-opus-*=120000,claude-*=40%,gpt-4.1*=150000");
    expect(matchModelThreshold(list, "claude-opus-5-5")?.tokens).toBe(120_000);
    expect(matchModelThreshold(list, "anthropic/Claude-Sonnet-4-5[1m]")?.share).toBe(0.4);
    expect(matchModelThreshold(list, "gpt-4.1-mini")?.tokens).toBe(150_000);
    expect(matchModelThreshold(list, "gpt-5")).toBeNull();
  });
});

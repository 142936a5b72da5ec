/**
 * The model-facts table: every row cites its provider page and the date read, every priced model
 * resolves to a window row at least as specific as its price row, and the facts the defaults rest
 * on (windows, tiers, the prefix-check column) are the providers' published ones.
 */
import { describe, expect, it } from "vitest";
import { CACHE_TTL_SECONDS, DEFAULT_WINDOW, MODEL_FACTS, ONE_MILLION, hasOneMillionTag, modelFacts, modelKey, runsPrefixCheck, viewOf } from "../../core/models/index.js";

describe("model facts: the table itself", () => {
  it("cites a provider page and the date read on every row", () => {
    for (const f of MODEL_FACTS) {
      expect(f.source, f.id).toMatch(/^https:\/\//);
      expect(f.read, f.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it("has one row per id, a positive window, prices ≥ 0 and tiers inside the window", () => {
    const ids = MODEL_FACTS.map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const f of MODEL_FACTS) {
      expect(f.window, f.id).toBeGreaterThan(0);
      for (const p of [f.price, f.tier?.price, f.oneMillionBeta?.tier?.price]) {
        if (p !== undefined) for (const v of Object.values(p)) expect(v, f.id).toBeGreaterThanOrEqual(0);
      }
      if (f.tier !== undefined) expect(f.tier.above, f.id).toBeLessThan(f.window);
    }
  });

  it("resolves each priced model, dated or namespaced, to a window row at least as specific as its price row", () => {
    const priced = MODEL_FACTS.filter((f) => f.price !== undefined);
    expect(priced.length).toBeGreaterThan(30);
    for (const p of priced) {
      for (const name of [p.id, `${p.id}-20260101`, `${p.provider}/${p.id}`]) {
        const row = modelFacts(name);
        expect(row, name).not.toBeNull();
        expect(row!.id.length, name).toBeGreaterThanOrEqual(p.id.length);
        expect(viewOf(name).window, name).toBe(row!.window);
      }
    }
  });

  it("matches a row at a boundary: a dated id never takes a point release's row", () => {
    expect(modelFacts("claude-fable-5-20260609")?.id).toBe("claude-fable-5");
    expect(modelFacts("claude-fable-5-2")?.id).toBe("claude-fable-5-2");
    expect(modelFacts("claude-fable-5-2-20261110")?.id).toBe("claude-fable-5-2");
    expect(modelFacts("gpt-5.1-codex-max")?.id).toBe("gpt-5.1-codex");
  });

  it("never lends a family's price to a newer model the table knows without one", () => {
    expect(modelFacts("gpt-5.5")?.id).toBe("gpt-5.5");
    expect(viewOf("gpt-5.5").price).toBeNull();
    expect(viewOf("gpt-6.2-astra-preview").price?.input).toBe(8);
    expect(viewOf("gpt-6.2-nova").price).toBeNull();
    expect(viewOf("gpt-5.1-codex").price?.input).toBe(1.25);
  });
});

describe("model facts: what the defaults rest on", () => {
  it("knows the Claude 5.x family at 1M, Haiku 5.5's 100K tier and the Sonnet 4.x beta tier", () => {
    for (const m of ["claude-fable-5-2", "claude-opus-5-5", "claude-sonnet-5", "claude-haiku-5-5"]) expect(viewOf(m).window, m).toBe(ONE_MILLION);
    expect(viewOf("claude-haiku-5-5").tier?.above).toBe(100_000);
    expect(viewOf("claude-sonnet-4-5-20250929").window).toBe(200_000);
    const beta = viewOf("claude-sonnet-4-5-20250929", true);
    expect([beta.window, beta.windowSource, beta.tier?.above]).toEqual([ONE_MILLION, "anthropic-beta", 200_000]);
    expect(viewOf("claude-opus-4-6", true).tier).toBeNull();
    expect(viewOf("claude-haiku-4-5", true).window).toBe(200_000);
  });

  it("knows GPT-6 and GPT-5.4+ at 922K input with the 272K tier, and Codex's default gpt-6-astra", () => {
    for (const m of ["gpt-6-astra", "gpt-6-sol", "gpt-6.1-sol", "gpt-6.2-sol", "gpt-6.9-nova", "gpt-5.4"]) {
      expect([viewOf(m).window, viewOf(m).tier?.above], m).toEqual([922_000, 272_000]);
    }
    expect(viewOf("gpt-6-astra").price).toEqual({ input: 10, cacheRead: 1, cacheWrite: 12.5, output: 50 });
    expect(viewOf("gpt-6-astra").tier?.price).toEqual({ input: 20, cacheRead: 2, cacheWrite: 25, output: 75 });
    expect(viewOf("gpt-5.3-codex").window).toBe(272_000);
  });

  it("knows Gemini 2.5 and 3 (1M windows; Pro tiers at 200K) under a provider prefix", () => {
    expect(modelKey("google/gemini-3-pro-preview")).toBe("gemini-3-pro-preview");
    const pro = viewOf("google/gemini-3-pro-preview");
    expect([pro.window, pro.tier?.above, pro.price?.input, pro.tier?.price?.input]).toEqual([1_048_576, 200_000, 2, 4]);
    expect(viewOf("gemini-2.5-pro").tier?.above).toBe(200_000);
    expect(viewOf("gemini-2.5-flash").tier).toBeNull();
  });

  it("falls back to 128K for a model it does not know", () => {
    expect([viewOf("mystery-model").window, viewOf("mystery-model").windowSource]).toEqual([DEFAULT_WINDOW, "default"]);
    expect(modelFacts("")).toBeNull();
  });

  it("marks exactly the models on Anthropic's prefix-checks page as running the check", () => {
    const page = ["claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-opus-5-5", "claude-sonnet-5-5", "claude-haiku-5-5"];
    expect(MODEL_FACTS.filter((f) => f.prefixCheck).map((f) => f.id).sort()).toEqual(page.slice().sort());
    expect(runsPrefixCheck("claude-opus-5-5-20260922")).toBe(true);
    expect(runsPrefixCheck("claude-opus-5")).toBe(false);
    expect(runsPrefixCheck("claude-fable-5")).toBe(false);
    expect(runsPrefixCheck("gpt-6-astra")).toBe(false);
  });

  it("reads the [1m] tag and gives each provider a cache lifetime", () => {
    expect(hasOneMillionTag("claude-opus-4-7[1m]")).toBe(true);
    expect(hasOneMillionTag("claude-opus-4-7")).toBe(false);
    expect(CACHE_TTL_SECONDS.anthropic).toBe(300);
  });
});

describe("model facts: the models this December's releases default to", () => {
  // Claude Code 2.1.332: claude-opus-5-5 (adaptive thinking, always on); Codex 0.171.0: gpt-6.2-sol;
  // Pi 0.85 and OMP 16.1: gpt-5.6-sol, gpt-5.6-luna for small tasks.
  const DEFAULTS: Record<string, { window: number; price: [number, number, number, number]; tier: number }> = {
    "claude-opus-5-5": { window: ONE_MILLION, price: [4, 0.2, 5, 20], tier: 0 },
    "gpt-6.2-sol": { window: 922_000, price: [2, 0.1, 2.5, 10], tier: 272_000 },
    "gpt-5.6-sol": { window: 922_000, price: [4, 0.4, 5, 20], tier: 272_000 },
    "gpt-5.6-luna": { window: 922_000, price: [0.2, 0.02, 0.25, 1.2], tier: 272_000 },
  };
  it("has a row of its own for each, with the provider's window, list price and tier, and the model's own page as its source", () => {
    for (const [model, want] of Object.entries(DEFAULTS)) {
      const v = viewOf(`${model}-20261201`);
      expect(v.facts?.id, model).toBe(model);
      expect(v.window, model).toBe(want.window);
      const p = v.price!;
      expect([p.input, p.cacheRead, p.cacheWrite, p.output], model).toEqual(want.price);
      expect(v.tier?.above ?? 0, model).toBe(want.tier);
      expect(v.facts!.source, model).toContain(model.replace(/^claude-/, ""));
      expect(v.facts!.via, model).toBeUndefined();
    }
    expect(viewOf("gpt-6.2-sol").tier?.price).toEqual({ input: 4, cacheRead: 0.2, cacheWrite: 5, output: 15 });
    // Opus 5.5 thinks adaptively and always: the prefix check runs on its thinking blocks.
    expect(runsPrefixCheck("claude-opus-5-5")).toBe(true);
  });

  it("bills each in the proxy's price table at those rates", async () => {
    const { Prices } = await import("../../proxy/observe/prices.js");
    const prices = new Prices();
    for (const [model, want] of Object.entries(DEFAULTS)) {
      const p = prices.of(model)!;
      expect([p.input, p.cacheRead, p.cacheWrite, p.output], model).toEqual(want.price);
    }
  });
});

describe("model facts: the proxy's price table reads them", () => {
  it("prices every priced row and no model through a less specific row", async () => {
    const { Prices, DEFAULT_PRICES } = await import("../../proxy/observe/prices.js");
    const prices = new Prices();
    for (const f of MODEL_FACTS.filter((r) => r.price !== undefined)) expect(prices.of(`${f.id}-20260101`)?.input, f.id).toBe(f.price!.input);
    expect(Object.keys(DEFAULT_PRICES).length).toBe(MODEL_FACTS.filter((r) => r.price !== undefined).length);
    expect(prices.of("gpt-5.5")).toBeNull();
    expect(prices.of("gpt-5.1-codex")?.input).toBe(1.25);
    expect(new Prices({ "gpt-5.5": { input: 5, cacheRead: 0.5, cacheWrite: 5, output: 30 } }).of("gpt-5.5-2026")?.input).toBe(5);
  });
});

/**
 * Round five, item 9: a model name without a row of its own takes no price from the row it starts
 * with (gpt-4.1-nano is not gpt-4.1 at a twentieth of the price; o3-pro is not o3): a prefix may
 * lend a window, never a price. A dated snapshot of a listed model is that model.
 */
import { describe, expect, it } from "vitest";
import { viewOf } from "../../../core/models/index.js";
import { DEFAULT_PRICES, Prices } from "../../../proxy/observe/prices.js";

const UNLISTED = ["gpt-4.1-nano", "o3-pro", "gpt-5-pro", "gpt-5.2-pro", "gpt-5.1-codex-mini", "claude-opus-4-9-turbo", "o4-mini-deep-research"];

describe("round five: prices", () => {
  it("9. a model name without a row borrows no price from the row it starts with", () => {
    const prices = new Prices();
    for (const m of UNLISTED) {
      expect(prices.of(m), m).toBeNull();
      expect(viewOf(m).price, m).toBeNull();
      // The row still lends its window.
      expect(viewOf(m).windowSource, m).toBe("table");
    }
    expect(viewOf("gpt-4.1-nano").window).toBe(viewOf("gpt-4.1").window);
  });

  it("9. listed models and their snapshots keep their price", () => {
    const prices = new Prices();
    for (const [m, row] of [["gpt-4.1-2025-04-14", "gpt-4.1"], ["o3-2025-04-16", "o3"], ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"], ["anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"], ["claude-opus-4-1@20250805", "claude-opus-4-1"], ["google/gemini-3-pro-preview", "gemini-3-pro"]]) {
      expect(prices.of(m), m).toEqual(DEFAULT_PRICES[row]);
    }
  });
});

/**
 * Anthropic's models. Prices: platform.claude.com's pricing page and each model's overview page
 * (5-minute cache write 1.25× input, 1-hour write 2× input). The prefix-check column is the
 * `supportedModels` list of the "Prefix checks on thinking blocks" page (preserved thinking).
 */
import { price, type ModelFacts, type Tier } from "./types.js";

const READ = "2026-12-01";
const DOCS = "https://platform.claude.com/docs/en";
const PRICING = `${DOCS}/about-claude/pricing`;
const PREFIX_CHECKS = `${DOCS}/build-with-claude/preserved-thinking/prefix-checks`;
const overview = (slug: string): string => `${DOCS}/models/${slug}/overview`;

const M = 1_000_000;
const K200 = 200_000;

/** Sonnet 4 and 4.5 under the 1M beta: past 200K input the whole request is billed at the long-context rates. */
const SONNET_4_LONG: Tier = { above: 200_000, price: price(6, 0.6, 7.5, 22.5, 12) };

const a = (id: string, window: number, p: ModelFacts["price"], more: Partial<ModelFacts> = {}): ModelFacts => ({
  id, provider: "anthropic", window, price: p, source: PRICING, read: READ, ...more,
});

export const ANTHROPIC: readonly ModelFacts[] = [
  // Claude 5.x: native 1M windows.
  a("claude-fable-5-2", M, price(8, 0.2, 10, 40, 16), { prefixCheck: true, source: `${overview("fable-5-2")}; ${PREFIX_CHECKS}`, via: "the $8/$40 row of Anthropic's model comparison tables; cache rates as quoted by the rightsize 0.10.2 release note" }),
  a("claude-mythos-5-2", M, price(8, 0.2, 10, 40, 16), { prefixCheck: true, source: `${overview("fable-5-2")}; ${PREFIX_CHECKS}`, via: "same specifications and pricing as Claude Fable 5.2" }),
  a("claude-fable-5-1", M, price(10, 0.25, 12.5, 50, 20), { prefixCheck: true, source: `${PRICING}; ${PREFIX_CHECKS}` }),
  a("claude-mythos-5-1", M, price(10, 0.25, 12.5, 50, 20), { prefixCheck: true, source: `${PRICING}; ${PREFIX_CHECKS}` }),
  a("claude-fable-5", M, price(10, 1, 12.5, 50, 20), { source: `${PRICING}; ${overview("fable-5")}` }),
  a("claude-mythos-5", M, price(10, 1, 12.5, 50, 20), { source: `${PRICING}; ${overview("fable-5")}` }),
  a("claude-opus-5-5", M, price(4, 0.2, 5, 20, 8), { prefixCheck: true, source: `${overview("opus-5-5")}; ${PREFIX_CHECKS}` }),
  a("claude-opus-5", M, price(5, 0.5, 6.25, 25, 10), { source: overview("opus-5") }),
  // Sonnet 5.5's cache reads went from $0.20 to $0.10 on 2026-10-07 (the pricing page as of the date read).
  a("claude-sonnet-5-5", M, price(2, 0.1, 2.5, 10, 4), { prefixCheck: true, source: `${overview("sonnet-5-5")}; ${PRICING}; ${PREFIX_CHECKS}` }),
  a("claude-sonnet-5", M, price(2, 0.2, 2.5, 10, 4), { source: overview("sonnet-5") }),
  // Haiku 5.5 is priced by prompt length: past 100,000 input tokens the whole request costs 5×.
  a("claude-haiku-5-5", M, price(0.1, 0.01, 0.125, 0.5, 0.2), {
    prefixCheck: true, tier: { above: 100_000, price: price(0.5, 0.05, 0.625, 2.5, 1) }, source: `${overview("haiku-5-5")}; ${PREFIX_CHECKS}`,
  }),
  // Claude 4.x: Opus 4.8 has a native 1M window; the others 200K, 1M with the beta header.
  a("claude-opus-4-8", M, price(5, 0.5, 6.25, 25, 10), { source: `${PRICING}; ${overview("opus-4-8")}` }),
  a("claude-opus-4-7", K200, price(5, 0.5, 6.25, 25, 10), { oneMillionBeta: {} }),
  a("claude-opus-4-6", K200, price(5, 0.5, 6.25, 25, 10), { oneMillionBeta: {} }),
  a("claude-opus-4-5", K200, price(5, 0.5, 6.25, 25, 10), { source: `${PRICING}; ${overview("opus-4-5")}` }),
  a("claude-opus-4-1", K200, price(15, 1.5, 18.75, 75, 30)),
  a("claude-opus-4", K200, price(15, 1.5, 18.75, 75, 30)),
  a("claude-sonnet-4-6", K200, price(3, 0.3, 3.75, 15, 6), { oneMillionBeta: {} }),
  a("claude-sonnet-4-5", K200, price(3, 0.3, 3.75, 15, 6), { oneMillionBeta: { tier: SONNET_4_LONG }, source: `${PRICING}; ${overview("sonnet-4-5")}` }),
  a("claude-sonnet-4", K200, price(3, 0.3, 3.75, 15, 6), { oneMillionBeta: { tier: SONNET_4_LONG } }),
  a("claude-3-7-sonnet", K200, price(3, 0.3, 3.75, 15, 6)),
  a("claude-haiku-4-5", K200, price(1, 0.1, 1.25, 5, 2)),
  a("claude-3-5-haiku", K200, price(0.8, 0.08, 1, 4, 1.6)),
  // Any other Claude model: 200K, 1M with the beta header; no price.
  a("claude-", K200, undefined, { oneMillionBeta: {} }),
];

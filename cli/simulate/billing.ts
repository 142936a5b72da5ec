/**
 * How a replay's requests are billed: the part of a request that repeats the previous request
 * (while the provider's cache still holds it) is read from the cache, the rest is written to it.
 * In tokens, cached input counts `cacheDiscount` of a fresh one; in dollars, at the model's list
 * prices: cache reads, cache writes (the provider's write price; input's where it charges none)
 * and output, the whole request at the long-context tier's prices once its input passes the tier.
 */
import type { Price, Tier } from "../../core/models/index.js";

export interface Billing {
  /** All input tokens sent. */
  input: number;
  /** Input tokens served from the prefix cache. */
  cached: number;
  /** uncached + cacheDiscount × cached. */
  billed: number;
  /** Extra model calls (the LLM-summary baseline's summarisation calls). */
  extraCalls: number;
  /** Output tokens of those extra calls. */
  extraOutput: number;
  /** Input tokens written to the cache (everything not read from it). */
  written: number;
  /** The bill in dollars at the model's prices (0 when the model has none: see `priced`). */
  dollars: number;
  /** Requests billed at the long-context tier. */
  tiered: number;
  /** Requests whose cache had expired (the gap before them was longer than the cache lives). */
  expired: number;
}

/** What a bill is made with. */
export interface BillingModel {
  discount: number;
  /** The model's prices, or null (tokens only). */
  price: Price | null;
  tier: Tier | null;
}

export function emptyBilling(): Billing {
  return { input: 0, cached: 0, billed: 0, extraCalls: 0, extraOutput: 0, written: 0, dollars: 0, tiered: 0, expired: 0 };
}

/** The price a request of `total` input tokens is billed at: the tier's past its line. */
function priceOf(m: BillingModel, total: number): Price | null {
  if (m.price === null) return null;
  return m.tier !== null && m.tier.price !== undefined && total > m.tier.above ? m.tier.price : m.price;
}

/** One request: `total` input tokens of which `cached` were read from the cache. */
export function bill(b: Billing, total: number, cached: number, m: BillingModel): void {
  b.input += total;
  b.cached += cached;
  b.billed += total - cached + m.discount * cached;
  b.written += total - cached;
  const p = priceOf(m, total);
  if (p === null) return;
  if (p !== m.price) b.tiered++;
  b.dollars += (cached * p.cacheRead + (total - cached) * p.cacheWrite) / 1e6;
}

/** A call's output (the LLM baseline's summary), billed at the price its input `total` put it at. */
export function billOutput(b: Billing, output: number, total: number, m: BillingModel): void {
  b.extraOutput += output;
  const p = priceOf(m, total);
  if (p !== null) b.dollars += (output * p.output) / 1e6;
}

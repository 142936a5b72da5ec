/**
 * The bill of each cliff, from the provider's own counts. A cliff sheds tokens from its request
 * and from every request after it that reuses it (the estimate's tokens in minus out), but it
 * changes the prompt's prefix, so the provider writes the new prefix to its cache instead of
 * reading the old one: the cliff's request pays for its uncached input and its cache write at
 * their prices instead of the cache-read price. The requests after it read the new prefix back.
 *
 * net = shed × cache-read price − (input × (input − cache-read) + cacheWrite × (cacheWrite − cache-read))
 *
 * of the cliff's request: what the shed tokens would have cost had they been read from the cache
 * (the cheapest they could have been; uncached they cost more, so the net is a floor), less what
 * the rewrite cost beyond a cache read.
 */
import type { Price } from "./prices.js";
import { noRecalls, type RecallCounts } from "./after-cliff/index.js";
import type { Usage } from "./usage.js";

export interface CliffBill {
  /** Milliseconds since the epoch when the cliff's exchange ended. */
  time: number;
  /** Requests in the cliff's span: itself and those after it until the next cliff. */
  requests: number;
  /** Estimated tokens the cliff kept out of its span's requests. */
  shed: number;
  /** Prompt tokens the provider did not read from its cache for the cliff's request (input + cache write). */
  rewrote: number;
  /** Cache-read tokens of the requests after the cliff, in its span. */
  readBack: number;
  /** Dollars saved, net of the rewrite; null when the model has no price or the provider sent no usage. */
  netDollars: number | null;
  /** The model's recalls in its span (their rounds' usage is in the figures above). */
  recalls: RecallCounts;
}

/** The extra cost of the cliff's request over reading its whole prompt from the cache. */
function rewriteCost(u: Readonly<Usage>, price: Price): number {
  return (u.input * (price.input - price.cacheRead) + u.cacheWrite * (price.cacheWrite - price.cacheRead)) / 1e6;
}

/** The bills of one session's cliffs, newest last (the oldest beyond `keep` stay in the totals only). */
export class Ledger {
  readonly bills: CliffBill[] = [];
  /** Over every cliff of the session; `priced` counts the bills with a dollar figure. */
  readonly total = { cliffs: 0, shed: 0, rewrote: 0, readBack: 0, netDollars: 0, priced: 0 };
  private cliffUsage: Readonly<Usage> | null = null;
  private cliffPrice: Price | null = null;

  constructor(private readonly keep = 8) {}

  /**
   * One request of the session: `cliff` when it made (or escalated to) a new cliff, `shed` the
   * estimated tokens it did not send, `recall` the recalls the proxy answered for it. A request that
   * sent everything is outside any cliff's span.
   */
  add(cliff: boolean, shed: number, usage: Readonly<Usage> | null, price: Price | null, time: number, recall: Readonly<RecallCounts> | null = null): void {
    if (cliff) {
      const rewrote = usage === null ? 0 : usage.input + usage.cacheWrite;
      this.bills.push({ time, requests: 0, shed: 0, rewrote, readBack: 0, netDollars: null, recalls: noRecalls() });
      if (this.bills.length > this.keep) this.bills.shift();
      this.cliffUsage = usage;
      this.cliffPrice = price;
      this.total.cliffs++;
      this.total.rewrote += rewrote;
    }
    const bill = this.bills[this.bills.length - 1];
    if (bill === undefined) return;
    // A recall is the span's cost even when its request went out whole after a refused round (a fallback).
    if (recall !== null) {
      bill.recalls.calls += recall.calls;
      bill.recalls.rounds += recall.rounds;
      bill.recalls.tokens += recall.tokens;
    }
    if (!cliff && shed <= 0) return;
    bill.requests++;
    bill.shed += shed;
    this.total.shed += shed;
    if (!cliff && usage !== null) {
      bill.readBack += usage.cacheRead;
      this.total.readBack += usage.cacheRead;
    }
    const before = bill.netDollars;
    const at = this.cliffPrice;
    const u = this.cliffUsage;
    bill.netDollars = at === null || u === null ? null : (bill.shed * at.cacheRead) / 1e6 - rewriteCost(u, at);
    this.total.netDollars += (bill.netDollars ?? 0) - (before ?? 0);
    if (before === null && bill.netDollars !== null) this.total.priced++;
  }
}

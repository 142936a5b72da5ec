/**
 * What a token costs, in US dollars per million, by model. The figures are the model-facts table's
 * (core/models: the providers' list prices for standard requests, Anthropic's 5-minute cache write,
 * a provider's input price for a write where it charges none). A config's `prices` adds or
 * replaces entries by name prefix; a model the table knows without a price, and that no entry at
 * least as specific names, has no dollar figure (a newer model never borrows its family's price),
 * nor has a variant the table does not list (`o3-pro` under `o3`: a prefix lends a window, never a price).
 */
import { isListed, MODEL_FACTS, modelFacts, modelKey } from "../../core/models/index.js";
import type { Usage } from "./usage.js";

export interface Price {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export type PriceTable = Record<string, Price>;

export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze(
  Object.fromEntries(MODEL_FACTS.flatMap((f) => (f.price === undefined ? [] : [[f.id, { input: f.price.input, cacheRead: f.price.cacheRead, cacheWrite: f.price.cacheWrite, output: f.price.output }]]))),
);

const FIELDS = ["input", "cacheRead", "cacheWrite", "output"] as const;

/** A config's price entries, checked: every field a number ≥ 0. Throws an Error naming the entry. */
export function checkPrices(v: unknown): PriceTable {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new Error("prices must be an object of model → { input, cacheRead, cacheWrite, output } (dollars per million tokens)");
  const out: PriceTable = {};
  for (const [model, entry] of Object.entries(v as Record<string, unknown>)) {
    const e = entry as Record<string, unknown>;
    if (e === null || typeof e !== "object") throw new Error(`prices.${model} must be an object { input, cacheRead, cacheWrite, output }`);
    for (const f of FIELDS) {
      if (typeof e[f] !== "number" || !Number.isFinite(e[f] as number) || (e[f] as number) < 0) throw new Error(`prices.${model}.${f} must be a number ≥ 0 (dollars per million tokens)`);
    }
    out[model] = { input: e.input as number, cacheRead: e.cacheRead as number, cacheWrite: e.cacheWrite as number, output: e.output as number };
  }
  return out;
}

export class Prices {
  private readonly overrides: PriceTable;
  private readonly mine: string[];
  private readonly names: string[];
  private readonly found = new Map<string, Price | null>();

  constructor(overrides: PriceTable = {}) {
    this.overrides = overrides;
    this.mine = Object.keys(overrides).sort((a, b) => b.length - a.length);
    this.names = Object.keys(DEFAULT_PRICES).sort((a, b) => b.length - a.length);
  }

  /** The price of a model: a config entry it starts with, else the facts' row for it, or null. */
  of(model: string): Price | null {
    let price = this.found.get(model);
    if (price === undefined) {
      const own = this.mine.find((n) => model === n || model.startsWith(n));
      price = own !== undefined ? this.overrides[own] : this.builtIn(model);
      if (this.found.size >= 256) this.found.clear();
      this.found.set(model, price);
    }
    return price;
  }

  /** The built-in price: the facts' row for the model when the row lists it (a variant under a row's prefix has none). */
  private builtIn(model: string): Price | null {
    const row = modelFacts(model);
    if (row !== null) return isListed(modelKey(model), row.id) ? DEFAULT_PRICES[row.id] ?? null : null;
    const name = this.names.find((n) => isListed(model, n));
    return name === undefined ? null : DEFAULT_PRICES[name];
  }

  /** Dollars for a usage at a price. */
  static dollars(u: Readonly<Usage>, price: Price): number {
    return (u.input * price.input + u.cacheRead * price.cacheRead + u.cacheWrite * price.cacheWrite + u.output * price.output) / 1e6;
  }
}

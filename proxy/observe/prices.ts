/**
 * What a token costs, in US dollars per million, by model: the one price table. A model is found
 * by the longest entry its name starts with (`claude-sonnet-4-5-20250929` by `claude-sonnet-4`).
 * The figures are the providers' published list prices for standard requests (Anthropic's cache
 * write is the 5-minute one; OpenAI charges no cache write, so it costs what input costs). A
 * config's `prices` adds or replaces entries; a model found in neither has no dollar figure.
 */
import type { Usage } from "./usage.js";

export interface Price {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export type PriceTable = Record<string, Price>;

const p = (input: number, cacheRead: number, cacheWrite: number, output: number): Price => ({ input, cacheRead, cacheWrite, output });

export const DEFAULT_PRICES: Readonly<PriceTable> = Object.freeze({
  "claude-opus-4-5": p(5, 0.5, 6.25, 25),
  "claude-opus-4-6": p(5, 0.5, 6.25, 25),
  "claude-opus-4": p(15, 1.5, 18.75, 75),
  "claude-sonnet-4": p(3, 0.3, 3.75, 15),
  "claude-3-7-sonnet": p(3, 0.3, 3.75, 15),
  "claude-haiku-4": p(1, 0.1, 1.25, 5),
  "claude-3-5-haiku": p(0.8, 0.08, 1, 4),
  "gpt-5": p(1.25, 0.125, 1.25, 10),
  "gpt-5-mini": p(0.25, 0.025, 0.25, 2),
  "gpt-5-nano": p(0.05, 0.005, 0.05, 0.4),
  "gpt-4.1": p(2, 0.5, 2, 8),
  "gpt-4.1-mini": p(0.4, 0.1, 0.4, 1.6),
  "gpt-4o": p(2.5, 1.25, 2.5, 10),
  "gpt-4o-mini": p(0.15, 0.075, 0.15, 0.6),
  "o3": p(2, 0.5, 2, 8),
  "o3-mini": p(1.1, 0.55, 1.1, 4.4),
  "o4-mini": p(1.1, 0.275, 1.1, 4.4),
});

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
  private readonly table: PriceTable;
  private readonly names: string[];
  private readonly found = new Map<string, Price | null>();

  constructor(overrides: PriceTable = {}) {
    this.table = { ...DEFAULT_PRICES, ...overrides };
    this.names = Object.keys(this.table).sort((a, b) => b.length - a.length);
  }

  /** The price of a model, or null when the table has none. */
  of(model: string): Price | null {
    let price = this.found.get(model);
    if (price === undefined) {
      const name = this.names.find((n) => model === n || model.startsWith(n));
      price = name === undefined ? null : this.table[name];
      if (this.found.size >= 256) this.found.clear();
      this.found.set(model, price);
    }
    return price;
  }

  /** Dollars for a usage at a price. */
  static dollars(u: Readonly<Usage>, price: Price): number {
    return (u.input * price.input + u.cacheRead * price.cacheRead + u.cacheWrite * price.cacheWrite + u.output * price.output) / 1e6;
  }
}

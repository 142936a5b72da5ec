/**
 * The shape of one row of the model-facts table: what a provider publishes about a model family
 * that the hosts need (window, list prices, long-context tier, Anthropic's thinking prefix check),
 * each row with the provider page it was read from and the date it was read.
 */

/** US dollars per million tokens. `cacheWrite` is the default (5-minute) cache write; providers that charge none bill it as input. */
export interface Price {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Anthropic's 1-hour cache write, where the provider publishes one. */
  cacheWrite1h?: number;
}

/**
 * A long-context price tier: once a request's input (fresh input, cache reads and cache writes
 * together) passes `above` tokens, the provider bills the whole request at `price`, not only the
 * tokens past the line.
 */
export interface Tier {
  above: number;
  /** The rates past the line (absent where the provider's figures were not read). */
  price?: Price;
}

export type Provider = "anthropic" | "openai" | "google" | "moonshot" | "zhipu" | "deepseek";

export interface ModelFacts {
  /** A model id prefix as the table spells it (see `modelKey`): the longest matching row wins. */
  id: string;
  provider: Provider;
  /** Input tokens the provider accepts (for OpenAI models, the input share of the total window). */
  window: number;
  price?: Price;
  tier?: Tier;
  /** Anthropic's long-context beta (`anthropic-beta: context-1m-…`) raises the window to 1M; the tier it brings, if any. */
  oneMillionBeta?: { tier?: Tier };
  /** The model runs Anthropic's prefix check on thinking blocks sent back (preserved thinking). */
  prefixCheck?: true;
  /** The provider page the figures come from. */
  source: string;
  /** The date the figures were read (YYYY-MM-DD). */
  read: string;
  /** Where the provider page was read through a copy quoting it (a release note, a gateway's page). */
  via?: string;
}

/** A price row: input, cache read, cache write (5 minutes), output, and optionally the 1-hour write. */
export function price(input: number, cacheRead: number, cacheWrite: number, output: number, cacheWrite1h?: number): Price {
  return cacheWrite1h === undefined ? { input, cacheRead, cacheWrite, output } : { input, cacheRead, cacheWrite, output, cacheWrite1h };
}

/** OpenAI's long-context rule past 272K input tokens: input, cache reads and writes ×2, output ×1.5, on the whole request. */
export function openAiLong(p: Price): Tier {
  return { above: 272_000, price: { input: p.input * 2, cacheRead: p.cacheRead * 2, cacheWrite: p.cacheWrite * 2, output: p.output * 1.5 } };
}

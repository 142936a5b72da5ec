/**
 * OpenAI's models. Windows are the input share of the total (GPT-5 to 5.3: 272K of 400K; GPT-5.4
 * on and GPT-6: 922K of 1.05M). Models from GPT-5.4 on bill a request past 272K input tokens wholly
 * at 2× input and cache, 1.5× output. GPT-6 and GPT-5.6 Sol and Luna charge cache writes (1.25× input);
 * older models charge none, so a write costs what input costs.
 */
import { openAiLong, price, type ModelFacts, type Price } from "./types.js";

const READ = "2026-12-01";
const PRICING = "https://developers.openai.com/api/docs/pricing";
const model = (slug: string): string => `https://developers.openai.com/api/docs/models/${slug}`;
const VIA_GPT6 = "LiteLLM's GPT-6 Sol/Luna and GPT-6.2 notes, codexometer 0.18.4 and LaoZhang's GPT-6 launch page quoting OpenAI's pricing";

const INPUT_922K = 922_000;
const INPUT_272K = 272_000;

const o = (id: string, window: number, p?: Price, more: Partial<ModelFacts> = {}): ModelFacts => ({
  id, provider: "openai", window, ...(p === undefined ? {} : { price: p }), source: PRICING, read: READ, ...more,
});
/** A model from GPT-5.4 on: 922K input, the 272K tier. */
const long = (id: string, p: Price | undefined, more: Partial<ModelFacts> = {}): ModelFacts =>
  o(id, INPUT_922K, p, { ...(p === undefined ? { tier: { above: 272_000 } } : { tier: openAiLong(p) }), ...more });

const ASTRA = price(10, 1, 12.5, 50);
const SOL6 = price(2, 0.2, 2.5, 10);
const LUNA6 = price(0.1, 0.01, 0.125, 0.5);
const SOL61 = price(2, 0.1, 2.5, 10);
const ASTRA62 = price(8, 0.4, 10, 40);

export const OPENAI: readonly ModelFacts[] = [
  // GPT-6 (Codex's bundled default since 0.153.4 is gpt-6-astra).
  long("gpt-6.2-astra", ASTRA62, { source: `${PRICING}; ${model("gpt-6.2-astra")}`, via: VIA_GPT6 }),
  // Codex 0.171.0's bundled default. Cache writes are for 30 minutes of retention (the page's rate).
  long("gpt-6.2-sol", price(2, 0.1, 2.5, 10), { source: `${model("gpt-6.2-sol")}; ${PRICING}`, read: "2026-12-02" }),
  long("gpt-6.2", undefined, { source: model("gpt-6.2-sol"), via: VIA_GPT6 }),
  long("gpt-6.1-sol", SOL61, { source: `${PRICING}; ${model("gpt-6.1-sol")}`, via: "CodexManager 0.4.7 and APIYI's GPT-6.1 Sol page quoting OpenAI's price card" }),
  long("gpt-6-astra", ASTRA, { source: `${PRICING}; ${model("gpt-6-astra")}`, via: VIA_GPT6 }),
  long("gpt-6-sol", SOL6, { source: `${PRICING}; ${model("gpt-6-sol")}`, via: VIA_GPT6 }),
  long("gpt-6-luna", LUNA6, { source: `${PRICING}; ${model("gpt-6-luna")}`, via: VIA_GPT6 }),
  long("gpt-6", undefined, { via: VIA_GPT6 }),
  // GPT-5.x
  // Sol's and Luna's pages bill cache writes at 1.25× the uncached input rate. Sol's page gives
  // its promotional rate ($4 / $20 from 2026-08-21, "at least through 2026-11-21"), still the page's figure as read.
  long("gpt-5.6-sol", price(4, 0.4, 5, 20), { source: `${model("gpt-5.6-sol")}; ${PRICING}`, read: "2026-12-02" }),
  long("gpt-5.6-terra", price(2, 0.2, 2, 12), { via: "LaoZhang's GPT-5.6 price page (2026-07-30 rates)" }),
  long("gpt-5.6-luna", price(0.2, 0.02, 0.25, 1.2), { source: `${model("gpt-5.6-luna")}; ${PRICING}`, read: "2026-12-02" }),
  long("gpt-5.6", undefined),
  long("gpt-5.5", undefined),
  long("gpt-5.4-mini", price(0.75, 0.075, 0.75, 4.5), { via: "adk-model 0.6.0's OpenAI price table" }),
  long("gpt-5.4", price(2.5, 0.25, 2.5, 15), { via: "adk-model 0.6.0's OpenAI price table" }),
  o("gpt-5.3-codex", INPUT_272K, price(1.75, 0.175, 1.75, 14)),
  o("gpt-5.2", INPUT_272K, price(1.75, 0.175, 1.75, 14)),
  o("gpt-5-mini", INPUT_272K, price(0.25, 0.025, 0.25, 2)),
  o("gpt-5-nano", INPUT_272K, price(0.05, 0.005, 0.05, 0.4)),
  // GPT-5.1 and the Codex tunings of 5 and 5.1 at GPT-5's rates; their -mini and -max variants are not listed.
  o("gpt-5.1-codex", INPUT_272K, price(1.25, 0.125, 1.25, 10)),
  o("gpt-5.1", INPUT_272K, price(1.25, 0.125, 1.25, 10)),
  o("gpt-5-codex", INPUT_272K, price(1.25, 0.125, 1.25, 10)),
  o("gpt-5", INPUT_272K, price(1.25, 0.125, 1.25, 10)),
  // Earlier models (the table's figures before this file).
  o("gpt-4.1-mini", 1_047_576, price(0.4, 0.1, 0.4, 1.6)),
  o("gpt-4.1", 1_047_576, price(2, 0.5, 2, 8)),
  o("gpt-4o-mini", 128_000, price(0.15, 0.075, 0.15, 0.6)),
  o("gpt-4o", 128_000, price(2.5, 1.25, 2.5, 10)),
  o("gpt-4-turbo", 128_000),
  o("gpt-oss-", 131_072),
  o("o1", 200_000),
  o("o3-mini", 200_000, price(1.1, 0.55, 1.1, 4.4)),
  o("o3", 200_000, price(2, 0.5, 2, 8)),
  o("o4-mini", 200_000, price(1.1, 0.275, 1.1, 4.4)),
  o("codex-mini", 200_000),
];

/**
 * Google's Gemini models and the other providers the proxy has seen. Gemini 2.5 Pro and 3 Pro bill
 * a prompt past 200K tokens wholly at their long-context rates; Gemini's implicit cache has no write
 * charge, so a write costs what input costs (explicit caching's storage fee is not modelled).
 */
import { price, type ModelFacts, type Price, type Provider } from "./types.js";

const READ = "2026-12-01";
const GEMINI_PRICING = "https://ai.google.dev/gemini-api/docs/pricing";
const GEMINI_MODELS = "https://ai.google.dev/gemini-api/docs/models";
const GEMINI_WINDOW = 1_048_576;

const g = (id: string, p?: Price, long?: Price, window = GEMINI_WINDOW, via?: string): ModelFacts => ({
  id, provider: "google", window, ...(p === undefined ? {} : { price: p }), ...(long === undefined ? {} : { tier: { above: 200_000, price: long } }),
  source: p === undefined ? GEMINI_MODELS : `${GEMINI_PRICING}; ${GEMINI_MODELS}`, read: READ, ...(via === undefined ? {} : { via }),
});

// The models Gemini CLI 0.61 defaults to (its config/models.ts): gemini-3.5-flash (flash),
// gemini-3.1-pro-preview and gemini-3-pro-preview (pro, auto-gemini-3), gemini-2.5-pro (auto-gemini-2.5).
const VIA_35_FLASH = "Gemini 3.5 Flash's launch prices as quoted by wowhow.cloud's developer guide and mech.app (simonwillison.net): $1.50 / $9.00, cached $0.15";
const VIA_31_PRO = "the same pages quoting Gemini 3.1 Pro at $2.00 / $12.00, Gemini 3 Pro's card";

const w = (id: string, provider: Provider, window: number, source: string): ModelFacts => ({ id, provider, window, source, read: READ });

export const GOOGLE: readonly ModelFacts[] = [
  g("gemini-3.5-flash", price(1.5, 0.15, 1.5, 9), undefined, GEMINI_WINDOW, VIA_35_FLASH),
  g("gemini-3.1-pro", price(2, 0.2, 2, 12), price(4, 0.4, 4, 18), GEMINI_WINDOW, VIA_31_PRO),
  g("gemini-3-pro", price(2, 0.2, 2, 12), price(4, 0.4, 4, 18)),
  g("gemini-3-flash", price(0.5, 0.05, 0.5, 3)),
  g("gemini-3"),
  g("gemini-2.5-pro", price(1.25, 0.125, 1.25, 10), price(2.5, 0.25, 2.5, 15)),
  g("gemini-2.5-flash-lite", price(0.1, 0.01, 0.1, 0.4)),
  g("gemini-2.5-flash", price(0.3, 0.03, 0.3, 2.5)),
  g("gemini-1.5-pro", undefined, undefined, 2_097_152),
  g("gemini-"),
];

const MOONSHOT = "https://platform.moonshot.ai/docs/introduction";
const ZHIPU = "https://docs.z.ai/guides/overview/pricing";
const DEEPSEEK = "https://api-docs.deepseek.com/quick_start/pricing";

/** Windows only (the table's figures before this file); no prices. */
export const OTHERS: readonly ModelFacts[] = [
  w("kimi-k2-0711", "moonshot", 131_072, MOONSHOT),
  w("kimi-k2", "moonshot", 262_144, MOONSHOT),
  w("kimi-", "moonshot", 131_072, MOONSHOT),
  w("moonshot-v1-128k", "moonshot", 131_072, MOONSHOT),
  w("glm-4.5", "zhipu", 131_072, ZHIPU),
  w("glm-4", "zhipu", 200_000, ZHIPU),
  w("glm-", "zhipu", 200_000, ZHIPU),
  w("deepseek-", "deepseek", 131_072, DEEPSEEK),
];

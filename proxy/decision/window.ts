/**
 * The context window of the model a request names, and the threshold a share of it gives. The one
 * table of windows is here: a model name is matched by its longest known prefix, so a dated or
 * newer point release (`claude-sonnet-4-5-20250929`, `gpt-5.1-codex`) finds its family. Windows are
 * the input a provider accepts (for GPT-5, the 272k of input, not the 400k total).
 */
import type { IncomingHttpHeaders } from "node:http";

/** [name prefix, window in tokens], matched longest prefix first. */
const TABLE: [string, number][] = [
  // Anthropic: 200k; Anthropic's 1M-context beta header raises it (below).
  ["claude-", 200_000],
  // OpenAI
  ["gpt-5", 272_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-oss-", 131_072],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
  ["codex-mini", 200_000],
  // Google
  ["gemini-1.5-pro", 2_097_152],
  ["gemini-", 1_048_576],
  // Moonshot
  ["kimi-k2-0711", 131_072],
  ["kimi-k2", 262_144],
  ["kimi-", 131_072],
  ["moonshot-v1-128k", 131_072],
  // Zhipu
  ["glm-4.5", 131_072],
  ["glm-4", 200_000],
  ["glm-", 200_000],
  // DeepSeek
  ["deepseek-", 131_072],
];
const WINDOWS = TABLE.slice().sort((a, b) => b[0].length - a[0].length);

/** The window assumed for a model the table does not know. */
export const DEFAULT_WINDOW = 128_000;
/** Anthropic's long-context beta (`anthropic-beta: context-1m-…`). */
export const ONE_MILLION = 1_000_000;

export type WindowSource = "table" | "anthropic-beta" | "context-window" | "default";

export interface WindowChoice {
  model: string;
  window: number;
  source: WindowSource;
}

/** A model id as the table spells it: lowercase, without a provider or path prefix (`anthropic/`, `models/`) or a `[1m]` tag. */
export function modelKey(model: string): string {
  const last = model.toLowerCase().split("/").pop() ?? "";
  return last.replace(/\[[^\]]*\]$/, "").replace(/^(us|eu|apac|global)\.anthropic\./, "").replace(/^anthropic\./, "").trim();
}

function oneMillionBeta(headers: IncomingHttpHeaders): boolean {
  const beta = headers["anthropic-beta"];
  const list = Array.isArray(beta) ? beta.join(",") : beta ?? "";
  return /(^|,)\s*context-1m-/i.test(list);
}

/** The window for the model a request names (a `--context-window` override wins; an unknown model gets 128k). */
export function windowOf(model: unknown, headers: IncomingHttpHeaders, override: number | undefined): WindowChoice {
  const name = typeof model === "string" ? model : "";
  if (override !== undefined && override > 0) return { model: name, window: override, source: "context-window" };
  const key = modelKey(name);
  if (key.startsWith("claude-") && oneMillionBeta(headers)) return { model: name, window: ONE_MILLION, source: "anthropic-beta" };
  for (const [prefix, window] of WINDOWS) if (key.startsWith(prefix)) return { model: name, window, source: "table" };
  return { model: name, window: DEFAULT_WINDOW, source: "default" };
}

/** How the proxy sizes each request's threshold: a share of the model's window, or a fixed number of tokens. */
export interface ThresholdPolicy {
  /** A share of the window in (0, 1]; absent: `tokens` for every request. */
  share?: number;
  tokens: number;
  contextWindow?: number;
  /** The minimum gain as a share of the request's threshold, when the threshold is a share (absent: the config's gain). */
  gainShare?: number;
}

export interface ThresholdChoice extends WindowChoice {
  threshold: number;
}

export function thresholdFor(policy: ThresholdPolicy, model: unknown, headers: IncomingHttpHeaders): ThresholdChoice | null {
  if (policy.share === undefined) return null;
  const w = windowOf(model, headers, policy.contextWindow);
  return { ...w, threshold: Math.floor(w.window * policy.share) };
}

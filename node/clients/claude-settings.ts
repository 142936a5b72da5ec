/**
 * Claude Code's own auto-compact trigger, as 2.1.332 takes it: its auto-compact window from, first,
 * `CLAUDE_CODE_AUTO_COMPACT_WINDOW`; then the settings files, later ones over earlier (the user's
 * `settings.json` in `$CLAUDE_CONFIG_DIR` or `~/.claude`, the project's `.claude/settings.json`,
 * then `.claude/settings.local.json`, then `--autocompact`), where a file's top-level
 * `autoCompactWindow` stands for every model and replaces what earlier files set per model, and
 * `modelSettings.<model>.autoCompactWindow` (what `/autocompact` saves) stands for one model by its
 * canonical name; then an experiment, or the default the server sends per model
 * (`default_auto_compact_window`), which no file on this machine shows. It compacts once its count
 * passes the window less min(max output, 20,000) less 13,000. When the proxy's threshold for a
 * model sits at or above that, Claude Code summarises with its model before the proxy cliffs.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { modelKey } from "../../core/models/index.js";

/** What Claude Code keeps free below its window: its summary's output (up to 20,000) and a 13,000-token buffer. */
export const CLAUDE_TRIGGER_MARGIN = 20_000 + 13_000;
/** The proxy's estimate runs about this much under the provider's count, which Claude Code reads. */
export const ESTIMATE_UNDER = 1.15;
const MIN_WINDOW = 100_000;

export interface WindowSetting {
  tokens: number;
  /** Where it was set: a file, a variable, or a flag. */
  source: string;
}

export interface ClaudeWindows {
  /** One window for every model (the variable, or a file's top-level key) that no per-model one below it overrides. */
  all?: WindowSetting;
  /** Per model, by canonical name (lowercase, no date, no `[1m]`). */
  byModel: Map<string, WindowSetting>;
}

/** A model name as Claude Code keys its settings: `claude-opus-4-7[1m]` and `claude-opus-4-7-20260101` are `claude-opus-4-7`. */
export const settingsKey = (model: string): string => modelKey(model).replace(/-\d{8}$/, "");

/** A window as the settings write it (tokens, "300k", "1m"), or null for "auto" and anything under Claude Code's floor. */
function tokensOf(v: unknown): number | null {
  let n = typeof v === "number" ? v : NaN;
  const m = typeof v === "string" ? /^\s*(\d+(?:\.\d+)?)\s*([km])?\s*$/i.exec(v) : null;
  if (m !== null) n = Number(m[1]) * (m[2] === undefined ? 1 : m[2].toLowerCase() === "k" ? 1e3 : 1e6);
  return Number.isFinite(n) && n >= MIN_WINDOW ? Math.floor(n) : null;
}

function readJson(file: string): Record<string, any> | null {
  try {
    if (!existsSync(file)) return null;
    const v = JSON.parse(readFileSync(file, "utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The settings files Claude Code reads for `cwd`, lowest first. */
export function settingsFiles(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const home = env.CLAUDE_CONFIG_DIR !== undefined && env.CLAUDE_CONFIG_DIR !== "" ? env.CLAUDE_CONFIG_DIR : join(env.HOME ?? homedir(), ".claude");
  return [join(home, "settings.json"), join(cwd, ".claude", "settings.json"), join(cwd, ".claude", "settings.local.json")];
}

/** One layer over the ones below it, as Claude Code merges them. */
function over(w: ClaudeWindows, s: Record<string, any>, source: string): ClaudeWindows {
  const own = new Map<string, WindowSetting>();
  const models = s.modelSettings !== null && typeof s.modelSettings === "object" ? s.modelSettings : {};
  for (const [name, v] of Object.entries(models as Record<string, any>)) {
    const tokens = tokensOf(v?.autoCompactWindow);
    if (tokens !== null) own.set(settingsKey(name), { tokens, source });
  }
  if (s.autoCompactWindow === undefined) return { all: w.all, byModel: new Map([...w.byModel, ...own]) };
  const all = tokensOf(s.autoCompactWindow);
  return { ...(all === null ? {} : { all: { tokens: all, source } }), byModel: own };
}

/** Claude Code's windows on this machine for `cwd`, with `--autocompact` from its arguments and the variable over all. */
export function claudeWindows(env: NodeJS.ProcessEnv, cwd: string, args: readonly string[] = []): ClaudeWindows {
  let w: ClaudeWindows = { byModel: new Map() };
  for (const file of settingsFiles(env, cwd)) {
    const s = readJson(file);
    if (s !== null) w = over(w, s, file);
  }
  const flag = args.indexOf("--autocompact");
  if (flag >= 0 && args[flag + 1] !== undefined) w = over(w, { autoCompactWindow: args[flag + 1] }, "--autocompact");
  const v = tokensOf(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  return v === null ? w : { all: { tokens: v, source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW" }, byModel: new Map() };
}

/** The window that applies to `model`, if the user set one. */
export function windowFor(w: ClaudeWindows, model: string): WindowSetting | undefined {
  return w.byModel.get(settingsKey(model)) ?? w.all;
}

/** Where Claude Code compacts with a window of `tokens` on a model whose context window is `window`. */
export const claudeTrigger = (tokens: number, window: number): number => Math.min(tokens, window) - CLAUDE_TRIGGER_MARGIN;

const n = (v: number): string => v.toLocaleString("en-US");

/**
 * A warning for each model whose proxy threshold (`thresholdOf`: estimated tokens and the model's
 * window) is at or above Claude Code's trigger as the provider counts, with what to set; `models`
 * are the ones to check besides those the settings name.
 */
export function triggerWarnings(w: ClaudeWindows, models: readonly string[], thresholdOf: (model: string) => { threshold: number; window: number }): string[] {
  const names = new Set([...w.byModel.keys(), ...(w.all === undefined ? [] : models.map(settingsKey))]);
  const out: string[] = [];
  for (const model of names) {
    const set = windowFor(w, model);
    if (set === undefined) continue;
    const { threshold, window } = thresholdOf(model);
    const trigger = claudeTrigger(set.tokens, window);
    if (Math.ceil(threshold * ESTIMATE_UNDER) < trigger) continue;
    const lower = Math.max(1000, Math.floor(trigger / ESTIMATE_UNDER / 1000) * 1000 - 5000);
    const raise = Math.max(MIN_WINDOW, Math.ceil((threshold * ESTIMATE_UNDER + CLAUDE_TRIGGER_MARGIN) / 1000) * 1000 + 10_000);
    out.push(`Claude Code compacts ${model} itself at about ${n(trigger)} tokens (autoCompactWindow ${n(set.tokens)} from ${set.source}), below the proxy's threshold for it (${n(threshold)} estimated, about ${n(Math.round(threshold * ESTIMATE_UNDER))} as the provider counts): its own summary would come first; set --model-thresholds '${model}=${lower}' or raise autoCompactWindow to ${n(raise)} or more (/autocompact ${raise})`);
  }
  return out;
}

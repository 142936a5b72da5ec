/**
 * `run -- claude`: the user's own Claude Code settings (node/clients/claude-settings.ts) against the
 * proxy's threshold for each model it may use, so a trigger of Claude Code's own below the proxy's
 * threshold is said before the session starts, with what to set.
 */
import { basename } from "node:path";
import { claudeWindows, triggerWarnings } from "../node/clients/index.js";
import { thresholdFor, type ThresholdPolicy } from "./decision/index.js";

/** Claude Code's model aliases, and the models checked when no `--model` names one (its current family). */
const ALIASES: Record<string, string> = { opus: "claude-opus-5-5", sonnet: "claude-sonnet-5-5", haiku: "claude-haiku-5-5" };
const CURRENT = Object.values(ALIASES);

/** Whether `run` starts Claude Code: `claude` by any path, or through npx. */
export function isClaudeCode(command: string, args: readonly string[]): boolean {
  const name = basename(command).toLowerCase().replace(/\.(exe|cmd)$/, "");
  return name === "claude" || (name === "npx" && args.some((a) => /^@anthropic-ai\/claude-code(@|$)/.test(a)));
}

/** The model `--model X` or `--model=X` names (an alias as its model), else ANTHROPIC_MODEL. */
function namedModel(args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const i = args.findIndex((a) => a === "--model" || a.startsWith("--model="));
  const v = i < 0 ? env.ANTHROPIC_MODEL : args[i].startsWith("--model=") ? args[i].slice(8) : args[i + 1];
  return v === undefined || v === "" ? undefined : ALIASES[v.toLowerCase()] ?? v;
}

/** A warning per model whose proxy threshold is at or above Claude Code's own trigger on this machine. */
export function claudeTriggerLines(policy: ThresholdPolicy, env: NodeJS.ProcessEnv, cwd: string, args: readonly string[]): string[] {
  const model = namedModel(args, env);
  return triggerWarnings(claudeWindows(env, cwd, args), model === undefined ? CURRENT : [model], (m) => {
    const t = thresholdFor(policy, m, {});
    return { threshold: t.threshold, window: t.window };
  });
}

type WindowView = { thresholdTokens?: number; window?: number };

/**
 * For `status`: the same warnings from a running proxy's `/_cliff/status`, over the Claude models it
 * has seen (their thresholds as it decided them), else over Claude Code's current family under the
 * rule the status states.
 */
export function claudeStatusWarnings(status: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): string[] {
  const seen = (status.windows ?? {}) as Record<string, WindowView>;
  const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
  const rule = status.thresholdRule === "share" || status.thresholdRule === "tokens" ? status.thresholdRule : "default";
  const policy: ThresholdPolicy = {
    rule, share: num(status.thresholdShare), tokens: num(status.thresholdTokens) ?? 0, contextWindow: num(status.contextWindow),
    modelThresholds: Array.isArray(status.modelThresholds) ? status.modelThresholds : undefined, gainShare: 0.1,
  };
  const claude = Object.keys(seen).filter((m) => m.startsWith("claude"));
  return triggerWarnings(claudeWindows(env, cwd), claude.length > 0 ? claude : CURRENT, (m) => {
    const w = seen[m];
    if (w?.thresholdTokens !== undefined && w.window !== undefined) return { threshold: w.thresholdTokens, window: w.window };
    const t = thresholdFor(policy, m, {});
    return { threshold: t.threshold, window: t.window };
  });
}

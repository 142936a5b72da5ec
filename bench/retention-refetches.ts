/**
 * The retention bench's re-fetch table: each corpus session simulated request by request as the CLI
 * does (a cliff at every crossing of a threshold a fifth of the session's estimated tokens, at
 * least 20,000), and after each cliff the calls of the turns it stood for that repeat a call whose
 * result it dropped (core/refetch.ts), per family and pooled, for the reference profile, the recall
 * profile, and the recall profile without asked twice (what that rule pays in re-fetches).
 */
import { estimateTokens, resolveConfig, type Config } from "../core/index.js";
import { simulate } from "../cli/simulate/simulate.js";
import { cliffRefetches } from "../cli/simulate/cliff-costs.js";
import type { Source } from "./retention-corpus.js";

export const REFETCH_PROFILES: readonly [string, Partial<Config>][] = [
  ["reference", { profile: "reference" }],
  ["recall", { profile: "recall" }],
  ["recall -askedTwice", { profile: "recall", askedTwiceMaxChars: 0 }],
];

interface Count {
  cliffs: number;
  refetches: number;
  tokens: number;
}

/** The threshold a session is simulated at: a fifth of its estimated tokens, at least 20,000. */
export const thresholdOf = (messages: readonly unknown[]): number => Math.max(20_000, Math.floor(estimateTokens(messages) / 5));

/** One session under one configuration: its cliffs, and their re-fetches with the tokens of what came back. */
export function sessionRefetches(src: Source, change: Partial<Config>): Count {
  const threshold = thresholdOf(src.messages);
  const cfg = resolveConfig({ ...change, thresholdTokens: threshold, archive: false });
  const sim = simulate(src.messages, src.dialect, cfg, { threshold });
  const per = cliffRefetches(src.messages, src.dialect, sim);
  return { cliffs: sim.cliffs, refetches: per.reduce((n, c) => n + c.count, 0), tokens: per.reduce((n, c) => n + c.tokens, 0) };
}

/** The table's lines: per family and pooled, cliffs, re-fetches and their tokens for each configuration. */
export function refetchTable(sources: readonly Source[]): string[] {
  const sums = new Map<string, Count[]>();
  const add = (key: string, counts: Count[]): void => {
    const into = sums.get(key) ?? counts.map(() => ({ cliffs: 0, refetches: 0, tokens: 0 }));
    counts.forEach((c, k) => {
      into[k].cliffs += c.cliffs;
      into[k].refetches += c.refetches;
      into[k].tokens += c.tokens;
    });
    sums.set(key, into);
  };
  for (const src of sources) add(src.family ?? src.dialect, REFETCH_PROFILES.map(([, change]) => sessionRefetches(src, change)));
  const families = [...sums.keys()].sort();
  const pooled = families.map((f) => sums.get(f)!).reduce<Count[]>((a, b) => a.map((x, k) => ({ cliffs: x.cliffs + b[k].cliffs, refetches: x.refetches + b[k].refetches, tokens: x.tokens + b[k].tokens })), REFETCH_PROFILES.map(() => ({ cliffs: 0, refetches: 0, tokens: 0 })));
  const cell = (c: Count): string => `${String(c.cliffs).padStart(7)} ${String(c.refetches).padStart(6)} ${(c.cliffs === 0 ? "-" : (c.refetches / c.cliffs).toFixed(2)).padStart(6)} ${String(c.tokens).padStart(8)}`;
  const head = REFETCH_PROFILES.map(([name]) => `${name}: cliffs refet /cliff   tokens`.padStart(34)).join("  ");
  return [`  ${"family".padEnd(14)}${head}`, ...families.map((f) => `  ${f.padEnd(14)}${sums.get(f)!.map((c) => cell(c).padStart(34)).join("  ")}`), `  ${"pooled".padEnd(14)}${pooled.map((c) => cell(c).padStart(34)).join("  ")}`];
}

/**
 * The two profiles on one denominator: at each cliff of the report's own replay, the same request
 * compacted under the other profile too, so both are judged on the same needed tokens (what the
 * next turns used that only the history before that cliff held). Says which did better on this
 * session and why: the rules of the better one that held what the other lost, and what it cost in
 * context after the cliff.
 */
import { planCliff, resolveConfig, type Config, type Profile } from "../../core/index.js";
import { TokenReader } from "../../core/retention/retention.js";
import { cliffCost } from "../../core/retention/cliff-cost.js";
import type { HeldItem } from "../../core/retention/held-by.js";
import type { Session } from "../readers/index.js";
import type { Simulation } from "../simulate/index.js";
import { tokensOf } from "../counts.js";
import { n } from "../table.js";

export interface ProfileAtCliffs {
  profile: Profile;
  held: number;
  /** Mean estimated tokens of the request right after the cliff. */
  meanAfter: number;
  heldBy: HeldItem[];
}

export interface SameCliffs {
  cliffs: number;
  /** Needed tokens over all the cliffs: one denominator for both profiles. */
  needed: number;
  runs: ProfileAtCliffs[];
}

const other = (p: Profile): Profile => (p === "recall" ? "reference" : "recall");

/** Both profiles at the cliffs of `main` (the replay under `cfg`). */
export function sameCliffs(session: Session, cfg: Config, main: Simulation): SameCliffs {
  const reader = new TokenReader(session.dialect);
  const second = resolveConfig({ profile: other(cfg.profile), thresholdTokens: cfg.thresholdTokens, keepRecent: cfg.keepRecent, minGainTokens: cfg.minGainTokens });
  const acc = new Map<Profile, { held: number; after: number; heldBy: HeldItem[] }>([[cfg.profile, { held: 0, after: 0, heldBy: [] }], [second.profile, { held: 0, after: 0, heldBy: [] }]]);
  let needed = 0;
  let cliffs = 0;
  for (const rec of main.records) {
    const future = session.messages.slice(main.steps[rec.step].index);
    const theirs = planCliff(rec.input, session.dialect, second, cfg.thresholdTokens);
    if (theirs.result === null) continue;
    cliffs++;
    for (const [profile, plan] of [[cfg.profile, rec.plan], [second.profile, theirs]] as const) {
      const cost = cliffCost(rec.input, future, plan.result!, plan.config, reader);
      const a = acc.get(profile)!;
      if (profile === cfg.profile) needed += cost.needed;
      a.held += cost.held;
      // Built from its pieces: the replay went on appending to its result's own list.
      const r = plan.result!;
      a.after += tokensOf([...rec.input.slice(0, r.headLen), r.summary, ...rec.input.slice(r.cut)], session.body, session.dialect);
      a.heldBy.push(...cost.heldBy);
    }
  }
  const runs = [...acc].map(([profile, a]) => ({ profile, held: a.held, meanAfter: cliffs === 0 ? 0 : Math.round(a.after / cliffs), heldBy: a.heldBy }));
  return { cliffs, needed, runs };
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);

/** Tokens each rule of `better` held that `worse` did not hold, largest first. */
export function rulesThatMadeTheDifference(better: ProfileAtCliffs, worse: ProfileAtCliffs): { rule: HeldItem["rule"]; tokens: number }[] {
  const theirs = new Set(worse.heldBy.flatMap((h) => h.tokens));
  const by = new Map<HeldItem["rule"], number>();
  for (const h of better.heldBy) {
    const only = h.tokens.filter((t) => !theirs.has(t)).length;
    if (only > 0) by.set(h.rule, (by.get(h.rule) ?? 0) + only);
  }
  return [...by].map(([rule, tokens]) => ({ rule, tokens })).sort((a, b) => b.tokens - a.tokens);
}

/** The sentence: which profile did better at the same cliffs, and why. */
export function sameCliffsSentence(s: SameCliffs, label: (rule: HeldItem["rule"]) => string): string {
  if (s.cliffs === 0) return "No cliff at this threshold: the two profiles differ only in what a cliff keeps, so on this session they are the same.";
  const [a, b] = s.runs;
  const head = `At the same ${n(s.cliffs)} cliff${s.cliffs === 1 ? "" : "s"}, the next turns needed ${n(s.needed)} distinctive tokens that only the history before a cliff held: ${a.profile} held ${n(a.held)} (${pct(a.held, s.needed)}), ${b.profile} ${n(b.held)} (${pct(b.held, s.needed)}).`;
  const [better, worse] = a.held >= b.held ? [a, b] : [b, a];
  const size = `${n(better.meanAfter)} tokens after a cliff against ${n(worse.meanAfter)}`;
  if (better.held === worse.held) {
    const smaller = a.meanAfter <= b.meanAfter ? a : b;
    return `${head} Both held the same, so ${smaller.profile} did better on this session: it keeps less (${n(smaller.meanAfter)} tokens after a cliff against ${n((smaller === a ? b : a).meanAfter)}).`;
  }
  const why = rulesThatMadeTheDifference(better, worse).slice(0, 3).map((r) => `${label(r.rule)} ${n(r.tokens)}`);
  return `${head} ${cap(better.profile)} did better on this session: ${n(better.held - worse.held)} more of what the next turns used stayed in the request${why.length > 0 ? `, held by ${why.join(", ")}` : ""}, for ${size}.`;
}

/**
 * The report's retention parts: for each cliff, what the next turns needed that it dropped; and
 * the session replayed under both profiles (each with its own defaults at the report's threshold,
 * keepRecent and minimum gain), side by side: tokens kept, the bill, and what the
 * next turns needed that each profile's cliffs dropped. The bill is the one "What it costs" shows:
 * the profile in force is that very replay, the other is replayed with the same cache lifetime,
 * timestamps, prices and idle cliff, so the two rows differ by the profile alone.
 */
import { fixedChars, getDialect, resolveConfig, type Config, type Profile } from "../../core/index.js";
import { cliffCosts, cliffRefetches, type CliffCostRow, type NeededDropped } from "../simulate/index.js";
import type { HeldItem } from "../../core/retention/cliff-cost.js";
import type { Session } from "../readers/index.js";
import { simulate, type SimChoice, type Simulation } from "../simulate/index.js";
import { esc } from "./escape.js";
import { sameCliffsSentence, type SameCliffs } from "./same-cliffs.js";
import { against, dollarFormat } from "../simulate/index.js";
import { n } from "../table.js";

export interface ProfileRun {
  profile: Profile;
  cliffs: number;
  /** Mean estimated tokens right after a cliff (0 without one), and the peak context. */
  meanAfter: number;
  peak: number;
  billed: number;
  /** The bill in dollars, or null when the model has no price. */
  dollars: number | null;
  needed: number;
  held: number;
  /** Distinct needed tokens the cliffs dropped, in order of the cliffs. */
  dropped: string[];
  /** Calls after its cliffs that repeat a call whose result the cliff dropped (core/refetch.ts), and their results' tokens. */
  refetches: number;
  refetchTokens: number;
}

const PROFILE_NAMES: Profile[] = ["reference", "recall"];

/** `main` is the report's own replay (under `cfg`); the other profile is replayed as it was. */
export function compareProfiles(session: Session, cfg: Config, discount: number, main: Simulation, choice: Pick<SimChoice, "cacheTtlMs" | "price" | "tier" | "idle">): ProfileRun[] {
  const fixed = fixedChars(session.body, getDialect(session.dialect).messagesKey);
  return PROFILE_NAMES.map((profile) => {
    const c = resolveConfig({ profile, thresholdTokens: cfg.thresholdTokens, keepRecent: cfg.keepRecent, minGainTokens: cfg.minGainTokens });
    const sim = profile === cfg.profile ? main : simulate(session.messages, session.dialect, c, {
      threshold: c.thresholdTokens, cacheDiscount: discount, fixedChars: fixed,
      times: session.times, cacheTtlMs: choice.cacheTtlMs, price: choice.price, tier: choice.tier, idle: choice.idle,
    });
    const costs = cliffCosts(session.messages, session.dialect, sim);
    const dropped = new Set<string>();
    for (const row of costs) for (const item of row.neededDropped) for (const t of item.tokens) dropped.add(t);
    const afters = sim.records.map((r) => r.after);
    const refetched = cliffRefetches(session.messages, session.dialect, sim);
    return {
      profile, cliffs: sim.cliffs, meanAfter: afters.length === 0 ? 0 : Math.round(afters.reduce((a, b) => a + b, 0) / afters.length), peak: sim.peak,
      billed: sim.cliff.billed, dollars: sim.priced ? sim.cliff.dollars : null, needed: costs.reduce((s, r) => s + r.needed, 0), held: costs.reduce((s, r) => s + r.held, 0), dropped: [...dropped],
      refetches: refetched.reduce((s, r) => s + r.count, 0), refetchTokens: refetched.reduce((s, r) => s + r.tokens, 0),
    };
  });
}

const pct = (a: number, b: number): string => (b === 0 ? "-" : `${((100 * a) / b).toFixed(1)}%`);
const MAX_TOKENS_SHOWN = 40;

function tokenList(tokens: readonly string[]): string {
  const shown = tokens.slice(0, MAX_TOKENS_SHOWN).map((t) => `<code>${esc(t)}</code>`).join(" ");
  return tokens.length > MAX_TOKENS_SHOWN ? `${shown} <span class="muted">and ${n(tokens.length - MAX_TOKENS_SHOWN)} more</span>` : shown;
}

const KIND_LABEL: Record<NeededDropped["kind"], string> = {
  result: "tool result", call: "tool call", text: "assistant text", thinking: "thinking", user: "user text", system: "system text", summary: "a previous summary", other: "message",
};

/** One cliff's "what the next turns needed that it dropped". */
export function neededHtml(cost: CliffCostRow | undefined): string {
  if (cost === undefined) return "";
  const items = cost.neededDropped.map((d) => `<li class="needed-item">${d.message === null ? "" : `message ${n(d.message)}, `}${KIND_LABEL[d.kind]} (${d.action}): ${tokenList(d.tokens)}</li>`);
  const head = `<h3>What the next 8 turns needed that this cliff dropped</h3><p class="needed-count">${n(cost.needed)} needed tokens, ${n(cost.held)} held (${pct(cost.held, cost.needed)}).</p>`;
  return `<div class="needed">${head}${items.length === 0 ? `<p class="muted">nothing: every needed token is still in the request</p>` : `<ul>${items.join("")}</ul>`}</div>`;
}

export const RULE_LABEL: Record<HeldItem["rule"], string> = {
  head: "the head", tail: "the kept tail", result: "a short result whole", call: "a call's signature line", text: "assistant text", thinking: "thinking",
  user: "user text", system: "system text", files: "the file lists", edit: "an edit's or write's new text", plan: "the newest plan",
  "working-set": "the working set (a file's newest copy)", pinned: "a pinned result", "error-tail": "a failed result's end", focus: "the focus's lines", "back-ref": "a dropped result's lines a later step named", "asked-twice": "a repeated call's newest result",
  outline: "a file's outline (its defining lines)", listing: "a dropped listing's paths",
  "stubbed-read": "a read kept for a re-read stub", ref: "a dropped text's ref", other: "elsewhere in the summary",
};

/** One cliff's "which rule kept what the next turns needed". */
export function heldHtml(cost: CliffCostRow | undefined): string {
  if (cost === undefined) return "";
  const items = cost.heldBy.map((h) => `<li class="held-item">${RULE_LABEL[h.rule]}${h.key === null ? "" : ` (${h.key})`}: ${tokenList(h.tokens)}</li>`);
  return `<div class="held-by"><h3>What kept the needed tokens it held</h3>${items.length === 0 ? `<p class="muted">nothing: the request holds none of them</p>` : `<ul>${items.join("")}</ul>`}</div>`;
}

/** The two profiles' bills, each replayed with its own cliffs, in one sentence. */
function billSentence(runs: readonly ProfileRun[], usd: (v: number) => string): string {
  const [a, b] = runs;
  const dollars = a.dollars !== null && b.dollars !== null;
  const [x, y] = dollars ? [a.dollars!, b.dollars!] : [a.billed, b.billed];
  const cost = (r: ProfileRun): string => (dollars ? usd(r.dollars!) : `${n(Math.round(r.billed))} billed input tokens`);
  const bigger = a.meanAfter > b.meanAfter ? a : b;
  const why = a.cliffs === 0 && b.cliffs === 0 ? "" : ` (${bigger.profile} keeps more after each cliff, ${n(bigger.meanAfter)} tokens against ${n((bigger === a ? b : a).meanAfter)}, and every later request carries it${a.cliffs !== b.cliffs ? `; its ${n(bigger.cliffs)} cliff(s) against ${n((bigger === a ? b : a).cliffs)}` : ""})`;
  return `Each replayed with its own cliffs, ${a.profile} costs ${cost(a)}, ${against(x, y)} than ${b.profile}'s ${cost(b)}${x === y ? "" : why}.`;
}

/** The two profiles: at the same cliffs on one denominator, which did better and why; then each one's own replay and bill. */
export function profilesHtml(runs: readonly ProfileRun[], same: SameCliffs): string {
  const priced = runs.some((r) => r.dollars !== null);
  const dollars = dollarFormat(runs.map((r) => r.dollars ?? 0));
  const usd = (r: ProfileRun): string => (priced ? `<td>${r.dollars === null ? "" : dollars(r.dollars)}</td>` : "");
  const sameRows = same.runs.map((r) => `<tr class="same-${r.profile}"><td>${r.profile}</td><td>${n(r.held)} / ${n(same.needed)} (${pct(r.held, same.needed)})</td><td>${n(r.meanAfter)}</td></tr>`);
  const rows = runs.map((r) => `<tr class="profile-${r.profile}"><td>${r.profile}</td>${usd(r)}<td>${n(Math.round(r.billed))}</td><td>${n(r.cliffs)}</td><td>${n(r.meanAfter)}</td><td>${n(r.peak)}</td><td>${n(r.refetches)} (${n(r.refetchTokens)} tokens)</td></tr>`);
  const lists = runs.map((r) => `<p><b>${r.profile}</b>'s own cliffs dropped ${n(r.dropped.length)} needed token(s)${r.dropped.length === 0 ? "." : `: ${tokenList(r.dropped)}`}</p>`);
  return `<p id="profile-verdict">${esc(sameCliffsSentence(same, (rule) => RULE_LABEL[rule]))}</p>
<table id="same-cliffs"><tr><th>profile</th><th>needed tokens held, at the same cliffs</th><th>tokens after a cliff (mean)</th></tr>${sameRows.join("")}</table>
<p id="profile-bills">${esc(billSentence(runs, dollars))}</p>
<table id="profiles"><tr><th>profile</th>${priced ? "<th>dollars</th>" : ""}<th>billed input tokens</th><th>cliffs</th><th>tokens after a cliff (mean)</th><th>peak</th><th>re-fetches</th></tr>${rows.join("")}</table>
<p class="muted">"Needed" counts, at every cliff, the distinctive tokens the next 8 model turns used that only the history before the cliff held; the first table compacts each cliff's request under both profiles, so both are judged on the same tokens. The second replays the session under each profile's own defaults at the same threshold, billed as in "What it costs" (the profile in force is that bill); "re-fetches" are the calls made while a cliff stood that repeat a call whose result it dropped (a lower bound on what the cliffs cost the agent).</p>
<div id="profile-dropped">${lists.join("")}</div>`;
}

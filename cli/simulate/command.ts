/** `cliffcompaction simulate`: the whole session replayed request by request, cliffs and the bill. */
import { writeFileSync } from "node:fs";
import { fixedChars, getDialect, type Config } from "../../core/index.js";
import { numberFlag, type Parsed } from "../args.js";
import { checkOutput } from "../input.js";
import { progressBar } from "./progress.js";
import type { Session } from "../readers/index.js";
import { simulate, toCsv, type Billing, type Simulation } from "./simulate.js";
import { cliffCosts, cliffRefetches } from "./cliff-costs.js";
import { renderSvg } from "../../node/sawtooth.js";
import { fixed2, n, table } from "../table.js";
import { nodeSha256 } from "../../node/sha256.js";
import { cliArchive } from "../archive.js";
import { gainLine, tightLine } from "./min-gain.js";
import { dollarFormat, verdictLine } from "./verdict.js";
import type { ArchiveWriter } from "../../node/archive.js";
import type { SimChoice } from "./choice.js";

type Values = Parsed["values"];

/** Checks run before any work: every output path can be written. */
export function checkSimulate(file: string, values: Values): void {
  for (const flag of ["svg", "csv"]) if (typeof values[flag] === "string") checkOutput(flag, values[flag] as string, [file, String(values.config ?? "")]);
}

/** The replay of a session as the CLI runs it (shared with `report`); `choice` adds the bill's prices, the cache's lifetime and the idle cliff. */
export function runSimulation(session: Session, cfg: Config, discount: number, writer: ArchiveWriter | undefined = cliArchive(cfg), choice?: Omit<SimChoice, "cfg" | "why" | "chosen" | "model">): Simulation {
  const bar = progressBar("simulating");
  const fixed = fixedChars(session.body, getDialect(session.dialect).messagesKey);
  const sim = simulate(session.messages, session.dialect, cfg, {
    threshold: cfg.thresholdTokens, cacheDiscount: discount, fixedChars: fixed, onProgress: bar.update, archive: writer?.archive, sha256: nodeSha256,
    ...(choice === undefined ? {} : { times: session.times, cacheTtlMs: choice.cacheTtlMs, price: choice.price, tier: choice.tier, idle: choice.idle }),
  });
  bar.done();
  return sim;
}

export const cacheDiscount = (values: Values): number => numberFlag(values, "cache-discount", 0.1, 0, 1, false);

const billingJson = (b: Billing, priced: boolean) => ({
  input: b.input, cached: b.cached, billed: fixed2(b.billed), extraCalls: b.extraCalls, extraOutput: b.extraOutput,
  written: b.written, expired: b.expired, tiered: b.tiered, dollars: priced ? Math.round(b.dollars * 10_000) / 10_000 : null,
});

/** Each cliff: where it fell, its sizes and rung, which rule kept each needed token it held, and what the next turns needed that it dropped. */
function cliffsJson(session: Session, sim: Simulation): unknown[] {
  const costs = cliffCosts(session.messages, session.dialect, sim);
  const refetches = cliffRefetches(session.messages, session.dialect, sim);
  return sim.records.map((rec, k) => ({ step: rec.step, index: costs[k].index, reason: rec.reason, before: rec.before, after: rec.after, rung: rec.plan.rung, needed: costs[k].needed, held: costs[k].held, heldBy: costs[k].heldBy, neededDropped: costs[k].neededDropped, refetches: refetches[k] }));
}

export function simulateCommand(file: string, session: Session, values: Values, choice: SimChoice, out: string[]): void {
  const cfg = choice.cfg;
  const discount = cacheDiscount(values);
  const writer = cliArchive(cfg);
  const sim = runSimulation(session, cfg, discount, writer, choice);
  const name = file.split("/").pop() ?? file;
  if (typeof values.svg === "string") writeFileSync(values.svg, renderSvg({ ...chartSeries(sim), threshold: cfg.thresholdTokens, title: `${name}: context per request, threshold ${n(cfg.thresholdTokens)}` }));
  if (typeof values.csv === "string") writeFileSync(values.csv, toCsv(sim));
  if (values.json === true) {
    out.push(JSON.stringify({
      file, format: session.format, dialect: session.dialect, model: choice.model, threshold: cfg.thresholdTokens, thresholdWhy: choice.why, requests: sim.steps.length, cliffs: cliffsJson(session, sim), idleCliffs: sim.idleCliffs, peak: sim.peak, floor: sim.floor, cacheDiscount: discount,
      cacheTtlSeconds: Math.round(choice.cacheTtlMs / 1000), timed: sim.timed, price: choice.price, tier: choice.tier,
      minGainTokens: sim.minGain, held: sim.held, tightFloor: sim.tightFloor, reachedThreshold: reached(sim, cfg.thresholdTokens),
      billing: { cliff: billingJson(sim.cliff, sim.priced), noCompaction: billingJson(sim.none, sim.priced), llmSummary: billingJson(sim.llm, sim.priced) },
      archive: writer === undefined ? null : { dir: writer.dir, ...writer.stats() },
    }, null, 2));
    return;
  }
  out.push(`session   ${file}  (${session.format}, dialect ${session.dialect}${choice.model !== null ? `, model ${choice.model}` : ""})${session.note ? ` — ${session.note}` : ""}`);
  out.push(`requests  ${n(sim.steps.length)} model calls replayed, threshold ${n(cfg.thresholdTokens)} tokens (${choice.why})`);
  out.push(`cliffs    ${sim.cliffs}${sim.idleCliffs > 0 ? ` (${sim.idleCliffs} after an idle gap)` : ""}   peak context ${n(sim.peak)}   floor after a cliff ${n(sim.floor)}`);
  out.push(...ruleLines(sim, cfg.thresholdTokens));
  out.push(cacheLine(sim, choice));
  out.push("", `input tokens (cached input billed at ${discount}×)${sim.priced ? "; dollars at the model's list prices" : ""}`);
  out.push(...billingTable(sim));
  const note = thresholdNote(sim, cfg.thresholdTokens, choice);
  if (note !== null) out.push("", note);
  else {
    const verdict = verdictLine(sim);
    if (verdict !== null) out.push("", verdict);
  }
  if (writer !== undefined) out.push(`archive   ${n(writer.stats().written)} text(s) written to ${writer.dir}, ${n(writer.stats().refreshed)} archived again${writer.stats().failures > 0 ? `, ${n(writer.stats().failures)} could not be written` : ""}`);
  if (typeof values.svg === "string") out.push(`chart     ${values.svg}`);
  if (typeof values.csv === "string") out.push(`csv       ${values.csv}`);
}

/** Whether the session's own context (no compaction) ever crossed the threshold. */
const reached = (sim: Simulation, threshold: number): boolean => sim.cliffs > 0 || sim.steps.some((s) => s.baselineContext > threshold);

/** Two significant figures: a threshold worth typing. */
const roundish = (v: number): number => {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, v))) - 1);
  return Math.max(1, Math.round(v / unit) * unit);
};

/**
 * When the session never crossed its threshold, the bills are equal for want of a cliff, not of a
 * saving: say so, with the threshold's source, and a threshold that would show cliffs.
 */
export function thresholdNote(sim: Simulation, threshold: number, choice: Pick<SimChoice, "why" | "chosen">): string | null {
  if (reached(sim, threshold) || sim.steps.length === 0) return null;
  const share = Math.floor((100 * sim.peak) / threshold);
  const which = choice.chosen ? `the default threshold, ${n(threshold)} (${choice.why})` : `its threshold, ${n(threshold)} (${choice.why})`;
  return `note      the session never reached ${which}: its context peaked at ${n(sim.peak)} tokens, ${share}% of it, so there was nothing to compact and the bills are the same. To see where it would cliff, try --threshold ${n(roundish(sim.peak / 2)).replace(/,/g, "")} (half its peak).`;
}

/** The cache's lifetime as the replay applied it, and the idle cliff. */
function cacheLine(sim: Simulation, choice: Pick<SimChoice, "cacheTtlMs" | "idle" | "price" | "tier">): string {
  const ttl = `${Math.round(choice.cacheTtlMs / 1000)}s`;
  const expiry = sim.timed ? `${n(sim.cliff.expired)} request(s) came after a gap longer than the cache lives (${ttl}) and wrote it again` : `no timestamps: the cache never expires in this replay`;
  const idle = choice.idle === undefined ? "idle cliff off" : `idle cliff after ${Math.round(choice.idle.afterMs / 1000)}s from ${Math.round(choice.idle.floor * 100)}% of the threshold: ${sim.idleCliffs}`;
  const tier = choice.tier !== null && sim.cliff.tiered + sim.none.tiered > 0 ? `; past the ${n(choice.tier.above)}-token tier: ${sim.cliff.tiered} request(s) with cliffs, ${sim.none.tiered} without` : "";
  return `cache     ${expiry}; ${idle}${tier}`;
}

/** The three billings as an aligned table (with dollars when the model is priced). */
export function billingTable(sim: Simulation): string[] {
  const dollars = dollarFormat([sim.cliff.dollars, sim.none.dollars, sim.llm.dollars]);
  const usd = (b: Billing): string[] => (sim.priced ? [dollars(b.dollars)] : []);
  const row = (name: string, b: Billing): string[] => [name, n(Math.round(b.input)), n(Math.round(b.cached)), n(Math.round(b.billed)), ...usd(b), b.extraCalls ? `+${b.extraCalls} summary call${b.extraCalls === 1 ? "" : "s"}, ${n(b.extraOutput)} output tokens` : ""];
  const head = ["", "sent", "cached", "billed", ...(sim.priced ? ["dollars"] : []), ""];
  return table([head, row("cliffcompaction", sim.cliff), row("no compaction", sim.none), row("LLM summary, same cliffs", sim.llm)]);
}

/** The chart's series from a simulation. */
export function chartSeries(sim: Simulation): { context: number[]; baseline: number[]; cliffs: number[] } {
  return { context: sim.steps.map((s) => s.context), baseline: sim.steps.map((s) => s.baselineContext), cliffs: sim.steps.flatMap((s, i) => (s.cliff ? [i] : [])) };
}

/** The minimum gain as the replay applied it, and the warning when what stays after a cliff is within it of the threshold. */
export function ruleLines(sim: Simulation, threshold: number): string[] {
  const lines = [`rule      ${gainLine(sim.minGain, threshold, sim.held)}`];
  if (sim.tightFloor !== null) lines.push(`warning   ${tightLine(sim.tightFloor, sim.minGain, threshold)}`);
  return lines;
}

/** `cliffcompaction simulate`: the whole session replayed request by request, cliffs and the bill. */
import { writeFileSync } from "node:fs";
import { fixedChars, getDialect, type Config } from "../../core/index.js";
import { numberFlag, UsageError, type Parsed } from "../args.js";
import { checkOutput } from "../input.js";
import { progressBar } from "./progress.js";
import type { Session } from "../readers/index.js";
import { simulate, toCsv, type Billing, type Simulation } from "./simulate.js";
import { cliffCosts } from "./cliff-costs.js";
import { renderSvg } from "../../node/sawtooth.js";
import { fixed2, n, table } from "../table.js";
import { cliArchive } from "../archive.js";
import { gainLine, tightLine } from "./min-gain.js";
import type { ArchiveWriter } from "../../node/archive.js";

type Values = Parsed["values"];

/** Checks run before any work: the threshold is given and every output path can be written. */
export function checkSimulate(file: string, values: Values): void {
  if (typeof values.threshold !== "string") throw new UsageError("simulate needs --threshold N (estimated tokens)");
  for (const flag of ["svg", "csv"]) if (typeof values[flag] === "string") checkOutput(flag, values[flag] as string, [file, String(values.config ?? "")]);
}

/** The replay of a session as the CLI runs it (shared with `report`). */
export function runSimulation(session: Session, cfg: Config, discount: number, writer: ArchiveWriter | undefined = cliArchive(cfg)): Simulation {
  const bar = progressBar("simulating");
  const fixed = fixedChars(session.body, getDialect(session.dialect).messagesKey);
  const sim = simulate(session.messages, session.dialect, cfg, { threshold: cfg.thresholdTokens, cacheDiscount: discount, fixedChars: fixed, onProgress: bar.update, archive: writer?.archive });
  bar.done();
  return sim;
}

export const cacheDiscount = (values: Values): number => numberFlag(values, "cache-discount", 0.1, 0, 1, false);

const billingJson = (b: Billing) => ({ input: b.input, cached: b.cached, billed: fixed2(b.billed), extraCalls: b.extraCalls, extraOutput: b.extraOutput });

/** Each cliff: where it fell, its sizes and rung, and what the next turns needed that it dropped. */
function cliffsJson(session: Session, sim: Simulation): unknown[] {
  const costs = cliffCosts(session.messages, session.dialect, sim);
  return sim.records.map((rec, k) => ({ step: rec.step, index: costs[k].index, before: rec.before, after: rec.after, rung: rec.plan.rung, needed: costs[k].needed, held: costs[k].held, neededDropped: costs[k].neededDropped }));
}

export function simulateCommand(file: string, session: Session, values: Values, cfg: Config, out: string[]): void {
  const discount = cacheDiscount(values);
  const writer = cliArchive(cfg);
  const sim = runSimulation(session, cfg, discount, writer);
  const name = file.split("/").pop() ?? file;
  if (typeof values.svg === "string") writeFileSync(values.svg, renderSvg({ ...chartSeries(sim), threshold: cfg.thresholdTokens, title: `${name}: context per request, threshold ${n(cfg.thresholdTokens)}` }));
  if (typeof values.csv === "string") writeFileSync(values.csv, toCsv(sim));
  if (values.json === true) {
    out.push(JSON.stringify({
      file, format: session.format, dialect: session.dialect, threshold: cfg.thresholdTokens, requests: sim.steps.length, cliffs: cliffsJson(session, sim), peak: sim.peak, floor: sim.floor, cacheDiscount: discount,
      minGainTokens: sim.minGain, held: sim.held, tightFloor: sim.tightFloor,
      billing: { cliff: billingJson(sim.cliff), noCompaction: billingJson(sim.none), llmSummary: billingJson(sim.llm) },
      archive: writer === undefined ? null : { dir: writer.dir, ...writer.stats() },
    }, null, 2));
    return;
  }
  out.push(`session   ${file}  (${session.format}, dialect ${session.dialect})${session.note ? ` — ${session.note}` : ""}`);
  out.push(`requests  ${n(sim.steps.length)} model calls replayed, threshold ${n(cfg.thresholdTokens)} tokens`);
  out.push(`cliffs    ${sim.cliffs}   peak context ${n(sim.peak)}   floor after a cliff ${n(sim.floor)}`);
  out.push(...ruleLines(sim, cfg.thresholdTokens));
  out.push("", `input tokens (cached input billed at ${discount}×)`);
  out.push(...billingTable(sim));
  if (sim.none.billed > 0) out.push("", `cliffcompaction bills ${(100 * (1 - sim.cliff.billed / sim.none.billed)).toFixed(1)}% less than no compaction and ${(100 * (1 - sim.cliff.billed / Math.max(1, sim.llm.billed))).toFixed(1)}% less than an LLM summary at the same threshold.`);
  if (writer !== undefined) out.push(`archive   ${n(writer.stats().written)} text(s) written to ${writer.dir}, ${n(writer.stats().refreshed)} archived again${writer.stats().failures > 0 ? `, ${n(writer.stats().failures)} could not be written` : ""}`);
  if (typeof values.svg === "string") out.push(`chart     ${values.svg}`);
  if (typeof values.csv === "string") out.push(`csv       ${values.csv}`);
}

/** The three billings as an aligned table. */
export function billingTable(sim: Simulation): string[] {
  const row = (name: string, b: Billing): string[] => [name, n(Math.round(b.input)), n(Math.round(b.cached)), n(Math.round(b.billed)), b.extraCalls ? `+${b.extraCalls} summary calls, ${n(b.extraOutput)} output tokens` : ""];
  return table([["", "sent", "cached", "billed", ""], row("cliffcompaction", sim.cliff), row("no compaction", sim.none), row("LLM summary, same cliffs", sim.llm)]);
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

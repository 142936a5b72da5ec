/** `cliffcompaction report`: the simulation, every cliff and the session's anatomy as one HTML file. */
import { writeFileSync } from "node:fs";
import { filesTouched, resolveConfig, type Config } from "../../core/index.js";
import { tokensOf } from "../counts.js";
import type { Parsed } from "../args.js";
import { checkOutput } from "../input.js";
import type { Session } from "../readers/index.js";
import { anatomy, cliffDetail } from "./data.js";
import { renderReport } from "./html.js";
import { cliffCosts } from "../simulate/index.js";
import { compareProfiles } from "./recall.js";
import { cacheDiscount, chartSeries, runSimulation } from "../simulate/index.js";
import { niceStep, renderSvg } from "../simulate/index.js";
import { n } from "../table.js";

type Values = Parsed["values"];

const outputOf = (values: Values): string => (typeof values.output === "string" ? values.output : "report.html");

export function checkReport(file: string, values: Values): void {
  cacheDiscount(values);
  checkOutput("output", outputOf(values), [file, String(values.config ?? "")]);
}

/** Without --threshold (or a config file's), a round threshold near a third of the whole session, so a few cliffs show. */
function reportConfig(session: Session, values: Values, cfg: Config): { cfg: Config; chosen: boolean } {
  if (typeof values.threshold === "string" || typeof values.config === "string") return { cfg, chosen: false };
  const third = tokensOf(session.messages, session.body, session.dialect) / 3;
  const step = niceStep(third, 1);
  return { cfg: resolveConfig({ thresholdTokens: Math.max(1000, Math.round(third / step) * step) }, cfg), chosen: true };
}

/** `hostDefaults` applies the host's defaults that follow the threshold, once it is chosen. */
export function reportCommand(file: string, session: Session, values: Values, given: Config, out: string[], hostDefaults: (cfg: Config) => Config = (c) => c): void {
  const chosenConfig = reportConfig(session, values, given);
  const cfg = hostDefaults(chosenConfig.cfg);
  const chosen = chosenConfig.chosen;
  const discount = cacheDiscount(values);
  const sim = runSimulation(session, cfg, discount);
  const cliffs = sim.records.map((rec) => cliffDetail(rec.step, rec.input, rec.plan.result!, rec.plan.rung, rec.before, rec.after, session.dialect, rec.plan.config));
  const name = file.split("/").pop() ?? file;
  const chartSvg = renderSvg({ ...chartSeries(sim), threshold: cfg.thresholdTokens, title: `${name}: context per request, threshold ${n(cfg.thresholdTokens)}` });
  const html = renderReport({
    file, format: session.format, dialect: session.dialect, note: session.note, messages: session.messages.length, threshold: cfg.thresholdTokens,
    sim, chartSvg, anatomy: anatomy(session.messages), cliffs, files: filesTouched(session.messages, session.dialect),
    costs: cliffCosts(session.messages, session.dialect, sim), profiles: compareProfiles(session, cfg, discount),
  });
  const target = outputOf(values);
  writeFileSync(target, html);
  out.push(`report    ${target} (${n(html.length)} characters): ${n(sim.steps.length)} requests, ${sim.cliffs} cliffs at threshold ${n(cfg.thresholdTokens)}${chosen ? " (about a third of the session; set --threshold N)" : ""}`);
}

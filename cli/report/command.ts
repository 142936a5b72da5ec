/** `cliffcompaction report`: the simulation, every cliff and the session's anatomy as one HTML file. */
import { writeFileSync } from "node:fs";
import { filesTouched } from "../../core/index.js";
import type { Parsed } from "../args.js";
import { checkOutput } from "../input.js";
import { withoutFolders, type Session } from "../readers/index.js";
import { anatomy, cliffDetail } from "./data.js";
import { renderReport } from "./html.js";
import { cliffCosts } from "../simulate/index.js";
import { compareProfiles } from "./recall.js";
import { sameCliffs } from "./same-cliffs.js";
import { cacheDiscount, chartSeries, runSimulation, type SimChoice } from "../simulate/index.js";
import { renderSvg } from "../simulate/index.js";
import { n } from "../table.js";

type Values = Parsed["values"];

const outputOf = (values: Values): string => (typeof values.output === "string" ? values.output : "report.html");

export function checkReport(file: string, values: Values): void {
  cacheDiscount(values);
  checkOutput("output", outputOf(values), [file, String(values.config ?? "")]);
}

/** The report replays the session with the proxy's choice for its model (`simulationChoice`): a given threshold, a glob's, or the default. */
export function reportCommand(file: string, session: Session, values: Values, choice: SimChoice, out: string[]): void {
  const cfg = choice.cfg;
  const discount = cacheDiscount(values);
  const sim = runSimulation(session, cfg, discount, undefined, choice);
  const cliffs = sim.records.map((rec) => cliffDetail(rec.step, rec.input, rec.plan.result!, rec.plan.rung, rec.before, rec.after, session.dialect, rec.plan.config))
    .map((c) => ({ ...c, files: withoutFolders(c.files, session) }));
  const name = file.split("/").pop() ?? file;
  const chartSvg = renderSvg({ ...chartSeries(sim), threshold: cfg.thresholdTokens, title: `${name}: context per request, threshold ${n(cfg.thresholdTokens)}` });
  const html = renderReport({
    file, format: session.format, dialect: session.dialect, note: session.note, messages: session.messages.length, threshold: cfg.thresholdTokens,
    sim, chartSvg, anatomy: anatomy(session.messages), cliffs, files: withoutFolders(filesTouched(session.messages, session.dialect), session),
    costs: cliffCosts(session.messages, session.dialect, sim), profiles: compareProfiles(session, cfg, discount, sim, choice), profile: cfg.profile,
    same: sameCliffs(session, cfg, sim), why: choice.why, chosen: choice.chosen,
  });
  const target = outputOf(values);
  writeFileSync(target, html);
  out.push(`report    ${target} (${n(html.length)} characters): ${n(sim.steps.length)} requests, ${n(sim.cliffs)} cliff${sim.cliffs === 1 ? "" : "s"} at threshold ${n(cfg.thresholdTokens)} (${choice.why}${choice.chosen ? "; set --threshold N" : ""})`);
}

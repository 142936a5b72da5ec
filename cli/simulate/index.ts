/** `simulate`: a session replayed under a config, cliff by cliff, with what each cliff cost, as a table, CSV or SVG. */
export { type CliffCostRow, cliffCosts, cliffRefetches, type CliffRefetches, type NeededDropped } from "./cliff-costs.js";
export { cacheDiscount, chartSeries, checkSimulate, runSimulation, simulateCommand } from "./command.js";
export { gainLine, tightLine } from "./min-gain.js";
export { simulate, type Simulation } from "./simulate.js";
export { niceStep, renderSvg, shortNumber } from "../../node/sawtooth.js";
export { simulationChoice, type SimChoice } from "./choice.js";
export { against, dollarFormat, verdictLine } from "./verdict.js";
export { thresholdNote } from "./command.js";

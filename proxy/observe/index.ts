/** What the proxy observes of each exchange: sessions, usage and prices, the ledger, events, metrics, stats, the request log, last cliffs. */
export { DebugDump } from "./debug-dump.js";
export type { LastCliff } from "./last-cliff.js";
export { gainLine, headerLines, logLine } from "./log.js";
// Made by a decision (decision/record.ts); named here too for those who read what is observed.
export type { Action, RequestRecord } from "../decision/index.js";
export { refetchRecord } from "./after-cliff/index.js";
export { METRICS_CONTENT_TYPE, metricsText } from "./metrics.js";
export { Observer } from "./observer.js";
export { checkPrices, Prices, type PriceTable } from "./prices.js";
export { Stats } from "./stats.js";

/** `proxy`: the standing proxy started from the command line, its settings from flags, file and environment. */
export { proxyCommand } from "./command.js";
export { durationMs, idleSettings, modelThresholdSettings, priceSettings } from "./settings.js";

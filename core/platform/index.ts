/**
 * The core's entry for hosts that hand a platform one summary text (the AgentParley plugin): two
 * calls, `platformMessages` to read what the platform handed and `handOff` to plan the cliff, and
 * the constants such a host renders with. It names the plain dialect alone, so a bundle built from
 * it carries no other dialect (`core/index.ts` is the whole core's entry).
 */
export { handOff, type Handoff, type HandoffFit, type HandoffInput } from "./handoff.js";
export { platformMessages, type PlatformMessage, type PlatformMessages } from "./messages.js";
export { BUILD_CONFIG } from "./config.js";
export type { Config } from "../config/index.js";
export { SUMMARY_HEADER } from "../summary.js";
export { LONE_SURROGATE } from "../text.js";
export type { FileLists, TouchedFile } from "../files.js";
export type { CompactResult } from "../compact.js";
export type { Rung } from "../ladder.js";

/**
 * The core's entry for hosts that hand a platform one summary text (the AgentParley plugin): one
 * call, `handOff`, and what such a host needs beside it. It names the plain dialect alone, so a
 * bundle built from it carries no other dialect (`core/index.ts` is the whole core's entry).
 */
export { handOff, type Handoff, type HandoffFit, type HandoffInput } from "./handoff.js";
export { resolveConfig, type Config } from "../config/index.js";
export { SUMMARY_HEADER } from "../summary.js";
export { canonicalJson } from "../estimate/json.js";
export { plainClass } from "../dialects/plain.js";
export { toWellFormed, LONE_SURROGATE } from "../text.js";
export { toFileLists, type FileLists, type TouchedFile } from "../files.js";
export type { CompactResult } from "../compact.js";
export type { Rung } from "../ladder.js";

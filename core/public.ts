/**
 * The package's main entry (`cliffcompaction`): the library as docs/library.md documents it, and
 * nothing else. Hosts inside this repository import core/index.ts, which also carries the pieces
 * they share; a consumer of the package sees only these.
 */
export { compact, type CompactOptions, type CompactResult } from "./compact.js";
export { planCliff, type CliffPlan, type PlanOptions } from "./ladder.js";
export { DEFAULT_CONFIG, PROFILES, resolveConfig, ConfigError, type Config, type Profile } from "./config/index.js";
export { detectDialect, DIALECT_NAMES, type DialectName } from "./dialects/index.js";
export { estimateTokens } from "./estimate/estimate.js";
export { pythonJsonLength } from "./estimate/json.js";
export { filesTouched, type FileLists } from "./files.js";
export { CliffInputError } from "./errors.js";
export { Engine, type PrepareContext, type PrepareOptions, type EngineOptions, type EngineStats } from "./engine/engine.js";
export { boundCalibration, observedCalibration } from "./engine/calibration.js";

/**
 * cliffcompaction core: the CliffCompaction algorithm with no dependencies and no Node APIs,
 * so the same code runs in Node, in a bare V8 context and in QuickJS.
 */
export { compact, compactWith, headLength, turnStarts, type CompactOptions, type CompactResult } from "./compact";
export {
  planCliff,
  compactToBudget,
  climb,
  maxRung,
  rungConfig,
  RUNG2_THOUGHT_CAP,
  type CliffPlan,
  type PlanOptions,
  type LadderOptions,
  type LadderResult,
  type Rung,
} from "./ladder";
export { DEFAULT_CONFIG, resolveConfig, toConfig, parseSetting, ConfigError, CONFIG_KEYS, CONFIG_KINDS, type Config, type ConfigKind } from "./config";
export { getDialect, detectDialect, DIALECT_NAMES, type Dialect, type DialectName } from "./dialects/index";
export { plainClass, type PlainClass } from "./dialects/plain";
export {
  SUMMARY_HEADER,
  HEADER_GLUE,
  PART_SEPARATOR,
  renderSummary,
  joinParts,
  joinedLength,
  summaryParts,
  fitSummary,
} from "./summary";
export { estimateTokens, billableChars, tokensOfChars, bodyChars, fixedChars } from "./estimate";
export { imageTokens, imageSize, imagePayload, tokensForSize, decodeBase64Prefix, MAX_IMAGE_TOKENS } from "./images";
export { canonicalJson, pythonJson, pythonJsonLength, serializeJson, measureJson, CANONICAL, PYTHON_DEFAULT, COMPACT } from "./json";
export { parseFocus, focusExcerpt, FOCUS_EXCERPT_TAG, type Focus } from "./focus";
export { truncate, strip, toWellFormed, isWellFormed, stripTaskNotifications } from "./text";
export { CliffInputError } from "./errors";
export { Engine, type PrepareContext, type EngineOptions, type EngineStats } from "./engine/engine";
export { PrefixStore, type StoreEntry } from "./engine/store";
export { messageDigest, chainHashes, canonicalForm, canonicalText } from "./engine/digest";
export { sha256Hex, utf8Length } from "./sha256";
export { liveFromEntries, type LiveMessage } from "./pi/session";
export { PI_SUMMARY_PREFIX, PI_BRANCH_PREFIX, piBranchSummaryText, startsLikeSummary } from "./pi/format";
export { filesTouched, fileOpsOfCall, formatFileLists, parseFileLists, addCarriedFiles, toFileLists, FileTracker, type FileLists, type TouchedFile } from "./files";
export { isObj, obj, arr, str } from "./guards";
export { partKind, RESULT_TAG, ASSISTANT_TAG, THINKING_TAG, type PartKind } from "./parts";

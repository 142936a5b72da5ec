/**
 * cliffcompaction core: the CliffCompaction algorithm with no dependencies and no Node APIs,
 * so the same code runs in Node, in a bare V8 context and in QuickJS.
 */
export { compact, compactWith, headLength, turnStarts, type CompactOptions, type CompactResult } from "./compact.js";
export { handOff, type Handoff, type HandoffFit, type HandoffInput } from "./platform/handoff.js";
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
} from "./ladder.js";
export {
  DEFAULT_CONFIG,
  PROFILES,
  resolveConfig,
  toConfig,
  parseSetting,
  ConfigError,
  CONFIG_KEYS,
  CONFIG_KINDS,
  CONFIG_ENUMS,
  type Config,
  type ConfigKind,
  type Profile,
  type SettingValue,
} from "./config/index.js";
export { resolveLayers, setBy, envName, envValues, type ConfigLayer } from "./config/layers.js";
export { getDialect, detectDialect, sendableList, DIALECT_NAMES, type Dialect, type DialectName } from "./dialects/index.js";
export { plainClass, type PlainClass } from "./dialects/plain.js";
export { compactionRequestOf, type CompactionRequest, type CompactionRequestBy } from "./dialects/compaction-request.js";
export {
  SUMMARY_HEADER,
  HEADER_GLUE,
  PART_SEPARATOR,
  renderSummary,
  joinParts,
  joinedLength,
  summaryParts,
  fitSummary,
} from "./summary.js";
export { estimateTokens, billableChars, tokensOfChars, bodyChars, fixedChars } from "./estimate/estimate.js";
export { imageTokens, imageSize, imagePayload, tokensForSize, decodeBase64Prefix, MAX_IMAGE_TOKENS } from "./estimate/images.js";
export { canonicalJson, pythonJson, pythonJsonLength, serializeJson, measureJson, CANONICAL, PYTHON_DEFAULT, COMPACT } from "./estimate/json.js";
export { parseFocus, focusExcerpt, FOCUS_EXCERPT_TAG, type Focus } from "./focus.js";
export { truncate, strip, toWellFormed, isWellFormed, stripTaskNotifications } from "./text.js";
export { CliffInputError } from "./errors.js";
export { Engine, type PrepareContext, type PrepareOptions, type CliffFloor, type EngineOptions, type EngineStats, type RefetchesSeen } from "./engine/engine.js";
export { refetchesIn, refetchTotals, type CliffSeen, type Refetch } from "./refetch.js";
export { countCallKeys, type PriorCalls } from "./repeats/asked-twice.js";
export { boundCalibration, observedCalibration, CALIBRATION_MIN, CALIBRATION_MAX } from "./engine/calibration.js";
export { PrefixStore, type StoreEntry } from "./engine/store.js";
export { messageDigest, chainHashes, canonicalForm, canonicalText } from "./engine/digest.js";
export { sha256Hex, utf8Length } from "./sha256.js";
export { liveFromEntries, type LiveMessage } from "./pi/session.js";
export { PI_SUMMARY_PREFIX, PI_BRANCH_PREFIX, piBranchSummaryText, startsLikeSummary } from "./pi/format.js";
export { filesTouched, fileOpsOfCall, formatFileLists, parseFileLists, addCarriedFiles, toFileLists, FileTracker, type FileLists, type TouchedFile } from "./files.js";
export { isObj, obj, arr, str } from "./guards.js";
export { partKind, summaryMessageText, RESULT_TAG, ASSISTANT_TAG, THINKING_TAG, type PartKind } from "./parts/index.js";
export { droppedLine, writesRefs, archiveName, memoryArchive, withPointer, refLine, groupDigits, REF_LINE, ARCHIVED_RESULT_OPENING, ARCHIVED_CALL_OPENING, type ArchiveFn, type ArchivedKind, type DroppedTexts, type MemoryArchive } from "./archive.js";
export {
  refOf, REF_LENGTH, REF_PATTERN, RECALL_TOOL_NAME, RECALL_TOOL_DESCRIPTION, RECALL_INPUT_SCHEMA, RecallTexts, answerRecall, recallInput, RECALL_PAGE_CHARS,
  searchTexts, recallLine, recalledRefs, unansweredLine, type RecallText, type RecallAnswer, type RecallInput,
} from "./recall/index.js";

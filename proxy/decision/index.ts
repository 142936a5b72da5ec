/** The compaction decision for one request: the window and threshold, the numbers read from the body, the reactive retry, the export. */
export { proxyArchive } from "./archive.js";
export { bodyText } from "./body.js";
export { compactionRequest, codexRequestKind } from "./compaction-request.js";
export { compactionAnswerText, historyOf, isOpenAIHost, openOwnCompactions, ownCompactionItem, OWN_COMPACTION } from "./compaction-answer.js";
export { decide, type Decision, outgoingBytes, outgoingHeaders } from "./decide.js";
export { editedMember, valueText, withValue } from "./numbers.js";
export type { Action, RecallRecord, RefetchRecord, RefusedRecord, RequestRecord } from "./record.js";
export { mergedBeta, thinkingPlan, THINKING_BINDING_BETA, type ThinkingPlan } from "./preserved-thinking.js";
export { ERROR_BODY_LIMIT, isContextError } from "./reactive.js";
export { errorType, fallsBack, ourRefusal, type OurRefusal } from "./fallback.js";
export { overTierText, reasonText, ruleText, windowOf, thresholdFor, DEFAULT_WINDOW, ONE_MILLION, type ThresholdChoice, type ThresholdPolicy, type WindowChoice } from "./window.js";
export { THREADS_BETA, THREAD_UNSUPPORTED, threadDeclinedBody, threadRecord, threadRequest, threadsLine, type ThreadRequest } from "./threads.js";

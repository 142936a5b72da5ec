/**
 * The content-class rules, in one place: every dialect extracts text and calls these to turn it
 * into summary parts. Each part is a fixed tag plus a verbatim (possibly truncated) excerpt.
 */
export { RESULT_TAG, ASSISTANT_TAG, THINKING_TAG, partKind, type PartKind } from "./tags.js";
export { DecodedJson, NOT_SEEN, type LineRule, type PartContext, type ResultMeta } from "./context.js";
export { contentText, summaryMessageText, isSummaryText, one } from "./content.js";
export { humanPart, resultPart, resultParts } from "./result.js";
export { signatureLine } from "./signature.js";
export { AssistantPart } from "./assistant.js";
export { READ_STUB_OPENINGS, STATE_CURRENT_TRAILER, stubbedReadParts, stubRulesOn, type SummarySpan } from "./stubbed-reads.js";

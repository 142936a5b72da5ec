/** The recall face: what names a dropped text (ref.ts), the tool, the texts a history holds, and how a recall is answered. */
export { refOf, REF_LENGTH, REF_PATTERN } from "./ref.js";
export { RECALL_TOOL_NAME, RECALL_TOOL_DESCRIPTION, RECALL_INPUT_SCHEMA } from "./tool.js";
export { RecallTexts, type RecallText } from "./texts.js";
export { answerRecall, recallInput, RECALL_PAGE_CHARS, type RecallAnswer, type RecallInput } from "./answer.js";
export { searchTexts, SEARCH_MAX_LINES, SEARCH_LINE_MAX_CHARS } from "./search.js";
export { recallLine, recalledRefs, unansweredLine } from "./line.js";
export { clientFileOf, clientFileLine, clientFileNote, type ClientFile } from "./client-file.js";

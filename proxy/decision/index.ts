/** The compaction decision for one request: the window and threshold, the numbers read from the body, the reactive retry, the archive. */
export { archiveOffNote, proxyArchive } from "./archive.js";
export { decide, type Decision, outgoingBytes } from "./decide.js";
export { ERROR_BODY_LIMIT, isContextError } from "./reactive.js";
export type { ThresholdChoice, ThresholdPolicy } from "./window.js";

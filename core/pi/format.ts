/**
 * Pi's own texts around summaries: what Pi wraps a stored compaction or a branch summary in when
 * it hands them back to the model. Recognising them is how a Pi history's old summaries are found.
 */
import { SUMMARY_HEADER } from "../summary.js";

/** Pi's own wrapper around a stored compaction summary, recognised as a previous summary too. */
export const PI_SUMMARY_PREFIX = "The conversation history before this point was compacted into the following summary:";

/** Pi's wrapper text for a branch summary that comes back into the conversation. */
export const PI_BRANCH_PREFIX = "The following is a summary of a branch that this conversation came back from:";

/** The user text Pi gives the model for a branch summary. */
export function piBranchSummaryText(summary: string): string {
  return `${PI_BRANCH_PREFIX}\n\n<summary>\n${summary}\n</summary>`;
}

/** True when the text starts with our header or Pi's compaction prefix. */
export function startsLikeSummary(text: string): boolean {
  return text.startsWith(SUMMARY_HEADER) || text.startsWith(PI_SUMMARY_PREFIX);
}

/** What a cliff cost after it was made: the calls that fetched again what it dropped, and the model's recalls of its refs, by cliff. */
export { REFETCH_CALLS, REFETCH_CLIFFS, REFETCH_MESSAGES, refetchRecord, SessionRefetches } from "./refetches.js";
export { cliffRecall, noRecalls, RECALL_CLIFFS, recallEvent, SessionRecalls, type CliffRecall, type RecallCounts } from "./recalls.js";

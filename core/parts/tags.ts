/** The tags that open summary parts, and the content class a part belongs to, read from its tag. */
import { FOCUS_EXCERPT_TAG } from "../focus.js";

/** The tags that open summary parts (human parts are tagged with their role). */
export const RESULT_TAG = "result: ";
export const ASSISTANT_TAG = "assistant: ";
export const THINKING_TAG = "thinking: ";

/** The content class a summary part belongs to, read from its tag. */
export type PartKind = "result" | "focus-excerpt" | "assistant" | "user" | "system" | "other";

/** The class of a part this module made (an assistant step opens with its text, thinking or a `[name]` call). */
export function partKind(part: string): PartKind {
  if (part.startsWith(RESULT_TAG)) return "result";
  if (part.startsWith(FOCUS_EXCERPT_TAG)) return "focus-excerpt";
  if (part.startsWith(ASSISTANT_TAG) || part.startsWith(THINKING_TAG) || part.startsWith("[")) return "assistant";
  if (part.startsWith("user: ")) return "user";
  if (part.startsWith("system: ")) return "system";
  return "other";
}

/** Each API's side of the loop, by dialect (null: an API the loop does not serve). */
import type { DialectName } from "../../core/index.js";
import { anthropicRecall } from "./anthropic.js";
import { responsesRecall } from "./responses.js";
import { chatRecall } from "./chat.js";
import { geminiRecall } from "./gemini.js";
import type { RecallApi } from "./types.js";

/** The loop's side of `api` for a request `body` (null: an API the loop does not serve). */
export function recallApiOf(api: DialectName, body: Record<string, unknown>): RecallApi | null {
  if (api === "anthropic") return anthropicRecall;
  if (api === "openai-responses") return responsesRecall(body.store !== false);
  if (api === "openai-chat") return chatRecall;
  if (api === "gemini") return geminiRecall;
  return null;
}

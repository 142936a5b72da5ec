/** Each API's side of the loop, by dialect (null: an API the loop does not serve). */
import type { DialectName } from "../../core/index.js";
import { anthropicRecall } from "./anthropic.js";
import { responsesRecall } from "./responses.js";
import { chatRecall } from "./chat.js";
import { geminiRecall } from "./gemini.js";
import { geminiFormOf } from "./gemini-forms.js";
import type { RecallApi } from "./types.js";

/** Where a request went: the body's member that holds the request (Code Assist's `request`), and the request's URL. */
export interface RecallRoute {
  readonly envelope?: string;
  readonly url: URL;
}

/** The loop's side of `api` for a request `body` (the request in the dialect) on `route` (null: one the loop does not serve). */
export function recallApiOf(api: DialectName, body: Record<string, unknown>, route?: RecallRoute): RecallApi | null {
  if (api === "gemini") return geminiRecall(route === undefined ? undefined : geminiFormOf(route.envelope, route.url));
  // Only Gemini's requests come in an envelope.
  if (route?.envelope !== undefined) return null;
  if (api === "anthropic") return anthropicRecall;
  if (api === "openai-responses") return responsesRecall(body.store !== false);
  if (api === "openai-chat") return chatRecall;
  return null;
}

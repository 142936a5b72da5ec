/** Each API's side of the loop, by dialect (null: an API the loop does not serve). */
import type { DialectName } from "../../core/index.js";
import { anthropicRecall } from "./anthropic.js";
import type { RecallApi } from "./types.js";

const APIS: Partial<Record<DialectName, RecallApi>> = { anthropic: anthropicRecall };

export function recallApiOf(api: DialectName): RecallApi | null {
  return APIS[api] ?? null;
}

/**
 * A compaction request as the proxy sees it: what its body shows (core's `compactionRequestOf`),
 * or what only its headers say: Codex marks its compaction turn with `request_kind: "compaction"`
 * in the JSON of `x-codex-turn-metadata`, whatever prompt it was configured with. (Codex's
 * `POST /responses/compact` is told by its path, in routes.ts.) Such a request is never cliffed:
 * the engine leaves it as it came once `PrepareOptions.compactionRequest` says so.
 */
import type { IncomingHttpHeaders } from "node:http";
import { arr, compactionRequestOf, obj, type CompactionRequest, type DialectName } from "../../core/index.js";

const TURN_METADATA = "x-codex-turn-metadata";

/** The `request_kind` Codex put in its turn metadata ("" when none, or not JSON). */
export function codexRequestKind(headers: IncomingHttpHeaders): string {
  const raw = headers[TURN_METADATA];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || value.length === 0 || value.length > 64 * 1024) return "";
  try {
    const kind = obj(JSON.parse(value)).request_kind;
    return typeof kind === "string" ? kind : "";
  } catch {
    return "";
  }
}

/** The compaction `parsed` asks for, by its body or its headers; null when it asks for none. */
export function compactionRequest(api: DialectName, parsed: Record<string, unknown>, headers: IncomingHttpHeaders): CompactionRequest | null {
  const byBody = compactionRequestOf(parsed, api);
  if (byBody !== null) return byBody;
  if (api !== "openai-responses" || codexRequestKind(headers) !== "compaction") return null;
  // Its prompt is the last input item, a user message (a configured compact_prompt reads otherwise).
  const input = arr(parsed.input);
  const last = obj(input[input.length - 1]);
  const instruction = last.role === "user" ? { message: input.length - 1, block: null } : null;
  return { by: "codex", asks: "client", instruction };
}

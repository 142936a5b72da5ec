/**
 * The token estimate: characters of the Python-default serialisation of the whole body, with each
 * image payload replaced by its token price × 4, divided by 4.
 */
import { measureJson, PYTHON_DEFAULT } from "./json.js";
import { imagePayload, imageTokens } from "./images.js";

function imageAdjustment(node: Record<string, unknown>): number | undefined {
  const payload = imagePayload(node);
  if (payload === undefined) return undefined;
  // The payload characters (not the quotes around them) are swapped for the image's billed size.
  return imageTokens(payload) * 4 - payload.length;
}

// The AgentParley sandbox build hands the core flat text messages only (their content is always a
// string), so it leaves image pricing out of its bundle.
declare const __CLIFF_SANDBOX__: boolean | undefined;
const adjustment = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? undefined : imageAdjustment;

/** Billable characters of any JSON value (a body, a message list or one message); never negative. */
export function billableChars(value: unknown): number {
  return Math.max(0, measureJson(value, PYTHON_DEFAULT, adjustment));
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Characters `node`'s `cache_control` entry adds to it (0 when it has none). */
function markChars(node: unknown): number {
  if (!isRecord(node) || !("cache_control" in node)) return 0;
  const { cache_control: _mark, ...rest } = node;
  return billableChars(node) - billableChars(rest);
}

/**
 * Billable characters of one history message as the engine counts it: without its cache
 * breakpoints (`cache_control` on the message, its blocks, or a tool result's blocks). A client
 * moves its breakpoint to the newest message on every request, so a message costs the same in
 * every request that resends it, and a cliff decided from a history is decided the same from any
 * later request holding that history.
 */
export function messageChars(message: unknown): number {
  let marks = markChars(message);
  const content = isRecord(message) ? message.content : undefined;
  if (Array.isArray(content)) {
    for (const block of content) {
      marks += markChars(block);
      if (isRecord(block) && Array.isArray(block.content)) for (const inner of block.content) marks += markChars(inner);
    }
  }
  return billableChars(message) - marks;
}

/** `floor(billableChars(body) / 4)`. */
export function estimateTokens(body: unknown): number {
  return Math.floor(billableChars(body) / 4);
}

/** The estimate's one rule for turning billable characters into tokens. */
export function tokensOfChars(chars: number): number {
  return Math.floor(chars / 4);
}

/**
 * Billable characters of a body whose list holds messages of the given costs: `fixed` (the body
 * with an empty list, brackets included) plus each of the first `upTo` messages and its `, ` separator.
 */
export function bodyChars(fixed: number, costs: readonly number[], upTo = costs.length): number {
  let chars = fixed;
  for (let i = 0; i < upTo; i++) chars += costs[i] + (i > 0 ? 2 : 0);
  return chars;
}

/** Billable characters of a request body with its message list (under `messagesKey`) emptied. */
export function fixedChars(body: Record<string, unknown> | undefined, messagesKey: string): number {
  return billableChars(body === undefined ? [] : { ...body, [messagesKey]: [] });
}

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

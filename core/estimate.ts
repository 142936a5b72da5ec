/**
 * The token estimate: characters of the Python-default serialisation of the whole body, with each
 * image payload replaced by its token price × 4, divided by 4.
 */
import { measureJson, PYTHON_DEFAULT } from "./json";
import { imagePayload, imageTokens } from "./images";

function imageAdjustment(node: Record<string, unknown>): number | undefined {
  const payload = imagePayload(node);
  if (payload === undefined) return undefined;
  // The payload characters (not the quotes around them) are swapped for the image's billed size.
  return imageTokens(payload) * 4 - payload.length;
}

/** Billable characters of any JSON value (a body, a message list or one message); never negative. */
export function billableChars(value: unknown): number {
  return Math.max(0, measureJson(value, PYTHON_DEFAULT, imageAdjustment));
}

/** `floor(billableChars(body) / 4)`. */
export function estimateTokens(body: unknown): number {
  return Math.floor(billableChars(body) / 4);
}

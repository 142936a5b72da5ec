/**
 * Building blocks of the digest (canonical) forms each dialect defines. A form holds only
 * arrays, strings, numbers, booleans and null, so the built-in serialiser gives its canonical text.
 */
import { canonicalJson } from "../estimate/json.js";
import { contentText } from "../parts/index.js";

/** A text hash (hex): forms name large payloads (images, documents) by their hash instead of holding them. */
export type Hash = (text: string) => string;

/** The canonical form of one message: what it says, without fields that change between requests. */
export type Form = unknown;

/** A primitive as it is; anything else as its canonical JSON, so a form never holds an object. */
export function prim(v: unknown): unknown {
  if (v === undefined) return null;
  return v === null || typeof v !== "object" ? v : canonicalJson(v);
}

/** A copy without `keys`; a null prototype keeps a "__proto__" key as data instead of setting the prototype. */
export function withoutKeys(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const k of Object.keys(o)) if (keys.indexOf(k) < 0) out[k] = o[k];
  return out;
}

/** A content value's text: the string itself, or its text blocks joined. */
export function textBlocksText(content: unknown): string {
  return typeof content === "string" ? content : contentText(content);
}

/** `[["text", s]]` for string content, else each block through `block`. */
export function blocksForm(content: unknown, block: (b: unknown) => Form): Form[] {
  return typeof content === "string" ? [["text", content]] : Array.isArray(content) ? content.map(block) : [];
}

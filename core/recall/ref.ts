/**
 * A dropped text's name. A summary names each tool result it drops and each call it cuts by a ref
 * instead of a path: a function of the text alone, so two replicas (or a cold one) that hold the
 * same request write the same summary, and the one that answers a recall finds the text again in
 * the request it is serving, with no store.
 */

import { sha256Hex } from "../sha256.js";

/** How many hex digits of the SHA-256 a ref keeps: 48 bits, ample within one session's history. */
export const REF_LENGTH = 12;

/** A ref as written: twelve lowercase hex digits. */
export const REF_PATTERN = /^[0-9a-f]{12}$/;

/**
 * The ref of `text`: the first twelve lowercase hex digits of the SHA-256 of its UTF-8. A host may
 * give its own SHA-256 (node:crypto's, much faster on a long text); the ref is the same.
 */
export function refOf(text: string, sha256: (text: string) => string = sha256Hex): string {
  return sha256(text).slice(0, REF_LENGTH);
}

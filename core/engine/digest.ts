/**
 * Per-message digests and the hash chain (spec §10). A digest covers what a message says, not
 * fields that change between requests (ids, status, cache_control, signatures), so a resent
 * history hashes the same and `chain[i]` identifies the prefix `messages[0..i]`. Each dialect
 * defines its own canonical form (`Dialect.digestForm`).
 */
import { getDialect, type Dialect, type DialectName } from "../dialects/index.js";
import { sha256Hex } from "../sha256.js";

/** The canonical form a message's digest is computed from. */
export function canonicalForm(message: unknown, dialect: DialectName | Dialect, hash: (text: string) => string = sha256Hex): unknown {
  return getDialect(dialect).digestForm(message, hash);
}

/** The canonical text a message's digest hashes. */
export function canonicalText(message: unknown, dialect: DialectName | Dialect, hash: (text: string) => string = sha256Hex): string {
  // Forms hold only arrays, strings, numbers, booleans and null (nested objects are already
  // canonical strings), so the built-in serialiser gives the canonical text.
  return JSON.stringify(canonicalForm(message, dialect, hash));
}

/** `sha256_hex(canonical_json(canonical_form(message)))`. */
export function messageDigest(message: unknown, dialect: DialectName | Dialect): string {
  return sha256Hex(canonicalText(message, dialect));
}

/** `chain[0] = sha256(d0)`, `chain[i] = sha256(chain[i-1] + d_i)`: chain[i] names the prefix messages[0..i]. */
export function chainHashes(digests: readonly string[]): string[] {
  const out: string[] = [];
  let prev = "";
  for (const d of digests) {
    prev = sha256Hex(prev + d);
    out.push(prev);
  }
  return out;
}

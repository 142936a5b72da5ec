/**
 * Value guards: read untrusted JSON without ever throwing. Every room that reads messages or
 * session files uses these instead of its own checks.
 */

// Built-ins read once: each global lookup is slow inside a vm context (a sandbox), and these run per value.
export const isArray = Array.isArray;
export const objectKeys = Object.keys;
export const getPrototypeOf = Object.getPrototypeOf;
export const OBJECT_PROTOTYPE = Object.prototype;
export const jsonStringify = JSON.stringify;
export const jsonParse = JSON.parse;

/** A plain object (not null, not an array). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !isArray(v);
}

/** A plain-object view of an unknown value ({} for anything else), so field reads never throw. */
export function obj(v: unknown): Record<string, unknown> {
  return isObj(v) ? v : {};
}

/** The value as an array, [] for anything else. */
export function arr(v: unknown): unknown[] {
  return isArray(v) ? v : [];
}

/** The value when it is a string, else "". */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/**
 * Value guards: read untrusted JSON without ever throwing. Every room that reads messages or
 * session files uses these instead of its own checks.
 */

/** A plain object (not null, not an array). */
export function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A plain-object view of an unknown value ({} for anything else), so field reads never throw. */
export function obj(v: unknown): Record<string, unknown> {
  return isObj(v) ? v : {};
}

/** The value as an array, [] for anything else. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** The value when it is a string, else "". */
export function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

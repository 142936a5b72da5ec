/**
 * A refusal we caused. When the upstream answers a compacted request with a 4xx that is not about
 * its length (those go to the ladder) nor about the client, its quota or the provider's load (401,
 * 403, 408, 409, 413, 429, an overloaded error), the refusal may be ours: a validation rule the
 * compacted body broke that the client's own would not. The proxy then sends the client's original
 * bytes once and relays that answer. No per-session memory decides it, so the body sent stays a
 * function of the request and the config (warm = cold, replicas alike); a refused request costs no
 * tokens. Only an answer not yet begun is retried: once a byte reached the client, it is relayed.
 * A recall round's body is the compacted one lengthened by what the proxy recalled into it, so a
 * refusal of its length is ours too there: no rung of the ladder answers it.
 */
import { decodedText, isContextError } from "./reactive.js";

/** Statuses about the client, its quota, a conflict or the provider's load: relayed as they are. */
const NOT_OURS = new Set([401, 403, 408, 409, 413, 429]);

/** The provider's error type in an error body (Anthropic `error.type`, OpenAI `error.type` or `error.code`, Gemini `error.status`), or null. */
export function errorType(body: Buffer, encoding: string | undefined): string | null {
  try {
    const v = JSON.parse(decodedText(body, encoding)) as { error?: { type?: unknown; code?: unknown; status?: unknown }; type?: unknown };
    const e = v.error;
    const t = e !== undefined && e !== null && typeof e === "object" ? e.type ?? (typeof e.code === "string" ? e.code : e.status) : undefined;
    // A type is shown in logs: only a short identifier, never text from the body beyond it.
    return typeof t === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(t) ? t : null;
  } catch {
    return null;
  }
}

/** Whether a refusal of a compacted request is one the client's own bytes may not get. */
export function fallsBack(status: number, type: string | null): boolean {
  return status >= 400 && status < 500 && !NOT_OURS.has(status) && !/overloaded/i.test(type ?? "");
}

/** A refusal we caused: its status and the provider's error type. */
export interface OurRefusal {
  readonly status: number;
  readonly type: string | null;
}

/**
 * A refusal of a body the proxy made that the client's own bytes may not get, or null. `complete`:
 * the whole error body was read (a cut one is relayed). `lengthToo`: a refusal of the body's length
 * counts (a recall round's); for a first body it does not, the ladder answers it.
 */
export function ourRefusal(status: number, body: Buffer, encoding: string | undefined, complete: boolean, lengthToo: boolean): OurRefusal | null {
  if (!complete) return null;
  const type = errorType(body, encoding);
  if (isContextError(status, body, encoding)) return lengthToo ? { status, type } : null;
  return fallsBack(status, type) ? { status, type } : null;
}

/**
 * A refusal we caused. When the upstream answers a compacted request with a 4xx that is not about
 * its length (those go to the ladder) nor about the client, its quota or the provider's load (401,
 * 403, 408, 409, 413, 429, an overloaded error), the refusal may be ours: a validation rule the
 * compacted body broke that the client's own would not. The proxy then sends the client's original
 * bytes once and relays that answer. No per-session memory decides it, so the body sent stays a
 * function of the request and the config (warm = cold, replicas alike); a refused request costs no
 * tokens. Only an answer not yet begun is retried: once a byte reached the client, it is relayed.
 */
import { decodedText } from "./reactive.js";

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

/**
 * A platform's messages as the plain dialect reads them: `{role, content}` entries whose content is a
 * string. What a platform hands may be anything, so an entry that is not an object is skipped, a
 * missing or empty role is "unknown", and non-string content is read as its canonical JSON (the
 * same bytes whatever order the platform wrote its keys in).
 */
import { plainClass } from "../dialects/plain.js";
import { canonicalJson } from "../estimate/json.js";

export interface PlatformMessage {
  role: string;
  content: string;
}

export interface PlatformMessages {
  messages: PlatformMessage[];
  /** Index of the newest message the plain dialect reads as the model's; -1 when none is. */
  lastAssistant: number;
}

function contentString(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === undefined || v === null) return "";
  try {
    return canonicalJson(v);
  } catch {
    return "";
  }
}

/** The entries of `raw` as strings; `roleOf` is the host's own bound on a role name, applied before anything reads it. */
export function platformMessages(raw: readonly unknown[], roleOf: (role: string) => string): PlatformMessages {
  const messages: PlatformMessage[] = [];
  let lastAssistant = -1;
  for (const m of raw) {
    if (m === null || typeof m !== "object" || Array.isArray(m)) continue;
    const rec = m as Record<string, unknown>;
    const role = typeof rec.role === "string" && rec.role !== "" ? roleOf(rec.role) : "unknown";
    if (plainClass(role) === "assistant") lastAssistant = messages.length;
    messages.push({ role, content: contentString(rec.content) });
  }
  return { messages, lastAssistant };
}

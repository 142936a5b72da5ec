/**
 * The one place the proxy keeps any text of a body: a session's newest cliff, its summary beside
 * what it dropped, for `GET /_cliff/sessions/ID/last-cliff` (content: served only with the admin
 * token, access.ts). What is kept is bounded: the summary's first 256 Ki characters and at most
 * 400 dropped messages, each as its role and its first 400 characters, each a string of its own
 * (kept.ts: an excerpt that were a view of its message's text would keep the whole text alive).
 */
import { isObj } from "../../core/index.js";
import { keptText, ownCopy } from "./kept.js";

export interface DroppedMessage {
  role: string;
  /** Characters of text the message held. */
  chars: number;
  /** Its first characters. */
  text: string;
}

export interface LastCliff {
  time: string;
  messagesIn: number;
  messagesOut: number;
  tokensIn: number;
  tokensOut: number;
  /** Which cliff it is, as re-fetches and recalls name it: where its kept tail starts, its summary's fingerprint. */
  cut?: number;
  summaryFp?: string;
  summary: string;
  dropped: DroppedMessage[];
}

const EXCERPT = 400;
const SUMMARY_MAX = 256 * 1024;
const DROPPED_MAX = 400;

/** The strings a message says (text, tool input and output), in order, up to `limit` characters. */
function textOf(v: unknown, limit: number): { text: string; chars: number } {
  const parts: string[] = [];
  let chars = 0;
  let kept = 0;
  const stack: unknown[] = [v];
  let steps = 0;
  while (stack.length > 0 && steps++ < 10_000) {
    const x = stack.pop();
    if (typeof x === "string") {
      chars += x.length;
      if (kept < limit) {
        parts.push(x.slice(0, limit - kept));
        kept += Math.min(x.length, limit - kept);
      }
    } else if (Array.isArray(x)) {
      for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]);
    } else if (isObj(x)) {
      for (const k of ["content", "text", "thinking", "input", "arguments", "output", "name"].reverse()) if (k in x) stack.push(x[k]);
    }
  }
  return { text: ownCopy(parts.join(" ").replace(/\s+/g, " ").trim()), chars };
}

function roleOf(m: unknown): string {
  if (!isObj(m)) return "?";
  const r = typeof m.role === "string" ? m.role : typeof m.type === "string" ? m.type : "?";
  return keptText(r, 24);
}

export function lastCliff(summaryText: string, dropped: readonly unknown[], r: { messagesIn: number; messagesOut: number; tokensIn: number; tokensOut: number; cut: number; summaryFp: string }): LastCliff {
  const shown = dropped.length > DROPPED_MAX ? dropped.slice(dropped.length - DROPPED_MAX) : dropped;
  return {
    time: new Date().toISOString(),
    ...r,
    summary: keptText(summaryText, SUMMARY_MAX),
    dropped: shown.map((m) => {
      const t = textOf(m, EXCERPT);
      return { role: roleOf(m), chars: t.chars, text: t.text };
    }),
  };
}

/**
 * Finding our previous envelope wherever the platform put it in `messages[0]`: after a label or
 * white space, inside `<summary>` tags, in a JSON list of text blocks, as a markdown quote, with
 * its line ends converted. The envelope states its own lengths and checksum, so a view of the
 * text either yields it exactly or not at all; whatever the platform put around it is dropped.
 *
 * Views are tried cheapest first (the text as it is), and each undoes one wrapping: a JSON text
 * block's string, line ends back to LF (a version 3 envelope writes no CR of its own, so every CR
 * came from a conversion), or one level of a markdown quote.
 */
import { SUMMARY_HEADER } from "../core/platform/index.js";
import type { Envelope, EnvelopeMessage } from "./envelope.js";
import { OPEN } from "./envelope.js";
import { parseEnvelopeAt, recoverTask } from "./envelope-read.js";

/** How our envelope starts. */
const MARK = SUMMARY_HEADER + "\n\n" + OPEN;
/** Wrappings undone inside each other, at most (a quoted CRLF text inside a JSON block is three). */
const DEPTH = 3;

export interface Previous {
  /** The envelope, parsed exactly; null when none was found intact. */
  env: Envelope | null;
  /** No intact envelope, but a damaged one whose task section still reads. */
  recovered: EnvelopeMessage[] | null;
  /** The text held our envelope, intact or not (or began with our header): a repeat compaction. */
  ours: boolean;
}

/** The strings of a JSON text block list (or of one block, or one string). */
function jsonStrings(text: string): string[] {
  if (!/^\s*[[{"]/.test(text)) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const b of Array.isArray(v) ? v : [v]) {
    const t = typeof b === "string" ? b : (b as { text?: unknown } | null)?.text;
    if (typeof t === "string") out.push(t);
  }
  return out;
}

/** Texts that may hold the envelope once one wrapping is undone. */
function unwrapped(text: string): string[] {
  const out = jsonStrings(text);
  // CRLF back to LF (exact for every version), then any CR too (exact for version 3, which writes none).
  if (text.indexOf("\r") >= 0) for (const re of [/\r\n/g, /\r\n?/g]) out.push(text.replace(re, "\n"));
  // A markdown quote (the header's line starts with ">"): one level off every line, "> " or ">".
  const header = text.indexOf(SUMMARY_HEADER);
  if (text.slice(text.lastIndexOf("\n", header) + 1, header).indexOf(">") >= 0) for (const re of [/^[ \t]*> ?/gm, /^[ \t]*>/gm]) out.push(text.replace(re, ""));
  return out;
}

/** Our previous envelope in `text`, wherever it sits and whatever wraps it. */
export function findPrevious(text: string): Previous {
  const found: Previous = { env: null, recovered: null, ours: text.trimStart().startsWith(SUMMARY_HEADER) };
  let views = text.indexOf(SUMMARY_HEADER) < 0 ? [] : [text];
  for (let depth = 0; depth <= DEPTH && views.length > 0; depth++) {
    const next: string[] = [];
    for (const view of views) {
      const at = view.indexOf(MARK);
      if (at >= 0) {
        found.ours = true;
        const parsed = parseEnvelopeAt(view, at);
        if (parsed !== null) return { env: parsed.env, recovered: null, ours: true };
        found.recovered ??= recoverTask(view, at);
      }
      if (depth < DEPTH && view.indexOf(SUMMARY_HEADER) >= 0) next.push(...unwrapped(view));
    }
    views = next;
  }
  return found;
}

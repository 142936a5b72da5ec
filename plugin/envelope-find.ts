/**
 * Finding our previous envelope wherever the platform put it in `messages[0]`: after a label or
 * white space, inside `<summary>` tags, in a JSON list of text blocks, as a markdown quote, with
 * its line ends converted. The envelope states its own lengths and checksum, so a view of the
 * text either yields it exactly or not at all; whatever the platform put around it is dropped.
 *
 * Views are tried cheapest first (the text as it is), and each undoes one wrapping: a JSON text
 * block's string, line ends back to LF (a version 3 envelope writes no CR of its own, so every CR
 * came from a conversion), or one level of a line prefix such as `> ` taken from the header's line.
 */
import { SUMMARY_HEADER } from "../core/summary.js";
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

function jsonStrings(text: string): string[] {
  const t = text.trim();
  if (t[0] !== "[" && t[0] !== "{") return [];
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const item of Array.isArray(v) ? v : [v]) {
    if (typeof item === "string") out.push(item);
    else if (item !== null && typeof item === "object") {
      const o = item as Record<string, unknown>;
      for (const k of ["text", "content"]) if (typeof o[k] === "string") out.push(o[k] as string);
    }
  }
  return out;
}

/** The text with one level of the line prefix of the header's line removed from every line, or null when there is none. */
function unprefixed(text: string, header: number): string | null {
  const lineStart = text.lastIndexOf("\n", header) + 1;
  const prefix = text.slice(lineStart, header);
  if (prefix === "" || !/^[ \t>]+$/.test(prefix)) return null;
  const bare = prefix.replace(/[ \t]+$/, "");
  return text.split("\n").map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : bare !== "" && l.startsWith(bare) ? l.slice(bare.length) : l)).join("\n");
}

/** Texts that may hold the envelope once one wrapping is undone. */
function unwrapped(text: string): string[] {
  const out = jsonStrings(text);
  if (text.indexOf("\r") >= 0) {
    const crlf = text.split("\r\n").join("\n");
    out.push(crlf);
    if (crlf.indexOf("\r") >= 0) out.push(crlf.split("\r").join("\n"));
  }
  const header = text.indexOf(SUMMARY_HEADER);
  const bare = header < 0 ? null : unprefixed(text, header);
  if (bare !== null) out.push(bare);
  return out;
}

/** Our previous envelope in `text`, wherever it sits and whatever wraps it. */
export function findPrevious(text: string): Previous {
  if (text.indexOf(SUMMARY_HEADER) < 0) return { env: null, recovered: null, ours: false };
  const found: Previous = { env: null, recovered: null, ours: text.trimStart().startsWith(SUMMARY_HEADER) };
  let views = [text];
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

/**
 * The archive's side in the core: a cliff drops long tool results and cuts long calls, and a host
 * that can write files (the injected `archive` function) keeps them outside the context. The
 * summary then says how long the text was and where it is, so the agent can read it back with its
 * own tools. The core never writes anything: it decides what text is archived and how the pointer
 * line reads. A pointer is a function of the text alone (the host names files by its hash), so a
 * summary stays deterministic whenever the host's writer succeeds.
 */

import { sha256Hex } from "./sha256.js";
import { isWellFormed } from "./text.js";

/** What an archived text was: a dropped tool result, or the full arguments of a cut call. */
export type ArchivedKind = "result" | "call";

/**
 * The host's writer: keeps `text` and returns where it is (an absolute path), or null to keep the
 * line the summary would have had without an archive. Must not throw (a throw counts as null).
 */
export type ArchiveFn = (text: string, kind: ArchivedKind) => string | null;

/** The fixed openings of pointer lines (a dropped result's line opens with the result tag). */
export const ARCHIVED_RESULT_OPENING = "result: dropped ";
export const ARCHIVED_CALL_OPENING = "call: cut ";
const KEPT_AT = " chars, kept at ";

/** A pointer's location must be one line of printable text of sensible length. */
const MAX_LOCATION = 4096;
// eslint-disable-next-line no-control-regex
const NOT_ONE_LINE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/** `8432` → `8,432`, without locale APIs (QuickJS has none). */
export function groupDigits(n: number): string {
  const digits = String(Math.floor(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

/** The line that stands for an archived text of `length` UTF-16 units kept at `location`. */
export function pointerLine(kind: ArchivedKind, length: number, location: string): string {
  return (kind === "result" ? ARCHIVED_RESULT_OPENING : ARCHIVED_CALL_OPENING) + groupDigits(length) + KEPT_AT + location;
}

/** Matches a pointer line: its kind, the length as written, and the location. */
export const POINTER_LINE = /^(result: dropped|call: cut) (\d{1,3}(?:,\d{3})*) chars, kept at (.+)$/;

/**
 * The pointer line for `text`, or null when there is no archive, the writer declined or failed,
 * or it answered with something that is not one line (a summary line must stay one line).
 */
export function archivePointer(archive: ArchiveFn | undefined, text: string, kind: ArchivedKind): string | null {
  if (archive === undefined || text.length === 0) return null;
  let location: unknown;
  try {
    location = archive(text, kind);
  } catch {
    return null;
  }
  if (typeof location !== "string" || location === "" || location.length > MAX_LOCATION || NOT_ONE_LINE.test(location) || !isWellFormed(location)) return null;
  return pointerLine(kind, text.length, location);
}

/** A line and the pointer that follows it, either of which may be absent. */
export function withPointer(line: string | null, pointer: string | null): string | null {
  return pointer === null ? line : line === null ? pointer : line + "\n" + pointer;
}

/**
 * Where an archived text lives under the archive folder, from the SHA-256 (hex) of its UTF-8 and
 * nothing else: `ab/ab12….txt`. Every writer uses this layout, so the same text is stored once.
 */
export function archiveName(hashHex: string): string[] {
  return [hashHex.slice(0, 2), hashHex + ".txt"];
}

/** An archive kept in memory: the texts by location, and every call it received, in order. */
export interface MemoryArchive {
  archive: ArchiveFn;
  files: Map<string, string>;
  received: { text: string; kind: ArchivedKind }[];
}

/**
 * A pure archive in memory (for tests of the core): the same layout as a folder at `root` (a path
 * written with "/"), nothing written anywhere.
 */
export function memoryArchive(root: string, hash: (text: string) => string = sha256Hex): MemoryArchive {
  const files = new Map<string, string>();
  const received: { text: string; kind: ArchivedKind }[] = [];
  const archive: ArchiveFn = (text, kind) => {
    received.push({ text, kind });
    const location = [root.replace(/\/+$/, ""), ...archiveName(hash(text))].join("/");
    files.set(location, text);
    return location;
  };
  return { archive, files, received };
}

/**
 * What a summary says of a text a cliff drops (a long tool result) or cuts (a long call's
 * arguments): how long it was and its ref (core/recall/ref.ts), a function of the text alone, so a
 * summary is the same on every machine and a host that holds the history can give the text back
 * when the model asks for that ref. Writing the texts to disk is an export a host does only when
 * asked (the injected `archive` function); the line never depends on it. The core writes nothing.
 */

import { sha256Hex } from "./sha256.js";
import { refOf } from "./recall/ref.js";
import { clientFileLine, clientFileOf } from "./recall/client-file.js";

/** What a dropped text was: a dropped tool result, or the full arguments of a cut call. */
export type ArchivedKind = "result" | "call";

/**
 * The host's export: keeps `text` (on disk) and returns where it is, or null when it could not.
 * The summary does not depend on its answer. Must not throw (a throw is ignored).
 */
export type ArchiveFn = (text: string, kind: ArchivedKind) => string | null;

/** The fixed openings of ref lines (a dropped result's line opens with the result tag). */
export const ARCHIVED_RESULT_OPENING = "result: dropped ";
export const ARCHIVED_CALL_OPENING = "call: cut ";
const REF_AT = " chars, ref ";

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

/** The line that stands for a dropped text of `length` UTF-16 units whose ref is `ref`. */
export function refLine(kind: ArchivedKind, length: number, ref: string): string {
  return (kind === "result" ? ARCHIVED_RESULT_OPENING : ARCHIVED_CALL_OPENING) + groupDigits(length) + REF_AT + ref;
}

/** Matches a ref line: its kind, the length as written, and the ref. The one place its form is read. */
export const REF_LINE = /^(result: dropped|call: cut) (\d{1,3}(?:,\d{3})*) chars, ref ([0-9a-f]{12})$/;

/** Whether `summary` holds a ref line naming `ref`. */
export function namesRef(summary: string, ref: string): boolean {
  const needle = REF_AT + ref;
  for (let at = summary.indexOf(needle); at >= 0; at = summary.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (end === summary.length || summary.charCodeAt(end) === 10) return true;
  }
  return false;
}

/**
 * What names a dropped text: whether summaries write refs (the `refs` key, and only where the
 * recall tool is offered: a ref with no tool to answer it is a marker the model cannot use), the
 * host's export if asked for, and the host's SHA-256 if it has a faster one.
 */
export interface DroppedTexts {
  readonly cfg: { readonly refs: boolean; readonly recallTool: boolean };
  readonly archive?: ArchiveFn;
  readonly sha256?: (text: string) => string;
}

/** Whether summaries under `cfg` name dropped texts by their refs. */
export const writesRefs = (cfg: DroppedTexts["cfg"]): boolean => cfg.refs && cfg.recallTool;

/**
 * The ref line for `text` (null when refs are off or the text is empty), after handing the text to
 * the host's export when there is one. The line is the same whatever the export answers.
 */
export function droppedLine(to: DroppedTexts, text: string, kind: ArchivedKind): string | null {
  if (text.length === 0) return null;
  if (to.archive !== undefined) {
    try {
      to.archive(text, kind);
    } catch {
      // An export that fails leaves the summary as it is.
    }
  }
  if (!writesRefs(to.cfg)) return null;
  const line = refLine(kind, text.length, refOf(text, to.sha256));
  // A result the client itself kept out of the request: the line names the client's file, where the output is whole.
  const file = kind === "result" ? clientFileOf(text) : null;
  return file === null ? line : line + "\n" + clientFileLine(file);
}

/** A line and the ref line that follows it, either of which may be absent. */
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

/**
 * Which files a session read and modified, from its model tool calls alone (never user or tool
 * text, never a guess from a shell command), and the lists as every host carries them. One room
 * for file lists: extracting, merging, bounding, rendering and reading them back.
 */
import { REFERENCE_CONFIG, type Config } from "./config/index.js";
import { getDialect } from "./dialects/registry.js";
import type { Dialect, DialectName } from "./dialects/types.js";
import { fileOpsOfCall } from "./parts/call-kinds.js";
import { isObj, obj } from "./guards.js";
import type { DecodedJson } from "./parts/index.js";
import type { PartsCache } from "./parts/cache.js";

/** Files read and modified, oldest first; a modified file is never also listed as read (Pi's rule). */
export interface FileLists {
  read: string[];
  modified: string[];
}

export { fileOpsOfCall };

/** Accumulates file lists in order of sight, applying Pi's rule at the end. */
export class FileTracker {
  // Path → when it was last seen; Map order is the order of last sight (oldest first).
  private readonly read = new Map<string, number>();
  private readonly modified = new Map<string, number>();
  private clock = 0;

  /** Adds lists (older events first); a path seen again moves to the newest place. */
  add(read: Iterable<string>, modified: Iterable<string>): void {
    for (const p of read) {
      this.read.delete(p);
      this.read.set(p, this.clock++);
    }
    for (const p of modified) {
      this.modified.delete(p);
      this.modified.set(p, this.clock++);
    }
  }

  /** Adds what one tool call did. */
  addCall(name: unknown, args: unknown): void {
    const ops = fileOpsOfCall(name, args);
    this.add(ops.read, ops.modified);
  }

  /** Adds the lists a text carries in Pi's tagged form (an earlier summary's). */
  addText(text: string): void {
    const lists = parseFileLists(text);
    this.add(lists.read.slice().reverse(), lists.modified.slice().reverse());
  }

  /** The newest files within the caps, as the two lists (newest first). */
  capped(maxPaths: number, maxChars: number): FileLists {
    return toFileLists(this.newest(maxPaths, maxChars));
  }

  /** The lists, oldest first; modified files are not listed as read. */
  lists(): FileLists {
    return { read: [...this.read.keys()].filter((p) => !this.modified.has(p)), modified: [...this.modified.keys()] };
  }

  /**
   * The newest files across both lists, newest first, within `maxPaths` paths and `maxChars`
   * characters of paths (a path that does not fit ends the walk: older ones are dropped).
   */
  newest(maxPaths: number, maxChars: number): TouchedFile[] {
    const all: [string, number, boolean][] = [];
    for (const [p, t] of this.modified) all.push([p, t, true]);
    for (const [p, t] of this.read) if (!this.modified.has(p)) all.push([p, t, false]);
    all.sort((a, b) => b[1] - a[1]);
    const out: TouchedFile[] = [];
    let chars = 0;
    for (const [path, , modified] of all) {
      if (out.length >= maxPaths || chars + path.length > maxChars) break;
      chars += path.length;
      out.push({ path, modified });
    }
    return out;
  }
}

/** One file and what was done to it (modified wins over read). */
export interface TouchedFile {
  path: string;
  modified: boolean;
}

/** Touched files (in their order) as the two lists. */
export function toFileLists(files: readonly TouchedFile[]): FileLists {
  const out: FileLists = { read: [], modified: [] };
  for (const f of files) (f.modified ? out.modified : out.read).push(f.path);
  return out;
}

/** The files the model tool calls of `messages` read and modified, in any dialect. */
// Only the calls matter here: the text the summarising pass also reads is cut as short as it goes.
const CALLS_ONLY = { ...REFERENCE_CONFIG, keepThinking: false, thoughtMaxChars: 1, cmdMaxChars: 1, humanMaxChars: 1, resultMaxChars: 0 };

export function filesTouched(messages: readonly unknown[], dialect: DialectName | Dialect | string, tracker = new FileTracker(), decoded?: DecodedJson): FileLists {
  const d = getDialect(dialect);
  const ctx = { cfg: CALLS_ONLY, decoded, onCall: (name: unknown, args: unknown) => tracker.addCall(name, args) };
  // Model tool calls are in model turns, in every dialect: user and tool messages are never read.
  for (const m of messages) if (d.isAssistant(m)) d.summarize(m, ctx);
  return tracker.lists();
}

/**
 * filesTouched as the first pass of a plan: the model turns of the body of `list` (after `headLen`)
 * are summarised under `cfg` into `cache` while their calls are collected, so the plan's first
 * rung finds their parts made. The head holds no model turn, so the lists are filesTouched's.
 * Call it on a cache that has made nothing for this list yet (a part found made reports no call),
 * and only where `PartsCache.reusable` holds for the plan.
 */
export function filesTouchedInPlan(list: readonly unknown[], headLen: number, d: Dialect, cfg: Config, cache: PartsCache, tracker = new FileTracker()): FileLists {
  const partsOf = cache.summarizer(list, headLen, d, { cfg, decoded: cache.decoded, onCall: (name, args) => tracker.addCall(name, args) });
  for (let i = headLen; i < list.length; i++) if (d.isAssistant(list[i])) partsOf(i - headLen, list[i]);
  return tracker.lists();
}

const TAGGED = /<(read|modified)-files>\n([^]*?)\n<\/\1-files>/g;

/** The lists a text holds in Pi's tagged form (the last block of each kind wins), paths as written. */
export function parseFileLists(text: string): FileLists {
  const out: FileLists = { read: [], modified: [] };
  if (text.indexOf("-files>") < 0) return out;
  for (const m of text.matchAll(TAGGED)) out[m[1] === "read" ? "read" : "modified"] = m[2].split("\n").filter((p) => p !== "");
  return out;
}

// Pi's form has no escape: a path that would break its line or close its list is left out.
const writable = (p: string): boolean => !/[\n\r]|<\//.test(p);

/** The lists the way Pi's own summaries end (`<read-files>` / `<modified-files>`), "" when both are empty. */
export function formatFileLists(files: FileLists): string {
  const sections: string[] = [];
  const read = files.read.filter(writable);
  const modified = files.modified.filter(writable);
  if (read.length > 0) sections.push(`<read-files>\n${read.join("\n")}\n</read-files>`);
  if (modified.length > 0) sections.push(`<modified-files>\n${modified.join("\n")}\n</modified-files>`);
  return sections.length === 0 ? "" : "\n\n" + sections.join("\n\n");
}

/**
 * File lists carried by earlier compactions on a Pi branch (ours and Pi's own keep them in
 * `details`) and by Pi's preparation for this one, added to `tracker`.
 */
export function addCarriedFiles(tracker: FileTracker, branchEntries: readonly unknown[], preparation: unknown): void {
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((f): f is string => typeof f === "string") : []);
  for (const e of branchEntries) {
    if (!isObj(e) || e.type !== "compaction") continue;
    const d = obj(e.details);
    tracker.add(strings(d.readFiles), strings(d.modifiedFiles));
  }
  const ops = obj(obj(preparation).fileOps);
  const list = (v: unknown): string[] => strings(v instanceof Set ? [...v] : v);
  tracker.add(list(ops.read), [...list(ops.written), ...list(ops.edited)]);
}

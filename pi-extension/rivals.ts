/**
 * Other extensions that answer `session_before_compact`. Pi (0.85 and 1.x alike) runs every
 * handler of a `session_before_*` event in load order and keeps the last truthy answer, so an
 * extension loaded after ours that answers anything, even `{}`, replaces our compaction (with `{}`,
 * by Pi's own model summary). Pi's API lists no other extension's handlers, so two views are kept:
 * the extension files Pi would load that register the event (named in `/cliff status`), and what
 * happened at a compaction we answered (the entry Pi wrote was not ours).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** A file longer than this is not read (no extension source is near it). */
const MAX_READ = 8 * 1024 * 1024;
/** Text only this extension's own bundle holds (so a copy of cliffcompaction is never its own rival). */
export const OWN_MARK = "cliffcompaction: status | config | reload";
const EVENT = "session_before_compact";
const SOURCE = /\.(ts|js|mjs|cjs|mts|cts)$/;

export interface Places {
  /** Pi's agent folder (`~/.pi/agent`, OMP's `~/.omp/agent`). */
  agentDir: string;
  /** The project folder, whose `.pi/extensions/` Pi loads once the project is trusted. */
  cwd?: string;
  /** The process's arguments, for `-e` / `--extension` paths. */
  argv?: readonly string[];
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

function readJson(p: string): unknown {
  try {
    return JSON.parse(readFileSync(p, "utf8"));
  } catch {
    return undefined;
  }
}

/** The entry files of one extension path: a source file, or a folder's `package.json` `pi.extensions` or its index. */
function entries(path: string): string[] {
  if (isFile(path)) return SOURCE.test(path) ? [path] : [];
  if (!isDir(path)) return [];
  const pkg = readJson(join(path, "package.json")) as { pi?: { extensions?: unknown } } | undefined;
  const listed = pkg?.pi?.extensions;
  if (Array.isArray(listed)) return listed.filter((e): e is string => typeof e === "string" && !/[*!]/.test(e)).map((e) => resolve(path, e)).filter(isFile);
  return ["index.ts", "index.js", "index.mjs"].map((n) => join(path, n)).filter(isFile);
}

/** Every extension file of a discovery folder: its source files and its sub-folders' entries. */
function folder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => entries(join(dir, n)));
}

/** The `extensions` paths of a settings file, resolved against its folder. */
function settingsPaths(file: string): string[] {
  const s = readJson(file) as { extensions?: unknown } | undefined;
  if (!Array.isArray(s?.extensions)) return [];
  return s!.extensions.filter((e): e is string => typeof e === "string").map((e) => (isAbsolute(e) ? e : resolve(dirname(file), e)));
}

function argvPaths(argv: readonly string[]): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => {
    if ((a === "-e" || a === "--extension") && typeof argv[i + 1] === "string") out.push(resolve(argv[i + 1]));
    else if (a.startsWith("--extension=")) out.push(resolve(a.slice("--extension=".length)));
  });
  return out;
}

/** The extension files Pi would load from these places (each once). */
export function extensionFiles(p: Places): string[] {
  const projects = p.cwd === undefined ? [] : [join(p.cwd, ".pi"), join(p.cwd, ".omp")];
  const files = [
    ...folder(join(p.agentDir, "extensions")),
    ...projects.flatMap((d) => folder(join(d, "extensions"))),
    ...[join(p.agentDir, "settings.json"), ...projects.map((d) => join(d, "settings.json"))].filter(existsSync).flatMap(settingsPaths).flatMap(entries),
    ...argvPaths(p.argv ?? []).flatMap(entries),
  ];
  return [...new Set(files)];
}

/** Whether a source registers a `session_before_compact` handler and is not this extension. */
export function answersCompaction(text: string): boolean {
  return text.includes(EVENT) && !text.includes(OWN_MARK);
}

/** The other extension files that answer `session_before_compact`. */
export function rivalHandlers(p: Places): string[] {
  return extensionFiles(p).filter((f) => {
    try {
      if (statSync(f).size > MAX_READ) return false;
      return answersCompaction(readFileSync(f, "utf8"));
    } catch {
      return false;
    }
  });
}

/** What happened at the last compaction we answered, when another handler's answer won. */
export interface Override {
  at: string;
  /** What Pi did instead: another extension's compaction, Pi's own model summary, or a cancel. */
  outcome: "other-compaction" | "pi-default" | "cancelled";
}

/** The outcome of a compaction we answered with `ours`, from Pi's `session_compact` event: null when it was ours. */
export function overrideOf(ours: string, event: { fromExtension?: unknown; compactionEntry?: { summary?: unknown } } | undefined): Override["outcome"] | null {
  const summary = event?.compactionEntry?.summary;
  if (summary === ours) return null;
  return event?.fromExtension === false ? "pi-default" : "other-compaction";
}

const OUTCOME: Record<Override["outcome"], string> = {
  "other-compaction": "another extension's compaction was kept instead",
  "pi-default": "an empty answer after ours made Pi run its own model summary",
  cancelled: "another extension cancelled it",
};

/** `/cliff status`'s lines about rivals: the files that can override ours, and what the last compaction we answered became. */
export function rivalLines(files: readonly string[], last: Override | undefined): string[] {
  const lines: string[] = [];
  if (files.length > 0) {
    lines.push(`warning: ${files.length === 1 ? "another extension answers" : `${files.length} other extensions answer`} session_before_compact; Pi keeps the last answer, so one loaded after cliffcompaction replaces our compaction (even by answering {}):`);
    for (const f of files) lines.push(`  ${f}`);
  }
  if (last !== undefined) lines.push(`warning: our compaction @ ${last.at} was not used: ${OUTCOME[last.outcome]}`);
  return lines;
}

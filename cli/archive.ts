/**
 * The CLI's export: the Node writer in the folder `--archive DIR` (or the settings) names, only
 * when asked for. The summary names each dropped text by its ref whether or not it is written.
 */
import { REF_LINE, type ArchivedKind, type Config } from "../core/index.js";
import { refOf } from "../core/recall/index.js";
import { archiveWriter, defaultArchiveDir, type ArchiveWriter } from "../node/archive.js";
import { n } from "./table.js";

/** The writer, and the distinct texts of each kind it has written. */
export interface CliArchive extends ArchiveWriter {
  written(): { results: number; calls: number };
  /** Whether the text of this ref was written. */
  holds(ref: string): boolean;
}

/** The writer for `cfg`, or undefined when the export is off (the default). A failure is told once on standard error. */
export function cliArchive(cfg: Config, env: NodeJS.ProcessEnv = process.env): CliArchive | undefined {
  if (!cfg.archive) return undefined;
  const writer = archiveWriter({ dir: cfg.archiveDir || defaultArchiveDir(env), maxBytes: cfg.archiveMaxBytes, log: (line) => process.stderr.write(line + "\n") });
  const seen: Record<ArchivedKind, Set<string>> = { result: new Set(), call: new Set() };
  return {
    ...writer,
    archive: (text, kind) => {
      const at = writer.archive(text, kind);
      if (at !== null) seen[kind].add(refOf(text));
      return at;
    },
    written: () => ({ results: seen.result.size, calls: seen.call.size }),
    holds: (ref) => seen.result.has(ref) || seen.call.has(ref),
  };
}

/** The distinct refs a summary names, by kind, that `keep` holds. */
function refCounts(summary: string, keep: (ref: string) => boolean): { results: number; calls: number } {
  const seen = { results: new Set<string>(), calls: new Set<string>() };
  for (const line of summary.split("\n")) {
    const m = REF_LINE.exec(line);
    if (m !== null && keep(m[3])) seen[m[1] === "call: cut" ? "calls" : "results"].add(m[3]);
  }
  return { results: seen.results.size, calls: seen.calls.size };
}

/**
 * What the export holds of a summary's texts: the ones its refs name that were written or, without
 * refs, every text the cliff handed it (a ladder weighs more than one cut, so the export may also
 * hold what a cut the cliff did not take would have dropped).
 */
export function exported(writer: CliArchive, summary: string, refs: boolean): { results: number; calls: number } {
  return refs ? refCounts(summary, writer.holds) : writer.written();
}

/** The report's line about the export, or nothing when it is off. */
export function archiveLines(writer: CliArchive | undefined, summary: string, refs: boolean): string[] {
  if (writer === undefined) return [];
  const c = exported(writer, summary, refs);
  const failures = writer.stats().failures;
  return [`archive   ${n(c.results)} dropped result(s) and ${n(c.calls)} cut call(s) written to ${writer.dir}${failures > 0 ? ` (${n(failures)} could not be written)` : ""}`];
}

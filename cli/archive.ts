/** The CLI's archive: the Node writer in the folder the settings name (or the default), when the archive is on. */
import { POINTER_LINE, type Config } from "../core/index.js";
import { archiveWriter, defaultArchiveDir, type ArchiveWriter } from "../node/archive.js";
import { n } from "./table.js";

/** The writer for `cfg`, or undefined when the archive is off. A failure is told once on standard error. */
export function cliArchive(cfg: Config, env: NodeJS.ProcessEnv = process.env): ArchiveWriter | undefined {
  if (!cfg.archive) return undefined;
  return archiveWriter({ dir: cfg.archiveDir || defaultArchiveDir(env), maxBytes: cfg.archiveMaxBytes, log: (line) => process.stderr.write(line + "\n") });
}

/** Pointer lines in a summary, by kind. */
export function pointerCounts(summary: string): { results: number; calls: number } {
  const out = { results: 0, calls: 0 };
  for (const line of summary.split("\n")) {
    const m = POINTER_LINE.exec(line);
    if (m !== null) out[m[1] === "call: cut" ? "calls" : "results"]++;
  }
  return out;
}

/** The report's line about the archive, or nothing when it is off. */
export function archiveLines(writer: ArchiveWriter | undefined, summary: string): string[] {
  if (writer === undefined) return [];
  const c = pointerCounts(summary);
  return [`archive   ${n(c.results)} dropped result(s) and ${n(c.calls)} cut call(s) kept in ${writer.dir}${writer.stats().failures > 0 ? ` (${writer.stats().failures} could not be written: their usual lines stand)` : ""}`];
}

/**
 * The proxy's export: dropped texts written to a folder only when asked for (`--archive DIR`,
 * `archive: true`). What the model reads never depends on it: a summary names each dropped text by
 * its ref, which the request itself answers, on any replica.
 */
import type { Config } from "../../core/index.js";
import { archiveWriter, defaultArchiveDir, type ArchiveWriter } from "../../node/archive.js";

/** The writer when the export is asked for, else undefined (the default). */
export function proxyArchive(config: Config, log: ((line: string) => void) | undefined, env: NodeJS.ProcessEnv = process.env): ArchiveWriter | undefined {
  if (!config.archive) return undefined;
  return archiveWriter({ dir: config.archiveDir || defaultArchiveDir(env), maxBytes: config.archiveMaxBytes, log });
}

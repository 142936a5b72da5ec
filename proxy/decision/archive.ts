/**
 * The proxy's archive: on only where the agent shares this machine's files, which a proxy can
 * know only when it listens on loopback (`run` always does). Bound beyond loopback, its clients
 * may be other machines, whose agents could not read a path on this one.
 */
import type { Config } from "../../core/index.js";
import { archiveWriter, defaultArchiveDir, type ArchiveWriter } from "../../node/archive.js";

import { isLoopback } from "../loopback.js";

export { isLoopback };

/** The writer for a proxy listening on `host`, or undefined (the archive off, or bound beyond loopback). */
export function proxyArchive(config: Config, host: string, log: ((line: string) => void) | undefined, env: NodeJS.ProcessEnv = process.env): ArchiveWriter | undefined {
  if (!config.archive || !isLoopback(host)) return undefined;
  return archiveWriter({ dir: config.archiveDir || defaultArchiveDir(env), maxBytes: config.archiveMaxBytes, log });
}

/**
 * What `serve` says about the archive: nothing when it is on, off, or only supplied by a profile;
 * a line when it was asked for by name but the proxy listens beyond loopback.
 */
export function archiveOffNote(config: Config, host: string, askedByName: boolean): string | null {
  if (!config.archive || !askedByName || isLoopback(host)) return null;
  return `cliffcompaction: the archive is off: the proxy listens on ${host}, beyond loopback, so its clients' agents may not share this machine's files; summaries keep their usual lines`;
}

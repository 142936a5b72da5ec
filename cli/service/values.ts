/**
 * What `enable` writes into a systemd unit or a launchd plist, checked before anything is
 * written: each value with where it came from (a flag, a variable), refused in one line naming
 * that source when the file could not hold it as it is. Both refuse line breaks, NUL and the other
 * control characters (a line break in a unit starts a directive of its own; XML 1.0 cannot hold
 * most controls at all). A unit also refuses, in the values it does not quote (the log's path),
 * `%` (a specifier), `$`, a backslash and spaces at either end; ExecStart's words are quoted and
 * escaped (systemdWord), so only the controls are refused there. A base URL must be a plain one:
 * the unit and the plist hold no credentials.
 */
import { UsageError } from "../args.js";
import { upstreamUrl } from "../../proxy/options.js";

/** A service file holds the whole command line (paths, flags): its owner's only. */
export const SERVICE_FILE_MODE = 0o600;

export interface Written {
  value: string;
  /** Where it came from: `--flag`, `VARIABLE`, or a phrase. */
  source: string;
  /** Written without quotes (a unit's StandardOutput path). */
  bare?: boolean;
}

const CONTROL = /[\x00-\x1f\x7f]/;

function why(w: Written, kind: "systemd" | "launchd"): string | null {
  if (CONTROL.test(w.value)) return `holds a line break or another control character`;
  if (kind === "systemd" && w.bare === true) {
    if (/[%$\\]/.test(w.value)) return "holds % or $ or a backslash, which a unit would read as a specifier, a variable or an escape";
    if (w.value !== w.value.trim()) return "starts or ends with a space";
  }
  return null;
}

/** Throws a UsageError naming the first value that cannot be written safely. */
export function checkWritten(values: readonly Written[], kind: "systemd" | "launchd"): void {
  const file = kind === "systemd" ? "a systemd unit" : "a launchd plist";
  for (const w of values) {
    const problem = why(w, kind);
    if (problem !== null) throw new UsageError(`${w.source} ${problem}, so it cannot be written safely into ${file}; change it and enable again`);
  }
}

/** A base URL bound for a service file: a plain http(s) URL (no credentials, query or fragment), named by its source. */
export function checkBaseUrl(url: string, source: string): void {
  if (CONTROL.test(url)) throw new UsageError(`${source} holds a line break or another control character; it cannot be written into a service file`);
  try {
    upstreamUrl("inherited", url, source);
  } catch (e) {
    // The message quotes the URL: not when it carries credentials.
    const m = (e as Error).message;
    throw new UsageError(/@/.test(url) ? `${source} carries credentials in its URL; the service file is no place for them (pass the key as the client does, in a header)` : m);
  }
}

/**
 * The command a service runs, as `enable` builds it: node and the CLI's script, `serve`, and every
 * flag given to enable that serve takes — paths made absolute (the service does not start in this
 * folder), the admin token's file named (so `watch` and `status` in any shell find the one the
 * service uses), a base URL the shell already exports kept as the upstream — each value with where
 * it came from, so that one a unit or a plist cannot hold is refused naming its flag or variable.
 */
import { resolve } from "node:path";
import { adminTokenFile } from "../../node/admin-token.js";
import type { Parsed } from "../args.js";
import { checkBaseUrl, checkWritten, type Written } from "./values.js";
import type { Platform } from "./service.js";
import { GEMINI_BASE_URLS } from "../../node/clients/index.js";

/** Enable's own flags: not serve's. */
const ENABLE_ONLY = new Set(["name", "no-env", "shell-profile", "codex", "port", "help", "version"]);
/** serve's flags whose value is a path. */
const PATHS = new Set(["config", "debug-dir", "archive", "archive-dir", "admin-token-file"]);
const BASE_URLS: readonly (readonly [string, string])[] = [["ANTHROPIC_BASE_URL", "anthropic-upstream"], ["OPENAI_BASE_URL", "openai-upstream"], ...GEMINI_BASE_URLS.map(([variable, name]) => [variable, `${name}-upstream`] as const)];

export interface ServiceArgv {
  argv: string[];
  /** What goes into the file, each with its source. */
  written: Written[];
  /** Lines to tell the user (an inherited base URL kept). */
  notes: string[];
}

export function serviceArgv(p: Parsed, platform: Platform, cli: string[], port: number): ServiceArgv {
  const written: Written[] = cli.map((value) => ({ value, source: "the path of node or of the cliffcompaction script" }));
  const notes: string[] = [];
  const out = ["serve", "--port", String(port)];
  const add = (flag: string, value: string, source: string): void => {
    out.push(`--${flag}`, value);
    written.push({ value, source });
  };
  for (const [k, v] of Object.entries(p.values)) {
    if (ENABLE_ONLY.has(k)) continue;
    const all: (string | boolean)[] = p.repeated[k] ?? [v];
    for (const one of all) {
      if (one === true) out.push(`--${k}`);
      else if (typeof one === "string") add(k, PATHS.has(k) ? resolve(one) : one, `--${k}`);
    }
  }
  if (p.values["admin-token-file"] === undefined) {
    const env = platform.env;
    add("admin-token-file", adminTokenFile(env, undefined, platform.home), env.CLIFF_ADMIN_TOKEN_FILE ? "CLIFF_ADMIN_TOKEN_FILE" : env.XDG_STATE_HOME ? "XDG_STATE_HOME" : "HOME");
  }
  // A base URL the shell already exports is where the user's requests go today: it stays their upstream.
  for (const [variable, flag] of BASE_URLS) {
    const url = platform.env[variable];
    if (!url || p.values[flag] !== undefined || url.startsWith(`http://127.0.0.1:${port}`)) continue;
    checkBaseUrl(url, variable);
    add(flag, url, variable);
    notes.push(`cliffcompaction: ${variable} is ${url}: the service sends those requests there (--${flag})`);
  }
  for (const flag of ["anthropic-upstream", "openai-upstream", "chatgpt-upstream", ...GEMINI_BASE_URLS.map(([, name]) => `${name}-upstream`)]) {
    const v = p.values[flag];
    if (typeof v === "string") checkBaseUrl(v, `--${flag}`);
  }
  return { argv: [...cli, ...out], written, notes };
}

/** Checks the command and the log's path for the manager's file format (refused in one line). */
export function checkServiceFile(s: ServiceArgv, log: string, logSource: string, kind: string): void {
  checkWritten([...s.written, { value: log, source: logSource, bare: true }], kind === "launchd" ? "launchd" : "systemd");
}

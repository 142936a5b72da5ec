/**
 * Whether `run -- COMMAND` can start COMMAND: a path names a file we may execute, a bare name is
 * one on PATH. Checked before the proxy starts, so a typo gets its one line and no proxy at all.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** True when spawning `command` with `env`'s PATH would find something to run; on Windows (PATHEXT, .cmd shims) spawn decides. */
export function findsCommand(command: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === "win32") return true;
  if (command.includes("/")) return executable(isAbsolute(command) ? command : resolve(command));
  return (env.PATH ?? "").split(delimiter).some((dir) => executable(join(dir === "" ? "." : dir, command)));
}

/** The line `run` says when `command` is not there to run, or null when it is. */
export function missingCommand(command: string, env: NodeJS.ProcessEnv): string | null {
  if (findsCommand(command, env)) return null;
  return `cannot run ${command} (ENOENT: ${command.includes("/") ? "no such executable file" : "not found on PATH"})`;
}

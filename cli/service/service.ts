/**
 * The user service that keeps `serve` running: what an instance is (its name, port, command, log),
 * and the small interface a service manager implements (systemd --user on Linux, launchd on macOS).
 * Commands run through an injected `exec`, and the home folder and platform are parameters, so tests
 * drive all of it on a machine that has neither manager.
 */
import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { join } from "node:path";

export interface Instance {
  /** "default", or the `--name` of a second instance. */
  name: string;
  port: number;
  /** The command the service runs: node, the CLI's script, `serve` and its flags. */
  argv: string[];
  log: string;
}

export interface ServiceState {
  installed: boolean;
  running: boolean;
  pid?: number;
  /** The exit status of the last run, when the manager knows it. */
  lastExit?: number;
  /** The unit or agent file. */
  file: string;
}

export interface ServiceManager {
  /** "systemd --user" or "launchd", for messages. */
  kind: string;
  /** Where the instance's service file goes, and what it is called. */
  file(name: string): string;
  unitName(name: string): string;
  /** The service file's text. */
  render(instance: Instance): string;
  /** Writes the file, then loads and starts (or restarts) the service. */
  install(instance: Instance): void;
  /** Stops and unloads the service, then removes its file. */
  uninstall(name: string): void;
  /** Stops and starts the installed service again, with the command its file holds. */
  restart(name: string): void;
  state(name: string): ServiceState;
}

export interface ExecResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export type Exec = (command: string, args: string[]) => ExecResult;

export interface Platform {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  exec: Exec;
  uid: number;
}

export const realExec: Exec = (command, args) => {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 30_000 });
  return { status: r.error !== undefined ? null : r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
};

export function hostPlatform(env: NodeJS.ProcessEnv = process.env): Platform {
  return { platform: process.platform, home: env.HOME || homedir(), env, exec: realExec, uid: process.getuid?.() ?? 0 };
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
export const validName = (name: string): boolean => NAME.test(name);

/** Where cliffcompaction keeps what `enable` did for each instance, so `disable` undoes exactly that. */
export const stateDir = (p: Platform): string => join(p.env.XDG_CONFIG_HOME || join(p.home, ".config"), "cliffcompaction", "instances");

/** An instance's log file: the manager appends the proxy's output there. */
export function logFile(p: Platform, name: string): string {
  if (p.platform === "darwin") return join(p.home, "Library", "Logs", "cliffcompaction", `${name}.log`);
  return join(p.env.XDG_STATE_HOME || join(p.home, ".local", "state"), "cliffcompaction", `${name}.log`);
}

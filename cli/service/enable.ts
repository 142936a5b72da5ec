/**
 * `cliffcompaction enable` and `disable`: the proxy as a user service that is always on, the shell
 * (and, with --codex, Codex) pointed at it, and a record of what was done so `disable` takes away
 * exactly that and nothing else.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { numberFlag, UsageError, type Parsed } from "../args.js";
import { planCodexWiring, removeCodexWiring, writeCodexWiring, type CodexWiringPlan, type CodexWiring } from "./codex-wiring.js";
import { checkServiceFile, serviceArgv } from "./argv.js";
import { addBlock, removeBlock } from "../../node/clients/index.js";
import { probe, waitForProxy } from "./probe.js";
import { logFile, stateDir, validName, type Instance, type Platform, type ServiceManager } from "./service.js";
import { serviceManager } from "./manager.js";
import { baseUrls, blockId, listed, profileLines, shellProfile, type ShellProfile } from "../../node/clients/index.js";

/** What `enable` did for one instance. */
export interface EnabledState {
  name: string;
  port: number;
  argv: string[];
  serviceFile: string;
  log: string;
  profile?: { file: string; newline: boolean };
  codex?: CodexWiring;
}

export interface ServiceDeps {
  platform: Platform;
  /** The command that runs this CLI: node and its script. */
  cli: string[];
  say: (line: string) => void;
  /** How long `enable` waits for the service to answer. */
  waitMs?: number;
  /** The manager, when a test supplies one; otherwise the machine's (or none). */
  manager?: ServiceManager | null;
}

export const instanceName = (p: Parsed): string => {
  const name = typeof p.values.name === "string" ? p.values.name : "default";
  if (!validName(name)) throw new UsageError(`--name must be letters, digits, - or _ (at most 40), got ${JSON.stringify(name)}`);
  return name;
};

const statePath = (d: ServiceDeps, name: string): string => join(stateDir(d.platform), `${name}.json`);

export function readState(d: ServiceDeps, name: string): EnabledState | null {
  try {
    return JSON.parse(readFileSync(statePath(d, name), "utf8")) as EnabledState;
  } catch {
    return null;
  }
}

/** Checks that need no change: the port (nobody else on it, no other instance), the profile, Codex's file. */
async function preflight(p: Parsed, d: ServiceDeps, manager: ServiceManager, name: string, port: number): Promise<{ profile: ShellProfile | null; codex: CodexWiringPlan | null }> {
  for (const other of ["default", ...listNames(d)].filter((n) => n !== name)) {
    if (readState(d, other)?.port === port) throw new UsageError(`port ${port} is the "${other}" instance's; give this one another --port`);
  }
  const held = await probe(port);
  const mine = manager.state(name);
  if (held.kind === "other") throw new UsageError(`port ${port} is held by another process (${held.detail}); choose another --port`);
  if (held.kind === "ours" && (!mine.running || (held.status.pid !== undefined && held.status.pid !== mine.pid))) {
    throw new UsageError(`port ${port} already has a cliffcompaction proxy (pid ${String(held.status.pid)}) that is not this service; stop it or choose another --port`);
  }
  let profile: ShellProfile | null = null;
  if (p.values["no-env"] !== true) {
    profile = shellProfile(d.platform.env, d.platform.platform, typeof p.values["shell-profile"] === "string" ? resolve(p.values["shell-profile"]) : undefined);
    if (profile === null) throw new UsageError(`cannot tell which profile your shell (${d.platform.env.SHELL ?? "no $SHELL"}) reads; pass --shell-profile FILE, or --no-env`);
  }
  return { profile, codex: p.values.codex === true ? planCodexWiring(d.platform.env, name) : null };
}

/** The instances `enable` has a record of. */
export function listNames(d: ServiceDeps): string[] {
  const dir = stateDir(d.platform);
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)) : [];
}

const shq = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

function wireProfile(profile: ShellProfile, url: string, name: string, before: EnabledState | null): EnabledState["profile"] {
  const text = existsSync(profile.file) ? readFileSync(profile.file, "utf8") : "";
  const added = addBlock(text, blockId(name), profileLines(url, profile.syntax, name));
  mkdirSync(dirname(profile.file), { recursive: true });
  if (added.text !== text) writeFileSync(profile.file, added.text);
  const newline = added.newline || (before?.profile?.file === profile.file && before.profile.newline);
  return { file: profile.file, newline };
}

/** The block's variables by value: "A and B=url, C=url/v1". */
function exportsText(url: string): string {
  const byValue = new Map<string, string[]>();
  for (const [k, v] of baseUrls(url)) byValue.set(v, [...(byValue.get(v) ?? []), k]);
  return [...byValue].map(([v, names]) => `${listed(names)}=${v}`).join(", ");
}

export async function enableCommand(p: Parsed, d: ServiceDeps): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("enable takes no FILE or command; serve's flags go straight to it");
  const name = instanceName(p);
  const port = numberFlag(p.values, "port", 8257, 1, 65535, true);
  const command = serviceArgv(p, d.platform, d.cli, port);
  const argv = command.argv;
  const manager = d.manager !== undefined ? d.manager : serviceManager(d.platform);
  if (manager === null) {
    d.say(`cliffcompaction: no service manager here (no systemd user session, no launchd); run the proxy yourself instead: ${argv.map(shq).join(" ")}`);
    return 1;
  }
  const instance: Instance = { name, port, argv, log: logFile(d.platform, name) };
  const env = d.platform.env;
  checkServiceFile(command, instance.log, manager.kind !== "launchd" && env.XDG_STATE_HOME ? "XDG_STATE_HOME" : "HOME", manager.kind);
  const { profile, codex } = await preflight(p, d, manager, name, port);
  const before = readState(d, name);
  for (const line of command.notes) d.say(line);
  try {
    manager.install(instance);
  } catch (e) {
    d.say(`cliffcompaction: ${(e as Error).message}`);
    return 1;
  }
  const status = await waitForProxy(port, () => manager.state(name).pid, d.waitMs ?? 15_000);
  const state: EnabledState = { name, port, argv, serviceFile: manager.file(name), log: instance.log };
  const url = `http://127.0.0.1:${port}`;
  if (status === null) {
    writeState(d, state);
    d.say(`cliffcompaction: ${manager.unitName(name)} (${manager.kind}) is installed but nothing answers on ${url}; its log: ${instance.log}. The shell was left alone.`);
    return 1;
  }
  d.say(`cliffcompaction: ${manager.unitName(name)} (${manager.kind}) runs the proxy on ${url} (pid ${String(status.pid)}); log: ${instance.log}`);
  if (profile !== null) {
    state.profile = wireProfile(profile, url, name, before);
    d.say(`cliffcompaction: ${profile.file} exports ${exportsText(url)} (new shells; this one: source ${profile.file})`);
  }
  if (codex !== null) {
    const { wiring, note } = writeCodexWiring(codex, url, name);
    wiring.newline ||= before?.codex?.newline === true;
    state.codex = wiring;
    d.say(`cliffcompaction: ${codex.file} ${note === null ? "sends Codex" : "has a provider for this proxy"} (${codex.signIn === "chatgpt" ? "ChatGPT sign-in" : "API key"})${note === null ? " through the proxy" : `; ${note}`}`);
  }
  writeState(d, state);
  return 0;
}

/** The record is the user's own: it names their files. */
function writeState(d: ServiceDeps, state: EnabledState): void {
  mkdirSync(stateDir(d.platform), { recursive: true, mode: 0o700 });
  chmodSync(stateDir(d.platform), 0o700);
  writeFileSync(statePath(d, state.name), JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  chmodSync(statePath(d, state.name), 0o600);
}

export function disableCommand(p: Parsed, d: ServiceDeps): number {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("disable takes no FILE or command");
  const name = instanceName(p);
  const state = readState(d, name);
  const manager = d.manager !== undefined ? d.manager : serviceManager(d.platform);
  const done: string[] = [];
  if (manager !== null && (state !== null || existsSync(manager.file(name)))) {
    manager.uninstall(name);
    done.push(`${manager.unitName(name)} stopped and removed`);
  }
  const chosen = typeof p.values["shell-profile"] === "string" ? resolve(p.values["shell-profile"]) : undefined;
  const profile = state?.profile ?? (shellProfile(d.platform.env, d.platform.platform, chosen) ?? undefined);
  if (profile !== undefined && existsSync(profile.file)) {
    const text = readFileSync(profile.file, "utf8");
    const after = removeBlock(text, blockId(name), "newline" in profile && profile.newline === true);
    if (after !== text) {
      writeFileSync(profile.file, after);
      done.push(`${profile.file} no longer sets the base URLs`);
    }
  }
  // Codex's file is touched only for an instance that wired it: another instance's blocks stay.
  if (state?.codex !== undefined && removeCodexWiring(state.codex, name)) done.push(`${state.codex.file} no longer names this proxy`);
  rmSync(statePath(d, name), { force: true });
  d.say(done.length === 0 ? `cliffcompaction: nothing to disable for "${name}"${state === null ? " (never enabled)" : ""}` : `cliffcompaction: ${done.join("; ")}`);
  return 0;
}

/**
 * `cliffcompaction run -- <agent>`: the proxy on a free loopback port, the agent started with its
 * base URLs pointing there, signals passed on, the agent's exit code returned, the proxy stopped.
 * The agent owns the terminal: the proxy's log goes to a file, named once before the agent starts.
 * Codex reads no base URL variable: it gets `-c` settings instead (codex.ts), chosen by how it is
 * signed in. OpenCode and Copilot CLI get their own settings (node/clients/opencode.ts, copilot.ts),
 * in variables only. No agent gets a base URL variable it does not read (agents.ts). Every upstream is
 * checked before anything listens, and named by where it came from. The agent never outlives the
 * proxy (watchdog.ts).
 */
import { missingCommand } from "./find-command.js";
import { spawn } from "node:child_process";
import { appendFileSync, closeSync, constants as fsConstants, mkdirSync, openSync } from "node:fs";
import { basename, join } from "node:path";
import { defaultStateDir } from "../node/admin-token.js";
import { constants, homedir } from "node:os";
import { headerLines } from "./observe/index.js";
import { ruleText } from "./decision/index.js";
import { upstreamUrl, type ProxyOptions } from "./options.js";
import { codexArgs, codexCommand, planCodex, type CodexCommand, type CodexPlan } from "../node/clients/index.js";
import { codexHome, codexSignIn, readCodexConfig } from "../node/clients/index.js";
import { BASE_URL_VARIABLES, baseUrlVariables, clientPlan, GEMINI_BASE_URLS, isGeminiCli, type ClientPlan } from "../node/clients/index.js";
import { startProxy, type RunningProxy } from "./http/index.js";
import { claudeTriggerLines, isClaudeCode } from "./claude-trigger.js";
import { watchAgent } from "./watchdog.js";

const UPSTREAM_LABEL: Record<string, string> = { anthropic: "Anthropic", openai: "OpenAI", chatgpt: "ChatGPT", gemini: "Gemini", vertex: "Vertex AI", codeassist: "Code Assist" };
/** Upstreams only Gemini CLI uses: named in the start line for it alone. */
const GOOGLE_UPSTREAMS = new Set(["gemini", "vertex", "codeassist"]);

export interface RunOptions extends ProxyOptions {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where each of `upstreams` came from (a flag, a variable, the config file), for error messages. */
  upstreamSources?: Partial<Record<string, string>>;
  /** One line to the user (stderr). */
  say?: (line: string) => void;
  /** Where the log goes (default: a new file in the user's state folder). */
  logPath?: string;
}

type Upstreams = Record<string, { url: string; source: string }>;

/**
 * The upstreams, each with where it came from: a flag (or the config file, or CLIFF_*), then what
 * the agent itself was told (Codex's settings, then the base URL variables), then the defaults.
 */
function userUpstreams(o: RunOptions, env: NodeJS.ProcessEnv, codex: CodexPlan | null, client: ClientPlan | null): Upstreams {
  const up: Upstreams = {};
  for (const [name, url] of Object.entries(o.upstreams ?? {})) if (url !== undefined) up[name] = { url, source: o.upstreamSources?.[name] ?? `the ${name} upstream` };
  if (codex?.upstream !== undefined) up[codex.upstream.name] ??= { url: codex.upstream.url, source: codex.upstream.source };
  for (const u of client?.upstreams ?? []) up[u.name] ??= { url: u.url, source: u.source };
  if (env.ANTHROPIC_BASE_URL) up.anthropic ??= { url: env.ANTHROPIC_BASE_URL, source: "ANTHROPIC_BASE_URL" };
  if (env.OPENAI_BASE_URL) up.openai ??= { url: env.OPENAI_BASE_URL, source: "OPENAI_BASE_URL" };
  for (const [variable, name] of GEMINI_BASE_URLS) if (env[variable]) up[name] ??= { url: env[variable]!, source: variable };
  return up;
}

/** A base URL that cannot be an upstream, named by where it came from; null when every one can. */
function badUpstream(up: Upstreams): string | null {
  for (const [name, { url, source }] of Object.entries(up)) {
    try {
      upstreamUrl(name, url, source);
    } catch (e) {
      return (e as Error).message;
    }
  }
  return null;
}

function codexPlan(o: RunOptions, env: NodeJS.ProcessEnv): { codex: CodexCommand; plan: CodexPlan } | null {
  const codex = codexCommand(o.command, o.args);
  if (codex === null) return null;
  return { codex, plan: planCodex(codex.args, codexSignIn(env), readCodexConfig(env), join(codexHome(env), "config.toml")) };
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The proxy is this loopback port itself: an upstream that would send every request round in a loop. */
function loopsBack(proxy: RunningProxy): string | null {
  for (const [name, u] of Object.entries(proxy.options.upstreams as Record<string, URL>)) {
    if (LOOPBACK.has(u.hostname) && Number(u.port || (u.protocol === "https:" ? 443 : 80)) === proxy.port) return `the ${name} upstream ${u.href} is this proxy itself; unset the base URL that points here`;
  }
  return null;
}

/**
 * A new log file of the user's own: `$XDG_STATE_HOME/cliffcompaction/logs/run-TIME-PID.log`, the
 * folder 0700, the file made 0600 and never one that was there (a name in /tmp could be another
 * user's file or symlink, made in advance).
 */
export function runLog(env: NodeJS.ProcessEnv): string {
  const dir = join(defaultStateDir(env, env.HOME || homedir()), "logs");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `run-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.log`);
  closeSync(openSync(file, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW, 0o600));
  return file;
}

/** One line on why run does not start, and its exit code. */
function refuse(say: (line: string) => void, line: string, code: number): number {
  say(`cliffcompaction: ${line}`);
  return code;
}

export async function runAgent(o: RunOptions): Promise<number> {
  const env = o.env ?? process.env;
  const say = o.say ?? ((line: string) => process.stderr.write(line + "\n"));
  const codex = codexPlan(o, env);
  const client = clientPlan(o.command, o.args, env);
  if (typeof client === "string") return refuse(say, client, 2);
  const missing = missingCommand(o.command, env);
  if (missing !== null) return refuse(say, missing, 127);
  const named = userUpstreams(o, env, codex?.plan ?? null, client);
  const bad = badUpstream(named);
  if (bad !== null) return refuse(say, bad, 2);
  const upstreams = Object.fromEntries(Object.entries(named).map(([k, v]) => [k, v.url])) as ProxyOptions["upstreams"];
  const logPath = o.logPath ?? runLog(env);
  // One user's own agent: its compaction requests are answered here unless told otherwise.
  const proxy = await startProxy({ ...o, answerCompaction: o.answerCompaction ?? true, host: "127.0.0.1", port: o.port ?? 0, upstreams, logFile: logPath, log: (line) => appendFileSync(logPath, line + "\n") });
  for (const line of headerLines(proxy.options, proxy.engine.config.minGainTokens)) appendFileSync(logPath, `${new Date().toISOString()} ${line}\n`);
  const loop = loopsBack(proxy);
  if (loop !== null) {
    await proxy.close();
    say(`cliffcompaction: ${loop}`);
    return 2;
  }
  const args = codex === null ? o.args : [...codex.codex.lead, ...codexArgs(codex.plan, proxy.url)];
  // Only the agent's own variables (agents.ts). Gemini CLI reads Google's three, for an API key, Vertex AI and a Google sign-in (Code Assist).
  const ours = Object.fromEntries(baseUrlVariables(o.command, o.args).map((k) => [k, proxy.url + BASE_URL_VARIABLES[k]]));
  const childEnv = { ...env, ...ours, ...client?.env(proxy.url) };
  const up = proxy.options.upstreams as Record<string, URL>;
  const gemini = isGeminiCli(o.command, o.args);
  const routes = Object.entries(up).filter(([name]) => gemini === GOOGLE_UPSTREAMS.has(name)).map(([name, u]) => `${UPSTREAM_LABEL[name] ?? name} → ${u.href}`).join(", ");
  say(`cliffcompaction: proxy on ${proxy.url} for ${basename(o.command)} (${routes}; ${ruleText(proxy.options.threshold)}); watch it: npx cliffcompaction watch --port ${proxy.port}; log: ${logPath}${proxy.archive ? `; archive: ${proxy.archive.dir}` : ""}`);
  if (codex?.plan.note !== undefined) say(`cliffcompaction: ${codex.plan.note}`);
  if (client?.note !== undefined) say(`cliffcompaction: ${client.note}`);
  for (const line of isClaudeCode(o.command, o.args) ? claudeTriggerLines(proxy.options.threshold, env, process.cwd(), o.args) : []) {
    say(`cliffcompaction: WARNING: ${line}`);
    appendFileSync(logPath, `${new Date().toISOString()} WARNING ${line}\n`);
  }
  return runChild(o.command, args, childEnv, proxy, say);
}

/** Runs the agent to its end, signals passed on; the proxy stops with it (and it with the proxy: watchdog.ts). */
function runChild(command: string, args: string[], childEnv: NodeJS.ProcessEnv, proxy: RunningProxy, say: (line: string) => void): Promise<number> {
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env: childEnv });
    const watchdog = child.pid === undefined ? null : watchAgent(child.pid);
    // Ctrl-C in a terminal reaches the agent directly (same process group): pass it on only when it did not.
    const forward = (signal: NodeJS.Signals) => () => {
      if (signal !== "SIGINT" || process.stdin.isTTY !== true) child.kill(signal);
    };
    const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    let finished = false;
    const finish = async (code: number): Promise<void> => {
      if (finished) return;
      finished = true;
      for (const [s, h] of handlers) process.off(s, h);
      watchdog?.release();
      await proxy.close();
      resolve(code);
    };
    child.on("error", (e) => {
      say(`cliffcompaction: cannot run ${command} (${(e as NodeJS.ErrnoException).code ?? e.message})`);
      void finish(127);
    });
    child.on("exit", (code, signal) => void finish(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0)));
  });
}

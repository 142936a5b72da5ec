/**
 * `cliffcompaction run -- <agent>`: the proxy on a free loopback port, the agent started with its
 * base URLs pointing there, signals passed on, the agent's exit code returned, the proxy stopped.
 * The agent owns the terminal: the proxy's log goes to a file, named once before the agent starts.
 */
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { constants } from "node:os";
import type { ProxyOptions } from "./options.js";
import type { UpstreamName } from "./routes.js";
import { startProxy } from "./server.js";

export interface RunOptions extends ProxyOptions {
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** One line to the user (stderr). */
  say?: (line: string) => void;
  /** Where the log goes (default: a new file in the temporary folder). */
  logPath?: string;
}

const isCodex = (command: string): boolean => /^codex(\.exe|\.cmd)?$/i.test(basename(command));
const CODEX_BASE = /^openai_base_url=(.+)$/;

/** A base URL the user already set for the agent: it becomes the upstream instead of being overridden. */
function userUpstreams(o: RunOptions, env: NodeJS.ProcessEnv): Partial<Record<UpstreamName, string>> {
  const up: Partial<Record<UpstreamName, string>> = { ...o.upstreams };
  if (up.anthropic === undefined && env.ANTHROPIC_BASE_URL) up.anthropic = env.ANTHROPIC_BASE_URL;
  if (up.openai === undefined && env.OPENAI_BASE_URL) up.openai = env.OPENAI_BASE_URL;
  if (up.openai === undefined && isCodex(o.command)) {
    for (let i = 0; i < o.args.length - 1; i++) {
      const m = o.args[i] === "-c" || o.args[i] === "--config" ? CODEX_BASE.exec(o.args[i + 1]) : null;
      if (m !== null) up.openai = m[1].replace(/^"(.*)"$/, "$1");
    }
  }
  return up;
}

/** Codex signed in with a ChatGPT account talks to chatgpt.com, which the proxy does not serve. */
function codexSignedInWithChatGpt(env: NodeJS.ProcessEnv): boolean {
  const file = join(env.CODEX_HOME ?? join(homedir(), ".codex"), "auth.json");
  if (env.OPENAI_API_KEY || !existsSync(file)) return false;
  try {
    const auth = JSON.parse(readFileSync(file, "utf8")) as { OPENAI_API_KEY?: unknown; tokens?: unknown; auth_mode?: unknown };
    return auth.auth_mode === "chatgpt" || (typeof auth.OPENAI_API_KEY !== "string" && auth.tokens != null);
  } catch {
    return false;
  }
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export async function runAgent(o: RunOptions): Promise<number> {
  const env = o.env ?? process.env;
  const say = o.say ?? ((line: string) => process.stderr.write(line + "\n"));
  const logPath = o.logPath ?? join(tmpdir(), `cliffcompaction-${new Date().toISOString().replace(/[:.]/g, "-")}-${process.pid}.log`);
  const upstreams = userUpstreams(o, env);
  const proxy = await startProxy({ ...o, host: "127.0.0.1", port: o.port ?? 0, upstreams, logFile: logPath, log: (line) => appendFileSync(logPath, line + "\n") });
  for (const name of ["anthropic", "openai"] as const) {
    const u = proxy.options.upstreams[name];
    if (LOOPBACK.has(u.hostname) && Number(u.port || (u.protocol === "https:" ? 443 : 80)) === proxy.port) {
      await proxy.close();
      say(`cliffcompaction: the ${name} upstream ${u.href} is this proxy itself; unset the base URL that points here`);
      return 2;
    }
  }
  const args = isCodex(o.command) ? ["-c", `openai_base_url="${proxy.url}/v1"`, ...o.args.filter((a, i, all) => !CODEX_BASE.test(a) || (all[i - 1] !== "-c" && all[i - 1] !== "--config"))] : o.args;
  const childEnv = { ...env, ANTHROPIC_BASE_URL: proxy.url, OPENAI_BASE_URL: `${proxy.url}/v1`, OPENAI_API_BASE: `${proxy.url}/v1` };
  say(`cliffcompaction: proxy on ${proxy.url} for ${basename(o.command)} (Anthropic → ${proxy.options.upstreams.anthropic.origin}, OpenAI → ${proxy.options.upstreams.openai.href}); log: ${logPath}`);
  if (isCodex(o.command) && codexSignedInWithChatGpt(env)) {
    say("cliffcompaction: Codex is signed in with a ChatGPT account, whose requests go to chatgpt.com, not through this proxy; sign in with an API key (codex login --with-api-key) to compact them");
  }
  return new Promise<number>((resolve) => {
    const child = spawn(o.command, args, { stdio: "inherit", env: childEnv });
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
      await proxy.close();
      resolve(code);
    };
    child.on("error", (e) => {
      say(`cliffcompaction: cannot run ${o.command} (${(e as NodeJS.ErrnoException).code ?? e.message})`);
      void finish(127);
    });
    child.on("exit", (code, signal) => void finish(code ?? 128 + (signal ? constants.signals[signal] ?? 0 : 0)));
  });
}

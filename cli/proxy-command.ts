/** `cliffcompaction serve` and `cliffcompaction run -- <agent>`: the CLI only starts the proxy host. */
import { runAgent, startProxy, type ProxyOptions } from "../proxy/index.js";
import { numberFlag, UsageError, type Parsed } from "./args.js";
import { configFile, configFrom } from "./settings.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** Upstreams by precedence: flag, config file, CLIFF_* environment, default. */
function upstreams(p: Parsed, env: NodeJS.ProcessEnv): ProxyOptions["upstreams"] {
  const file = typeof p.values.config === "string" ? configFile(p.values.config) : {};
  const pick = (flag: string, key: string, envName: string): string | undefined => {
    const v = p.values[flag] ?? file[key] ?? env[envName];
    if (v !== undefined && typeof v !== "string") throw new UsageError(`${key} must be a URL string`);
    return v;
  };
  const out: ProxyOptions["upstreams"] = {};
  const a = pick("anthropic-upstream", "anthropicUpstream", "CLIFF_ANTHROPIC_UPSTREAM");
  const o = pick("openai-upstream", "openaiUpstream", "CLIFF_OPENAI_UPSTREAM");
  if (a !== undefined) out.anthropic = a;
  if (o !== undefined) out.openai = o;
  return out;
}

function common(p: Parsed): ProxyOptions {
  return {
    config: configFrom(p.values),
    upstreams: upstreams(p, process.env),
    compactLimitBytes: numberFlag(p.values, "compact-limit-mb", 64, 0, 1 << 20, false) * 1024 * 1024,
    logJson: p.values["log-json"] === true,
  };
}

async function serve(p: Parsed): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("serve takes no FILE or command");
  const port = numberFlag(p.values, "port", 8257, 0, 65535, true);
  const host = typeof p.values.bind === "string" ? p.values.bind : "127.0.0.1";
  const options = common(p);
  const quiet = p.values.quiet === true;
  let proxy;
  try {
    proxy = await startProxy({ ...options, host, port, log: quiet ? undefined : (line) => process.stderr.write(line + "\n") });
  } catch (e) {
    throw new UsageError(`cannot listen on ${host}:${port} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!LOOPBACK.has(host)) process.stderr.write(`cliffcompaction: WARNING: listening on ${host}, not loopback: anyone who can reach it can use your API keys through it\n`);
  const up = proxy.options.upstreams;
  process.stderr.write(`cliffcompaction: proxy on ${proxy.url} (Anthropic → ${up.anthropic.href}, OpenAI → ${up.openai.href}); status: ${proxy.url}/_cliff/status\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await proxy.close();
  return 0;
}

export async function proxyCommand(p: Parsed): Promise<number> {
  if (p.command === "serve") return serve(p);
  if (p.positionals.length > 0) throw new UsageError(`run takes its command after --: cliffcompaction run -- ${p.positionals.join(" ")}`);
  const [command, ...args] = p.rest;
  if (command === undefined) throw new UsageError("run needs a command after --, e.g. cliffcompaction run -- claude");
  return runAgent({ ...common(p), command, args });
}



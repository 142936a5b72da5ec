/** `cliffcompaction serve` and `cliffcompaction run -- <agent>`: the CLI only starts the proxy host. */
import { runAgent, startProxy, type ProxyOptions, type RunningProxy } from "../../proxy/index.js";
import { headerLines } from "../../proxy/observe/index.js";
import { numberFlag, StartError, UsageError, type Parsed } from "../args.js";
import { allowedHosts, idleSettings, percentThreshold, priceSettings, proxySwitches, upstreamSettings, windowSettings } from "./settings.js";
import { gainSet, GAIN_SHARE, hostGain } from "../host-defaults.js";
import { configOf, settingLayers } from "../settings.js";
import { AdminTokenError } from "../../node/admin-token.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

function common(p: Parsed): ProxyOptions & { upstreamSources: Record<string, string> } {
  const { values, env } = percentThreshold(p.values, process.env);
  const layers = settingLayers(values, env);
  const up = upstreamSettings(layers);
  const config = configOf(layers);
  return {
    config: hostGain(layers)(config),
    // A threshold sized from each model's window takes its own tenth as the gain.
    minGainShare: gainSet(layers, config) ? undefined : 1 / GAIN_SHARE,
    upstreams: up.upstreams,
    upstreamSources: up.sources,
    allowedHosts: allowedHosts(layers, p),
    prices: priceSettings(layers),
    ...windowSettings(layers),
    ...proxySwitches(layers, p.command === "run" ? "run" : "serve"),
    ...idleSettings(layers),
    compactLimitBytes: numberFlag(p.values, "compact-limit-mb", 64, 0, 1 << 20, false) * 1024 * 1024,
    logJson: p.values["log-json"] === true,
    adminTokenFile: typeof p.values["admin-token-file"] === "string" ? p.values["admin-token-file"] : undefined,
  };
}

/** Why the proxy could not listen, and for a port in use, how to find who holds it or take another. */
function listenError(host: string, port: number, e: unknown): StartError {
  const code = (e as NodeJS.ErrnoException).code;
  const hint = code === "EADDRINUSE" ? `: another program holds it; cliffcompaction status${port === 8257 ? "" : ` --port ${port}`} says which, or pass --port N` : "";
  return new StartError(`cannot listen on ${host}:${port} (${code ?? (e as Error).message}${hint})`);
}

async function serve(p: Parsed): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("serve takes no FILE or command");
  const port = numberFlag(p.values, "port", 8257, 0, 65535, true);
  const host = typeof p.values.bind === "string" ? p.values.bind : "127.0.0.1";
  const options = common(p);
  const drainMs = numberFlag(p.values, "drain-seconds", LOOPBACK.has(host) ? 0 : 2, 0, 3600, false) * 1000;
  const quiet = p.values.quiet === true;
  let proxy;
  try {
    proxy = await startProxy({ ...options, host, port, log: quiet ? undefined : (line) => process.stderr.write(line + "\n") });
  } catch (e) {
    if (e instanceof AdminTokenError) throw new StartError(e.message);
    throw listenError(host, port, e);
  }
  if (!LOOPBACK.has(host)) process.stderr.write(`cliffcompaction: WARNING: listening on ${host}, not loopback: anyone who can reach it can use your API keys through it\n`);
  const up = proxy.options.upstreams;
  process.stderr.write(`cliffcompaction: proxy on ${proxy.url} (Anthropic → ${up.anthropic.href}, OpenAI → ${up.openai.href}, ChatGPT → ${up.chatgpt.href}, Gemini → ${up.gemini.href}, Vertex AI → ${up.vertex.href}, Code Assist → ${up.codeassist.href}); status: ${proxy.url}/_cliff/status; watch: cliffcompaction watch${proxy.port === 8257 ? "" : ` --port ${proxy.port}`}${proxy.archive ? `; archive: ${proxy.archive.dir}` : ""}\n`);
  for (const line of headerLines(proxy.options, proxy.engine.config.minGainTokens)) process.stderr.write(`cliffcompaction: ${line}\n`);
  await stopOnSignal(proxy, drainMs);
  return 0;
}

/**
 * SIGTERM (a service manager, a container's stop, a rolling restart) drains: the health check
 * fails first, then what is in flight finishes (proxy/http/drain.ts). SIGINT, or a second signal,
 * stops at once.
 */
function stopOnSignal(proxy: RunningProxy, delayMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const now = () => void proxy.close().then(resolve);
    process.on("SIGINT", now);
    process.on("SIGTERM", () => {
      if (stopping) return now();
      stopping = true;
      process.stderr.write("cliffcompaction: SIGTERM: draining (health fails now; requests in flight finish; a second signal stops at once)\n");
      void proxy.drain({ delayMs }).then(() => proxy.close()).then(resolve);
    });
  });
}

export async function proxyCommand(p: Parsed): Promise<number> {
  if (p.command === "serve") return serve(p);
  if (p.positionals.length > 0) throw new UsageError(`run takes its command after --: cliffcompaction run -- ${p.positionals.join(" ")}`);
  const [command, ...args] = p.rest;
  if (command === undefined) throw new UsageError("run needs a command after --, e.g. cliffcompaction run -- claude");
  const port = p.values.port === undefined ? undefined : numberFlag(p.values, "port", 0, 0, 65535, true);
  try {
    return await runAgent({ ...common(p), port, command, args });
  } catch (e) {
    if (e instanceof AdminTokenError) throw new StartError(e.message);
    if ((e as NodeJS.ErrnoException).syscall === "listen") throw listenError("127.0.0.1", port ?? 0, e);
    throw e;
  }
}



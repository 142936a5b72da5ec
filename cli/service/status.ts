/**
 * `cliffcompaction status`: is the service installed and running (and how did it last exit), does
 * the proxy answer (and with what settings, and is it the version installed), is the shell wired,
 * and is the port held by someone else. Exit 0 when the proxy answers, 1 when it does not.
 */
import { existsSync, readFileSync } from "node:fs";
import { numberFlag, UsageError, type Parsed } from "../args.js";
import { instanceName, readState, type ServiceDeps } from "./enable.js";
import { findBlock } from "../../node/clients/index.js";
import { adminToken, listenerHolds } from "../admin-auth.js";
import { installedVersion, staleWarning } from "./installed-version.js";
import { probe, type Probe } from "./probe.js";
import { serviceManager } from "./manager.js";
import type { ServiceManager, ServiceState } from "./service.js";
import { blockId, exportedNames, listed, shellProfile } from "../../node/clients/index.js";
import { inertCell } from "../terminal-text.js";
import { claudeStatusWarnings } from "../../proxy/claude-trigger.js";

const n = (v: unknown): string => (typeof v === "number" ? v.toLocaleString("en-US") : String(v));
const count = (v: unknown, what: string): string => `${n(v)} ${what}${v === 1 ? "" : "s"}`;

function serviceLine(manager: ServiceManager | null, name: string): { line: string; state: ServiceState | null } {
  if (manager === null) return { line: "no service manager here (no systemd user session, no launchd)", state: null };
  const s = manager.state(name);
  const unit = `${manager.unitName(name)} (${manager.kind})`;
  if (!s.installed) return { line: `${unit}: not installed (cliffcompaction enable${name === "default" ? "" : ` --name ${name}`} installs it)`, state: s };
  const run = s.running ? `running${s.pid !== undefined ? `, pid ${s.pid}` : ""}` : "installed, not running";
  return { line: `${unit}: ${run}${s.lastExit !== undefined ? `, last exit ${s.lastExit}` : ""}; ${s.file}`, state: s };
}

/** What the proxy's /_cliff/status says, in one line. */
export function proxyLine(url: string, status: Record<string, unknown>): string {
  const store = status.store as { entries?: number; bytes?: number } | undefined;
  const parts = [`cliffcompaction ${status.version ?? "(version unknown)"}`];
  if (typeof status.thresholdText === "string") parts.push(status.thresholdText);
  else if (typeof status.thresholdShare === "number") {
    const of = typeof status.contextWindow === "number" ? `a ${n(status.contextWindow)}-token window` : "the model's window";
    parts.push(`threshold ${Math.round(status.thresholdShare * 1000) / 10}% of ${of}`);
  } else if (status.thresholdTokens !== undefined) parts.push(`threshold ${n(status.thresholdTokens)} tokens`);
  if (typeof status.profile === "string") parts.push(`${status.profile} profile`);
  if (status.keepRecent !== undefined) parts.push(`keepRecent ${n(status.keepRecent)}`);
  const sessions = Array.isArray(status.sessions) ? status.sessions.length : status.sessions;
  if (sessions !== undefined) parts.push(count(sessions, "session"));
  if (store !== undefined) parts.push(`store ${n(store.entries)} ${store.entries === 1 ? "entry" : "entries"} (${n(Math.round((store.bytes ?? 0) / 1024))} KiB)`);
  parts.push(count(status.requests, "request"));
  const recalls = status.recalls as { calls?: number; tokens?: number } | undefined;
  if (recalls !== undefined) parts.push(count(recalls.calls ?? 0, "recall") + ((recalls.calls ?? 0) > 0 ? ` (${n(recalls.tokens ?? 0)} tokens)` : ""));
  return `${url} answers: ${parts.join(", ")}${status.logFile ? `; log ${String(status.logFile)}` : ""}`;
}

/** Per model the proxy has seen: its threshold and why, and a warning when an explicit one passes the model's price tier. */
export function modelLines(status: Record<string, unknown>): string[] {
  const windows = (status.windows ?? {}) as Record<string, { thresholdTokens?: number; window?: number; source?: string; why?: string; reason?: string; warning?: string }>;
  const out: string[] = [];
  for (const [model, w] of Object.entries(windows)) {
    out.push(`model ${model || "(none)"}: threshold ${n(w.thresholdTokens)} tokens (${w.reason ?? "share"}: ${w.why ?? `of a ${n(w.window)}-token window`}; window ${n(w.window)} from ${w.source === "anthropic-beta" ? "the 1M beta header" : w.source === "context-window" ? "--context-window" : w.source === "default" ? "no table entry: 128,000 assumed" : "the model table"})`);
    if (w.warning !== undefined) out.push(`WARNING: ${w.warning}`);
  }
  return out;
}

/** What the proxy does with Anthropic's message threads, and how many it has seen. */
export function threadsLine(status: Record<string, unknown>): string[] {
  if (typeof status.threadsText !== "string") return [];
  const seen = status.threads === "pass" ? `${n(status.threadsPassed ?? 0)} passed` : `${n(status.threadsDeclined ?? 0)} declined`;
  return [`${status.threadsText}; ${seen}`];
}

function portLines(url: string, port: number, p: Probe, service: ServiceState | null): string[] {
  if (p.kind === "free") return [`nothing answers on ${url}`];
  if (p.kind === "other") return [`WARNING: another process holds port ${port} (${p.detail}); it is not a cliffcompaction proxy`];
  const lines = [proxyLine(url, p.status), ...threadsLine(p.status), ...modelLines(p.status)];
  if (service?.running === true && service.pid !== undefined && p.status.pid !== undefined && p.status.pid !== service.pid) {
    lines.push(`WARNING: port ${port} is held by pid ${String(p.status.pid)}, not by the service (pid ${service.pid})`);
  } else if (service !== null && service.installed && !service.running) {
    lines.push(`WARNING: the service is not running, yet pid ${String(p.status.pid)} holds port ${port}`);
  }
  return lines;
}

function shellLine(d: ServiceDeps, name: string, file: string | undefined, url: string): string {
  const profile = file ?? shellProfile(d.platform.env, d.platform.platform)?.file;
  if (profile === undefined) return `not wired (cannot tell which profile ${d.platform.env.SHELL ?? "the shell"} reads)`;
  const text = existsSync(profile) ? readFileSync(profile, "utf8") : "";
  const at = findBlock(text, blockId(name));
  if (at === null) return `${profile}: not wired`;
  const here = d.platform.env.ANTHROPIC_BASE_URL === url ? "this shell too" : `this shell not yet: source ${profile}`;
  // What the block says, not what this version would write: a block from before Gemini CLI was wired lacks its variables.
  return `${profile} exports ${listed(exportedNames(text.slice(at[0], at[1])))} for ${url} (${here})`;
}

/**
 * The counts need no token on loopback, so none is sent. A proxy of ours bound beyond loopback asks
 * for it even here: then it goes only once the listener proved it holds the same token.
 */
async function ask(p: Parsed, d: ServiceDeps, port: number, url: string): Promise<{ answer: Probe; note: string | null }> {
  const answer = await probe(port, 1000);
  if (answer.kind !== "ours" || answer.status.version !== undefined) return { answer, note: null };
  const token = adminToken(p, url, d.platform.env);
  if (token === undefined) return { answer, note: null };
  if ((await listenerHolds(url, token, 3000)) !== true) return { answer, note: `WARNING: the listener on port ${port} did not prove that it holds your admin token; the token was not sent` };
  return { answer: await probe(port, 1000, { authorization: `Bearer ${token}` }), note: null };
}

export async function statusCommand(p: Parsed, d: ServiceDeps): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("status takes no FILE or command");
  const name = instanceName(p);
  const state = readState(d, name);
  const port = p.values.port !== undefined ? numberFlag(p.values, "port", 8257, 1, 65535, true) : state?.port ?? 8257;
  const url = `http://127.0.0.1:${port}`;
  const manager = d.manager !== undefined ? d.manager : serviceManager(d.platform);
  const service = serviceLine(manager, name);
  const { answer, note } = await ask(p, d, port, url);
  const proxyLines = portLines(url, port, answer, service.state);
  if (note !== null) proxyLines.push(note);
  const stale = answer.kind === "ours" && state !== null ? staleWarning(answer.status.version, installedVersion(state.argv[1] ?? ""), name) : null;
  if (stale !== null) proxyLines.push(stale);
  // The listener's answer is anyone's text (whoever holds the port): shown, never acted on.
  const rows: [string, string][] = [["service", service.line], ...proxyLines.map((l): [string, string] => ["proxy", inertCell(l)])];
  // Claude Code's own trigger, from this user's settings, against the thresholds the proxy states.
  if (answer.kind === "ours") for (const w of claudeStatusWarnings(answer.status, d.platform.env, process.cwd())) rows.push(["claude", `WARNING: ${w}`]);
  rows.push(["shell", shellLine(d, name, state?.profile?.file, url)]);
  if (state?.codex !== undefined) rows.push(["codex", `${state.codex.file}: through the proxy (${state.codex.signIn === "chatgpt" ? "ChatGPT sign-in" : "API key"})`]);
  if (state !== null) rows.push(["log", state.log]);
  for (const [k, v] of rows) d.say(`${k.padEnd(9)}${v}`);
  return answer.kind === "ours" ? 0 : 1;
}

/**
 * The command line: one table of flags (which commands take each, its value, its default, its
 * help line), a parser that reads a value flag's next word whatever it looks like (so
 * `--keep-recent -1` is a value, then refused with the accepted range), and the help texts.
 */
import { CONFIG_KEYS, CONFIG_KINDS, DEFAULT_CONFIG, PROFILES, type Config, type Profile } from "../core/index.js";

export const COMMANDS = ["compact", "simulate", "report", "serve", "run", "enable", "disable", "restart", "status", "watch"] as const;
export type Command = (typeof COMMANDS)[number];

/** A problem with how the command was called; printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

/** A right call that cannot start here (the port is taken, the admin token is unusable): printed alone, exit code 2. */
export class StartError extends Error {}

export interface Flag {
  name: string;
  /** The value's placeholder; absent for a switch. */
  value?: string;
  commands: readonly Command[];
  help: string;
  /** Shown as "(default …)". */
  default?: string;
  short?: string;
}

const SESSION: Command[] = ["compact", "simulate", "report"];
// The commands that compact or proxy: every setting applies to them. `enable` takes serve's flags (see appliesTo).
const ALL: Command[] = ["compact", "simulate", "report", "serve", "run"];
const SERVICE: Command[] = ["enable", "disable", "restart", "status"];
// watch only reads a running proxy.
const WATCH: Command[] = ["watch"];
export const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());

const CONFIG_HELP: Partial<Record<keyof Config, string>> = {
  keepRecent: "newest turns kept verbatim",
  thoughtMaxChars: "cap assistant text in the summary (0 = unlimited)",
  cmdMaxChars: "cap tool-call signatures",
  resultMaxChars: "keep tool results up to N characters",
  humanMaxChars: "cap human text",
  thinkingMaxChars: "cap thinking text (0 = unlimited)",
  maxSummaryRatio: "AgentParley: summary budget as a fraction of the threshold",
  focusResultMaxChars: "focus excerpt characters from one dropped result",
  focusTotalMaxChars: "focus excerpt characters in all",
  filesMaxPaths: "file paths a summary carries forward",
  filesMaxChars: "characters of file paths a summary carries forward",
  storeMaxEntries: "proxy: cliffs kept for reuse",
  storeMaxBytes: "proxy: bytes of cliffs kept for reuse",
  profile: "group of defaults: recall (the recall rules) or reference (the reference's output, byte for byte, but for Claude Code's re-read stubs: --keep-stubbed-reads)",
  keepStubbedReads: "a kept Claude Code stub (\"file unchanged since your last Read\") keeps that file's newest whole Read the cliff dropped, up to --pin-max-chars; in every profile, the reference too",
  keepEditedFiles: "recall: a kept Edit/Write result saying the file is in context keeps the file's newest text the cliff dropped",
  keepThinking: "keep thinking as text in the summary",
  strict: "cut the summary itself when still over the threshold",
  appendFileLists: "append the files read and modified to the summary",
  shadow: "report what would happen, send the original",
  recallTool: "proxy, Pi/OMP: a compacted request offers the model cliff_recall, answered from the history (--no-recall-tool: not offered)",
  refs: "name each dropped tool result and cut call in the summary by its ref, for the recall tool to give back (only with --recall-tool)",
  archiveDir: "the export's folder (--archive DIR sets it and turns the export on)",
  archiveMaxBytes: "bound on the export folder's bytes, least recently written out first",
  minGainTokens: "after a cliff, the next waits for N tokens of growth past what it left",
  calibrate: "proxy: scale the estimate per session by the provider's input tokens (changed only at a cliff)",
  focusContextLines: "lines kept either side of a focus excerpt's matching line",
  editMaxChars: "recall rule: an edit or write call shows its path and new text up to N characters (0 = off)",
  errorTailMaxChars: "recall rule: a failed result too long to keep keeps its last lines up to N characters (0 = off)",
  planMaxChars: "recall rule: the newest plan (TodoWrite, update_plan, a todo tool) kept whole up to N characters (0 = off)",
  tailFocus: "recall rule: the kept tail's distinctive words act as a focus on the results a cliff drops",
  keepResultsOf: "pins: results of tools whose name matches a glob (mcp__*) kept whole up to --pin-max-chars",
  keepFiles: "pins: reads of files whose path matches a glob (*.md) kept whole up to --pin-max-chars",
  pinMaxChars: "characters a pinned result or read keeps",
  workingSetFileMaxChars: "recall rule, the working set: each file's newest read or whole write keeps up to N characters, older copies superseded (0 = off)",
  workingSetMaxChars: "the working set's characters in all, newest files first",
  backRefMaxChars: "recall rule, back-references: a dropped result the next model turns name keeps the naming lines, up to N characters a result (0 = off)",
  backRefTotalMaxChars: "back-references' characters in all, newest first",
  askedTwiceMaxChars: "recall rule, asked twice: a call the history repeats (a file read again, a tool with the same arguments) keeps its newest result up to N characters (0 = off)",
  askedTwiceTotalMaxChars: "asked-twice results' characters in all, newest first",
  outlineFileMaxChars: "recall rule, outlines: a file read or written whose newest copy the summary does not hold whole keeps its defining lines (functions, classes, types, headings), up to N characters a file (0 = off)",
  outlineMaxChars: "outlines' characters in all, newest files first",
  listingMaxChars: "recall rule, listings: a dropped result that is mostly paths or path:line: hits keeps its distinct paths and anchors, up to N characters (0 = off)",
};

// Defaults a host sets (cli/host-defaults.ts), shown as the help says them.
const SHOWN_DEFAULT: Partial<Record<keyof Config, string>> = { minGainTokens: "a tenth of the threshold; 0 for compact", archiveDir: "the host's" };

/** A key's value under a profile: the profile's own, else the base default. */
const underProfile = (k: keyof Config, p: Profile): unknown => PROFILES[p][k] ?? DEFAULT_CONFIG[k];
const OTHER_PROFILES = (Object.keys(PROFILES) as Profile[]).filter((p) => p !== DEFAULT_CONFIG.profile);

/** A value flag's default as the default profile has it, then each other profile that differs ("0; recall profile: 16000"). */
function profileDefault(k: keyof Config): string {
  const own = underProfile(k, DEFAULT_CONFIG.profile);
  const others = OTHER_PROFILES.filter((p) => shown(underProfile(k, p)) !== shown(own)).map((p) => `; ${p} profile: ${shown(underProfile(k, p))}`);
  return shown(own) + others.join("");
}

/** A switch's state by profile: " (on by default)", " (on in the recall profile)", " (on by default; off in the recall profile)". */
function switchState(k: keyof Config): string {
  const on = underProfile(k, DEFAULT_CONFIG.profile) === true;
  const differ = OTHER_PROFILES.filter((p) => (underProfile(k, p) === true) !== on).map((p) => `${on ? "off" : "on"} in the ${p} profile`);
  const parts = [...(on ? ["on by default"] : []), ...differ];
  return parts.length === 0 ? "" : ` (${parts.join("; ")})`;
}

/** The flag of a config key: its kebab-case name (thresholdTokens is --threshold). */
export const configFlagName = (k: keyof Config): string => (k === "thresholdTokens" ? "threshold" : kebab(k));

const PLACEHOLDER: Record<string, string> = { int: "N", ratio: "X", enum: "NAME", list: "A,B", string: "TEXT" };
// Keys whose setting means nothing on the command line (a host steps aside), or that is already a flag below.
const NO_FLAG: readonly (keyof Config)[] = ["enabled", "thresholdTokens"];
const proxyOnly = (k: keyof Config): boolean => k.startsWith("store") || k === "appendFileLists" || k === "calibrate";

function shown(v: unknown): string {
  return Array.isArray(v) ? (v.length === 0 ? "none" : v.join(",")) : v === "" ? "none" : String(v);
}

// Every config key as a flag named after it: a value flag, or a switch and its --no- form.
const CONFIG_FLAGS: Flag[] = CONFIG_KEYS.filter((k) => NO_FLAG.indexOf(k) < 0).flatMap((k): Flag[] => {
  const commands = proxyOnly(k) ? (["serve", "run"] as Command[]) : ALL;
  const help = CONFIG_HELP[k] ?? k;
  if (CONFIG_KINDS[k] !== "bool") return [{ name: configFlagName(k), value: k === "archiveDir" ? "DIR" : PLACEHOLDER[CONFIG_KINDS[k]], commands, help, default: SHOWN_DEFAULT[k] ?? profileDefault(k) }];
  // --archive names its folder: an export is asked for where it goes.
  if (k === "archive") {
    return [
      { name: "archive", value: "DIR", commands, help: "also write every dropped tool result and cut call to DIR, named by its hash (off by default; the summary names each by its ref either way)" },
      { name: "no-archive", commands, help: "turn the export off (when a config file or CLIFF_ARCHIVE turned it on)" },
    ];
  }
  return [
    { name: configFlagName(k), commands, help: help + switchState(k) },
    { name: "no-" + configFlagName(k), commands, help: `turn off --${configFlagName(k)}` },
  ];
});

export const FLAGS: Flag[] = [
  { name: "help", short: "h", commands: [...ALL, ...SERVICE, ...WATCH], help: "print this text" },
  { name: "version", short: "v", commands: [...ALL, ...SERVICE, ...WATCH], help: "print the version" },
  { name: "format", value: "NAME", commands: SESSION, help: "read FILE as this format instead of detecting it" },
  { name: "json", commands: ["compact", "simulate"], help: "print a machine-readable result instead of the report" },
  { name: "lines", value: "N", commands: ["compact"], help: "summary lines to print (0 = all)", default: "30" },
  { name: "host", value: "agentparley", commands: ["compact"], help: "show exactly what the AgentParley plugin would return" },
  { name: "sandbox", value: "quickjs", commands: ["compact"], help: "with --host agentparley: run the built plugin bundle in QuickJS" },
  { name: "focus", value: "TEXT", commands: ["compact", "report"], help: "a /compact focus: dropped results that mention it keep matching lines" },
  { name: "config", value: "FILE", commands: ALL, help: "JSON config (camelCase or snake_case keys; also CLIFF_CONFIG); CLIFF_* variables and flags override it" },
  { name: "threshold", value: "N", commands: ALL, help: "compaction threshold in estimated tokens; serve and run also take a share of the model's window (60%)", default: `each model's own: below its long-context price tier, else half its window, at most 200,000; compact: ${DEFAULT_CONFIG.thresholdTokens}` },
  { name: "threshold-share", value: "X", commands: ["serve", "run"], help: "the threshold as a share of the model's window, in (0, 1] (also CLIFF_THRESHOLD_SHARE; --threshold 60% says the same)", default: "each model's default" },
  { name: "model-thresholds", value: "GLOB=T,…", commands: ["serve", "run", "simulate", "report"], help: "thresholds by model id glob, tokens or a share of the window (claude-*=40%,gpt-4.1*=150000); the first glob that matches wins over --threshold (also CLIFF_MODEL_THRESHOLDS, or an object in the config file)", default: "none" },
  { name: "context-window", value: "N", commands: ["serve", "run", "simulate", "report"], help: "assume this window for every model instead of the table's (also CLIFF_CONTEXT_WINDOW)", default: "the model's; 128000 when unknown" },
  { name: "idle-cliff", value: "DURATION", commands: ["serve", "run", "simulate", "report"], help: "after a gap longer than this (5m, the provider's cache lifetime) cliff the next request even below the threshold, from --idle-cliff-floor of it (also CLIFF_IDLE_CLIFF)", default: "off" },
  { name: "idle-cliff-floor", value: "X", commands: ["serve", "run", "simulate", "report"], help: "with --idle-cliff: the share of the threshold a request needs to be cliffed after a gap (also CLIFF_IDLE_CLIFF_FLOOR)", default: "0.5" },
  { name: "cache-ttl", value: "DURATION", commands: ["simulate", "report"], help: "how long the provider's prompt cache lives between requests (the transcript's timestamps decide what expired)", default: "the provider's: 5m" },
  { name: "debug-dir", value: "DIR", commands: ["serve", "run"], help: "write one JSON file per compactable request here: messages in and out, never a header (also CLIFF_DEBUG_DIR)" },
  ...CONFIG_FLAGS,
  { name: "drop-thinking", commands: ALL, help: "leave thinking out of the summary (as --no-keep-thinking)" },
  { name: "svg", value: "FILE", commands: ["simulate"], help: "write the sawtooth chart as SVG" },
  { name: "csv", value: "FILE", commands: ["simulate"], help: "write one row per request as CSV" },
  { name: "cache-discount", value: "X", commands: ["simulate", "report"], help: "price of a cached input token relative to an uncached one, in [0, 1]", default: "0.1" },
  { name: "output", short: "o", value: "FILE", commands: ["report"], help: "where to write the HTML report", default: "report.html" },
  { name: "port", value: "N", commands: ["serve", "run", "enable", "status", "watch"], help: "port to listen on (serve and run: 0 picks a free one, run's default; watch: the proxy's port on 127.0.0.1)", default: "8257" },
  { name: "proxy", value: "URL", commands: ["watch"], help: "the proxy to watch, when not on 127.0.0.1 (http://HOST:PORT)" },
  { name: "admin-token-file", value: "FILE", commands: ["serve", "run", "watch", "status"], help: "the token /_cliff/ content asks for (also CLIFF_ADMIN_TOKEN_FILE); serve and run make it there when missing", default: "$XDG_STATE_HOME/cliffcompaction/admin-token" },
  { name: "once", commands: ["watch"], help: "print one plain-text frame and exit" },
  { name: "web", commands: ["watch"], help: "print the address of the proxy's web view (sessions, cliffs and the bill in a browser) and exit" },
  { name: "name", value: "NAME", commands: SERVICE, help: "a second instance: its own service, port and log", default: "default" },
  { name: "no-env", commands: ["enable"], help: "leave the shell profile alone (no ANTHROPIC_BASE_URL / OPENAI_BASE_URL / Gemini CLI's variables)" },
  { name: "shell-profile", value: "FILE", commands: ["enable", "disable"], help: "the profile to wire instead of the one $SHELL reads (bash, zsh, fish)" },
  { name: "codex", commands: ["enable"], help: "also point Codex at the proxy in ~/.codex/config.toml (ChatGPT sign-in or API key)" },
  { name: "bind", value: "ADDRESS", commands: ["serve"], help: "address to listen on; anything but loopback exposes the proxy (a warning says so)", default: "127.0.0.1" },
  { name: "anthropic-upstream", value: "URL", commands: ["serve", "run"], help: "where Anthropic requests go (also CLIFF_ANTHROPIC_UPSTREAM; run: ANTHROPIC_BASE_URL)", default: "https://api.anthropic.com" },
  { name: "openai-upstream", value: "URL", commands: ["serve", "run"], help: "where OpenAI requests go (also CLIFF_OPENAI_UPSTREAM; run: OPENAI_BASE_URL)", default: "https://api.openai.com/v1" },
  { name: "chatgpt-upstream", value: "URL", commands: ["serve", "run"], help: "where /backend-api/… requests (Codex signed in with ChatGPT) go (also CLIFF_CHATGPT_UPSTREAM)", default: "https://chatgpt.com" },
  { name: "gemini-upstream", value: "URL", commands: ["serve", "run"], help: "where Gemini API requests (…/models/M:generateContent) go (also CLIFF_GEMINI_UPSTREAM; run: GOOGLE_GEMINI_BASE_URL)", default: "https://generativelanguage.googleapis.com" },
  { name: "vertex-upstream", value: "URL", commands: ["serve", "run"], help: "where Vertex AI requests (…/projects/P/locations/L/…) go (also CLIFF_VERTEX_UPSTREAM; run: GOOGLE_VERTEX_BASE_URL)", default: "https://aiplatform.googleapis.com" },
  { name: "codeassist-upstream", value: "URL", commands: ["serve", "run"], help: "where Code Assist requests (…/v1internal:…, Gemini CLI signed in with Google) go (also CLIFF_CODEASSIST_UPSTREAM; run: CODE_ASSIST_ENDPOINT)", default: "https://cloudcode-pa.googleapis.com" },
  { name: "allowed-hosts", value: "A,B", commands: ["serve", "run"], help: "Host names the proxy answers to besides its own addresses (also --allow-host NAME, CLIFF_ALLOWED_HOSTS)", default: "none" },
  { name: "allow-host", value: "NAME", commands: ["serve", "run"], help: "one more Host name the proxy answers to (a proxy behind a load balancer)" },
  { name: "no-preserved-thinking", commands: ["serve", "run"], help: "leave thinking alone on changed requests to models that run Anthropic's prefix check (no drop_block, no beta; also CLIFF_PRESERVED_THINKING=false)" },
  { name: "answer-compaction", commands: ["serve", "run"], help: "answer a client's own compaction request (Claude Code's /compact and auto-compaction, Codex's compaction turn) with the cliff's summary, no model asked (run's default; also CLIFF_ANSWER_COMPACTION=true)" },
  { name: "no-answer-compaction", commands: ["serve", "run"], help: "send those compaction requests to the model untouched, never cliffed (serve's default)" },
  { name: "pass-threads", commands: ["serve", "run"], help: "send requests in Anthropic's message threads on untouched, never compacted (default: declined with the API's 400 thread_unsupported_request, so the client sends the whole conversation; also CLIFF_PASS_THREADS=true)" },
  { name: "no-pass-threads", commands: ["serve", "run"], help: "decline message threads (the default)" },
  { name: "no-remote-compaction", commands: ["serve", "run"], help: "the OpenAI upstream cannot run remote compaction (not OpenAI's API nor a gateway in front of it): with --answer-compaction, a compaction_trigger is answered here (also CLIFF_REMOTE_COMPACTION=false)" },
  { name: "no-fallback", commands: ["serve", "run"], help: "relay a refusal of a compacted request instead of sending the client's own request (also CLIFF_FALLBACK=false)" },
  { name: "drain-seconds", value: "N", commands: ["serve"], help: "on SIGTERM the health check fails for N seconds before the proxy stops listening (a load balancer takes it out), then requests in flight finish", default: "2 beyond loopback, 0 on loopback" },
  { name: "compact-limit-mb", value: "N", commands: ["serve", "run"], help: "larger request bodies stream through uncompacted", default: "64" },
  { name: "quiet", commands: ["serve"], help: "no log lines" },
  { name: "log-json", commands: ["serve", "run"], help: "log lines as JSON" },
];

/** Whether a flag applies to a command: `enable` takes its own flags and every one of serve's (the service runs serve with them). */
export const appliesTo = (flag: Flag, command: Command): boolean => flag.commands.includes(command) || (command === "enable" && flag.commands.includes("serve"));

export interface Parsed {
  command: Command | undefined;
  positionals: string[];
  values: Record<string, string | boolean>;
  /** What follows `--` (run's command). */
  rest: string[];
  /** Every value a value flag was given, in order (a flag such as --allow-host may be given more than once). */
  repeated: Record<string, string[]>;
}

/** Edit distance, an adjacent swap counting as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The candidate nearest a mistyped word: within two edits (one under five letters), else the one it begins (three letters at least). */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const ranked = candidates.map((c) => [editDistance(w, c), c] as const).filter(([d]) => d <= (w.length < 5 ? 1 : 2)).sort((x, y) => x[0] - y[0]);
  if (ranked.length > 0) return ranked[0][1];
  const starting = w.length >= 3 ? candidates.filter((c) => c.startsWith(w)) : [];
  return starting.length === 1 ? starting[0] : undefined;
}

/** " (did you mean --x?)" for an unknown flag near one the command takes, else "". */
function didYouMean(name: string, command: Command | undefined): string {
  const known = FLAGS.filter((f) => command === undefined || appliesTo(f, command)).map((f) => f.name);
  const near = nearest(name, known);
  return near === undefined ? "" : ` (did you mean --${near}?)`;
}

function flagNamed(token: string, command: Command | undefined): { flag: Flag; inline?: string } {
  const eq = token.indexOf("=");
  const name = token.startsWith("--") ? token.slice(2, eq < 0 ? undefined : eq) : token.slice(1);
  const flag = FLAGS.find((f) => (token.startsWith("--") ? f.name === name : f.short === name));
  if (flag === undefined) throw new UsageError(`unknown option ${eq < 0 ? token : token.slice(0, eq)}${token.startsWith("--") ? didYouMean(name, command) : ""}`);
  return { flag, inline: token.startsWith("--") && eq >= 0 ? token.slice(eq + 1) : undefined };
}

/** Reads argv: the command, its positionals, its flags (each checked to apply to the command), and what follows `--`. */
export function parseArgs(argv: readonly string[]): Parsed {
  const out: Parsed = { command: undefined, positionals: [], values: {}, rest: [], repeated: {} };
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === "--") {
      out.rest = argv.slice(i + 1);
      break;
    }
    if (!token.startsWith("-") || token === "-") {
      if (out.command === undefined && out.positionals.length === 0 && (COMMANDS as readonly string[]).includes(token)) out.command = token as Command;
      else out.positionals.push(token);
      continue;
    }
    const { flag, inline } = flagNamed(token, out.command);
    if (flag.value === undefined) {
      if (inline !== undefined) throw new UsageError(`--${flag.name} takes no value`);
      out.values[flag.name] = true;
    } else {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`--${flag.name} needs a value (${flag.value})`);
      out.values[flag.name] = v;
      (out.repeated[flag.name] ??= []).push(v);
    }
  }
  if (out.command === undefined && out.positionals.length > 0) {
    const near = nearest(out.positionals[0], COMMANDS);
    throw new UsageError(`unknown command "${out.positionals[0]}" (${near === undefined ? "" : `did you mean ${near}? `}commands: ${COMMANDS.join(", ")})`);
  }
  const command = out.command;
  if (command !== undefined) {
    for (const name of Object.keys(out.values)) {
      const flag = FLAGS.find((f) => f.name === name)!;
      if (!appliesTo(flag, command)) throw new UsageError(`--${name} does not apply to ${command} (it is for: ${flag.commands.join(", ")})`);
    }
  }
  return out;
}

/** A flag's value as a number in [min, max], with an error that names the flag and the range. */
export function numberFlag(values: Parsed["values"], name: string, fallback: number, min: number, max: number, integer: boolean): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const text = String(raw).trim();
  const v = integer ? (/^\+?\d+$/.test(text) ? Number(text) : NaN) : text === "" ? NaN : Number(text);
  if (!Number.isFinite(v) || v < min || v > max || (integer && !Number.isSafeInteger(v))) {
    const range = integer ? (max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number in [${min}, ${max}]`) : `a number in [${min}, ${max}]`;
    throw new UsageError(`--${name} must be ${range}, got ${JSON.stringify(String(raw))}`);
  }
  return v;
}

/** The `cliffcompaction` command: compact a session once, or simulate a whole session's cliffs. */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { CONFIG_KEYS, CONFIG_KINDS, ConfigError, DEFAULT_CONFIG, fixedChars, getDialect, maxRung, parseFocus, parseSetting, planCliff, resolveConfig, type Config } from "../core/index";
import { platformTokens, summarizeWithReport } from "../plugin/summarize";
import { flattenSession } from "./flatten";
import { InputError, readSession, FORMATS, type Session } from "./formats";
import { checkOutput, MAX_CONFIG_BYTES, MAX_SESSION_BYTES, readLimited } from "./input";
import { progressBar } from "./progress";
import { countParts, firstLines, n, tokensOf } from "./report";
import { simulate, toCsv } from "./simulate";
import { renderSvg } from "./svg";

declare const __CLIFF_VERSION__: string;
const VERSION = typeof __CLIFF_VERSION__ === "string" ? __CLIFF_VERSION__ : "dev";

const HELP = `cliffcompaction ${VERSION} — mechanical context compaction for agent sessions

Usage:
  cliffcompaction compact FILE [options]     compact once at the end of the session and report
  cliffcompaction simulate FILE --threshold N [--svg out.svg] [--csv out.csv]
                                             replay the session, cliff whenever the context crosses N
Examples:
  cliffcompaction compact ~/.pi/agent/sessions/--home-me-repo--/2026-11-30T10-00-00-000Z_1234.jsonl
  cliffcompaction compact run.traj.json --keep-recent 1 --thought-max-chars 300 --lines 40
  cliffcompaction compact examples/session.json --host agentparley --focus "database port"
  cliffcompaction compact request.json --json > result.json
  cliffcompaction simulate examples/session.json --threshold 20000 --svg cliffs.svg --csv cliffs.csv

Formats (detected from the content, or forced with --format NAME):
  ${FORMATS.join(", ")}

Options:
  --format NAME            read FILE as this format
  --json                   print a machine-readable result instead of the report
  --lines N                summary lines to print (default 30, 0 = all)
  --host agentparley       show exactly what the AgentParley plugin would return for this history
  --sandbox quickjs        with --host agentparley: run the built plugin bundle inside QuickJS
  --focus TEXT             a /compact focus: dropped results that mention it keep matching lines
  --config FILE            JSON config (camelCase or snake_case keys), flags below override it
  --threshold N            compaction threshold in estimated tokens (simulate: required)
  --keep-recent N          newest turns kept verbatim (default ${DEFAULT_CONFIG.keepRecent})
  --thought-max-chars N    cap assistant text in the summary (0 = unlimited)
  --thinking-max-chars N   cap thinking text (0 = unlimited)
  --drop-thinking          leave thinking out of the summary
  --cmd-max-chars N        cap tool-call signatures (default ${DEFAULT_CONFIG.cmdMaxChars})
  --result-max-chars N     keep tool results up to N chars (default ${DEFAULT_CONFIG.resultMaxChars})
  --human-max-chars N      cap human text (default ${DEFAULT_CONFIG.humanMaxChars})
  --strict                 truncate the summary itself when still over the threshold
  --cache-discount X       simulate: price of a cached input token relative to an uncached one (default 0.1)
  -h, --help               this text
  -v, --version            the version
`;

class UsageError extends Error {}

const kebab = (k: string): string => k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
// Settings given as flags with a value, named after their key; thresholdTokens is --threshold and the
// booleans are the flags below.
const VALUE_FLAGS = CONFIG_KEYS.filter((k) => CONFIG_KINDS[k] !== "bool" && k !== "thresholdTokens");

function parse(argv: string[]) {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {
    format: { type: "string" }, json: { type: "boolean" }, lines: { type: "string" }, host: { type: "string" },
    sandbox: { type: "string" }, focus: { type: "string" }, config: { type: "string" }, threshold: { type: "string" },
    "drop-thinking": { type: "boolean" }, strict: { type: "boolean" }, svg: { type: "string" }, csv: { type: "string" },
    "cache-discount": { type: "string" }, help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" },
  };
  for (const k of VALUE_FLAGS) options[kebab(k)] = { type: "string" };
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.split("\n")[0]);
  }
}

function wholeNumber(flag: string, v: string): number {
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`--${flag} must be a whole number ≥ 0, got "${v}"`);
  return Number(v);
}

function flagSetting(key: keyof Config, flag: string, v: string): number | boolean {
  try {
    return parseSetting(key, v);
  } catch (e) {
    throw new UsageError(`--${flag} ${(e as Error).message}, got ${JSON.stringify(v)}`);
  }
}

function configFrom(values: Record<string, unknown>): Config {
  let partial: Record<string, unknown> = {};
  if (typeof values.config === "string") {
    try {
      partial = JSON.parse(readLimited(values.config, MAX_CONFIG_BYTES, "config"));
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${values.config}: cannot read config (${(e as Error).message})`);
    }
  }
  let cfg: Config;
  try {
    cfg = resolveConfig(partial);
  } catch (e) {
    throw new InputError(`${values.config}: ${(e as Error).message}`);
  }
  const flags: Record<string, unknown> = {};
  for (const k of VALUE_FLAGS) if (typeof values[kebab(k)] === "string") flags[k] = flagSetting(k, kebab(k), values[kebab(k)] as string);
  if (typeof values.threshold === "string") flags.thresholdTokens = flagSetting("thresholdTokens", "threshold", values.threshold);
  if (values["drop-thinking"] === true) flags.keepThinking = false;
  if (values.strict === true) flags.strict = true;
  try {
    return resolveConfig(flags, cfg);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function load(file: string, format: string | undefined): Session {
  return readSession(readLimited(file, MAX_SESSION_BYTES, "session"), file, format);
}

async function sandboxSummarize(context: unknown): Promise<string> {
  const { getQuickJS } = await import("quickjs-emscripten");
  const bundle = readFileSync(new URL("./cliffcompaction.js", import.meta.url), "utf8");
  const vm = (await getQuickJS()).newContext();
  try {
    vm.unwrapResult(vm.evalCode(bundle, "cliffcompaction.js")).dispose();
    const arg = vm.newString(JSON.stringify(context));
    vm.setProp(vm.global, "__context", arg);
    arg.dispose();
    const out = vm.unwrapResult(vm.evalCode("globalThis.compaction.summarize(JSON.parse(__context))"));
    const s = vm.getString(out);
    out.dispose();
    return s;
  } finally {
    vm.dispose();
  }
}

async function agentparley(file: string, session: Session, values: Record<string, unknown>, cfg: Config, out: string[]): Promise<void> {
  const messages = session.format === "agentparley" ? session.messages : flattenSession(session, file);
  const focus = typeof values.focus === "string" ? values.focus : session.focus;
  const context: Record<string, unknown> = { messages };
  if (focus !== undefined) context.focus = focus;
  if (typeof values.threshold === "string") context.threshold = cfg.thresholdTokens;
  const report = summarizeWithReport(context, cfg);
  let sandboxNote = "";
  if (values.sandbox !== undefined) {
    if (values.sandbox !== "quickjs") throw new UsageError(`--sandbox takes "quickjs", got "${String(values.sandbox)}"`);
    const fromBundle = await sandboxSummarize(context);
    sandboxNote = `  (built bundle in QuickJS; ${fromBundle === report.summary ? "identical to the library's output" : "DIFFERS from the library's output"})`;
    report.summary = fromBundle;
  }
  if (values.json === true) {
    out.push(JSON.stringify({ file, format: session.format, host: "agentparley", messages: messages.length, ...report }, null, 2));
    return;
  }
  const handed = (messages as { content: unknown }[]).reduce((s: number, m) => s + (typeof m.content === "string" ? m.content.length : 0), 0);
  out.push(`session   ${file}  (${session.format === "agentparley" ? "AgentParley messages" : `${session.format}, flattened to AgentParley {role, content} messages`})${sandboxNote}`);
  out.push(`handed    ${n(messages.length)} messages, ${n(platformTokens(handed))} tokens (chars/4)`);
  out.push(`budget    ${n(report.budgetTokens)} tokens = ${cfg.maxSummaryRatio} × threshold ${n(report.thresholdTokens)}`);
  if (report.summary === "") {
    out.push(`result    "" (${report.outcome}): the platform's own summarizer would run instead`);
    return;
  }
  out.push(`summary   ${n(report.summary.length)} chars, ${n(report.summaryTokens)} tokens (${((100 * report.summaryTokens) / Math.max(1, report.thresholdTokens)).toFixed(1)}% of the threshold), rung ${report.rung}`);
  out.push(`kept      task ${report.taskMessages} message(s) verbatim, recent ${report.recentMessages} message(s) verbatim, digest ${n(report.digestParts)} parts${report.repeat ? ", previous summary dropped" : ""}${report.damagedPrevious ? `, previous summary damaged (task ${report.damagedPrevious})` : ""}`);
  out.push("", `--- what the plugin returns ---`, firstLines(report.summary, wholeNumber("lines", String(values.lines ?? "30"))));
}

async function compactCommand(file: string, values: Record<string, unknown>, out: string[]): Promise<void> {
  const session = load(file, values.format as string | undefined);
  const cfg = configFrom(values);
  if (values.host !== undefined) {
    if (values.host !== "agentparley") throw new UsageError(`--host takes "agentparley", got "${String(values.host)}"`);
    return agentparley(file, session, values, cfg, out);
  }
  const focus = parseFocus(typeof values.focus === "string" ? values.focus : session.focus);
  const ladder = planCliff(session.messages, session.dialect, cfg, cfg.thresholdTokens, { focus, maxRung: maxRung(cfg) });
  const before = tokensOf(session.messages, session.body, session.dialect);
  const r = ladder.result;
  if (values.json === true) {
    const counts = r === null ? null : countParts(r, session.messages, session.dialect, ladder.config);
    out.push(JSON.stringify({
      file, format: session.format, dialect: session.dialect, compacted: r !== null,
      before: { messages: session.messages.length, tokens: before },
      after: r === null ? null : { messages: r.messages.length, tokens: tokensOf(r.messages, session.body, session.dialect) },
      headLen: r?.headLen ?? null, cut: r?.cut ?? null, keptMessages: r === null ? null : r.messages.length - r.headLen - 1,
      rung: ladder.rung, overBudget: ladder.overBudget, keepRecent: ladder.config.keepRecent, parts: counts, summary: r?.summaryText ?? null,
    }, null, 2));
    return;
  }
  out.push(`session   ${file}  (${session.format}, dialect ${session.dialect})`);
  out.push(`before    ${n(session.messages.length)} messages, ${n(before)} tokens (estimated)`);
  if (r === null) {
    out.push("result    nothing to compact: no model turn yet, or no more turns than --keep-recent");
    return;
  }
  const after = tokensOf(r.messages, session.body, session.dialect);
  const c = countParts(r, session.messages, session.dialect, ladder.config);
  const kept = r.messages.length - r.headLen - 1;
  out.push(`after     ${n(r.messages.length)} messages, ${n(after)} tokens (estimated), ${(100 - (100 * after) / Math.max(1, before)).toFixed(1)}% smaller`);
  out.push(`head      ${r.headLen} message(s) kept verbatim`);
  out.push(`tail      ${n(kept)} message(s) kept verbatim from message ${r.cut} (keepRecent ${ladder.config.keepRecent})`);
  out.push(`summary   ${n(r.parts.length)} parts from ${n(r.cut - r.headLen)} messages: ${n(c.assistantSteps)} assistant steps, ${n(c.resultsKept)} tool results kept, ${n(c.resultsDropped)} dropped as too long, ${n(c.human)} human, ${n(c.system)} system${c.focusExcerpts ? `, ${c.focusExcerpts} focus excerpts` : ""}${c.imagesDropped ? `, ${c.imagesDropped} images dropped` : ""}`);
  out.push(`rung      ${ladder.rung}${ladder.overBudget ? ` (still over the ${n(cfg.thresholdTokens)}-token threshold)` : ""}`);
  out.push("", "--- summary ---", firstLines(r.summaryText, wholeNumber("lines", String(values.lines ?? "30"))));
}

function simulateCommand(file: string, values: Record<string, unknown>, out: string[]): void {
  if (typeof values.threshold !== "string") throw new UsageError("simulate needs --threshold N (estimated tokens)");
  for (const flag of ["svg", "csv"]) if (typeof values[flag] === "string") checkOutput(flag, values[flag] as string, [file, String(values.config ?? "")]);
  const session = load(file, values.format as string | undefined);
  const cfg = configFrom(values);
  const discount = values["cache-discount"] === undefined ? 0.1 : Number(values["cache-discount"]);
  if (!(discount >= 0 && discount <= 1)) throw new UsageError(`--cache-discount must be a number in [0, 1], got "${String(values["cache-discount"])}"`);
  const bar = progressBar("simulating");
  const sim = simulate(session.messages, session.dialect, cfg, { threshold: cfg.thresholdTokens, cacheDiscount: discount, fixedChars: fixedChars(session.body, getDialect(session.dialect).messagesKey), onProgress: bar.update });
  bar.done();
  if (typeof values.svg === "string") {
    writeFileSync(values.svg, renderSvg({
      context: sim.steps.map((s) => s.context), baseline: sim.steps.map((s) => s.baselineContext),
      cliffs: sim.steps.flatMap((s, i) => (s.cliff ? [i] : [])), threshold: cfg.thresholdTokens,
      title: `${file.split("/").pop()}: context per request, threshold ${n(cfg.thresholdTokens)}`,
    }));
  }
  if (typeof values.csv === "string") writeFileSync(values.csv, toCsv(sim));
  if (values.json === true) {
    out.push(JSON.stringify({ file, format: session.format, dialect: session.dialect, threshold: cfg.thresholdTokens, requests: sim.steps.length, cliffs: sim.cliffs, peak: sim.peak, floor: sim.floor, cacheDiscount: discount, billing: { cliff: sim.cliff, noCompaction: sim.none, llmSummary: sim.llm } }, null, 2));
    return;
  }
  const row = (name: string, b: typeof sim.cliff): string =>
    `  ${name.padEnd(26)} ${n(Math.round(b.input)).padStart(14)} ${n(Math.round(b.cached)).padStart(14)} ${n(Math.round(b.billed)).padStart(14)}${b.extraCalls ? `   +${b.extraCalls} summary calls, ${n(b.extraOutput)} output tokens` : ""}`;
  out.push(`session   ${file}  (${session.format}, dialect ${session.dialect})`);
  out.push(`requests  ${n(sim.steps.length)} model calls replayed, threshold ${n(cfg.thresholdTokens)} tokens`);
  out.push(`cliffs    ${sim.cliffs}   peak context ${n(sim.peak)}   floor after a cliff ${n(sim.floor)}`);
  out.push("", `input tokens (cached input billed at ${discount}×)      sent         cached         billed`);
  out.push(row("cliffcompaction", sim.cliff), row("no compaction", sim.none), row("LLM summary, same cliffs", sim.llm));
  if (sim.none.billed > 0) out.push("", `cliffcompaction bills ${(100 * (1 - sim.cliff.billed / sim.none.billed)).toFixed(1)}% less than no compaction and ${(100 * (1 - sim.cliff.billed / Math.max(1, sim.llm.billed))).toFixed(1)}% less than an LLM summary at the same threshold.`);
  if (typeof values.svg === "string") out.push(`chart     ${values.svg}`);
  if (typeof values.csv === "string") out.push(`csv       ${values.csv}`);
}

export async function main(argv: string[]): Promise<number> {
  const out: string[] = [];
  try {
    const { values, positionals } = parse(argv);
    if (values.version === true) {
      process.stdout.write(VERSION + "\n");
      return 0;
    }
    if (values.help === true || positionals.length === 0) {
      process.stdout.write(HELP);
      return positionals.length === 0 && values.help !== true ? 2 : 0;
    }
    const [command, file, ...rest] = positionals;
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (command !== "compact" && command !== "simulate") throw new UsageError(`unknown command "${command}" (commands: compact, simulate)`);
    if (file === undefined) throw new UsageError(`${command} needs a FILE`);
    if (command === "compact") await compactCommand(file, values, out);
    else simulateCommand(file, values, out);
    process.stdout.write(out.join("\n") + "\n");
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`cliffcompaction: ${e.message}\nRun "cliffcompaction --help" for usage.\n`);
      return 2;
    }
    if (e instanceof InputError || e instanceof ConfigError) {
      process.stderr.write(`cliffcompaction: ${e.message}\n`);
      return 2;
    }
    process.stderr.write(`cliffcompaction: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
}

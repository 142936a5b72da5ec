/** `cliffcompaction compact`: one cliff at the end of the session, reported; or what the AgentParley plugin would return. */
import { readFileSync } from "node:fs";
import { filesTouched, maxRung, parseFocus, planCliff, writesRefs, type Config, type FileLists } from "../core/index.js";
import { platformTokens, summarizeWithReport } from "../plugin/summarize.js";
import { numberFlag, UsageError, type Parsed } from "./args.js";
import { countParts, firstLines, tokensOf } from "./counts.js";
import { flattenSession } from "./flatten.js";
import { InputError, withoutFolders, type Session } from "./readers/index.js";
import { n } from "./table.js";
import { nodeSha256 } from "../node/sha256.js";
import { archiveLines, cliArchive, exported } from "./archive.js";

type Values = Parsed["values"];

/** How to install what an optional feature needs, in one line. */
const QUICKJS_MISSING = 'the QuickJS sandbox needs the optional package quickjs-emscripten: npm install quickjs-emscripten (next to cliffcompaction)';

async function sandboxSummarize(context: unknown): Promise<string> {
  let getQuickJS: () => Promise<{ newContext(): any }>;
  try {
    ({ getQuickJS } = await import("quickjs-emscripten"));
  } catch {
    throw new InputError(QUICKJS_MISSING);
  }
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

/** Characters of paths a file line shows before it counts the rest. */
const FILE_LINE_CHARS = 240;

/** The newest paths that fit the line, newest first, and how many more there are. */
function boundedList(paths: readonly string[]): string {
  if (paths.length === 0) return "-";
  const shown: string[] = [];
  let chars = 0;
  for (let i = paths.length - 1; i >= 0; i--) {
    if (shown.length > 0 && chars + paths[i].length > FILE_LINE_CHARS) break;
    shown.push(paths[i]);
    chars += paths[i].length + 2;
  }
  const rest = paths.length - shown.length;
  return rest === 0 ? shown.join(", ") : `${shown.join(", ")} … and ${n(rest)} more (--json lists them all)`;
}

function fileLines(files: FileLists): string[] {
  if (files.read.length + files.modified.length === 0) return [];
  const order = (paths: string[]): string => (paths.length > 1 ? " (newest first)" : "");
  return [`files     ${n(files.read.length)} read${order(files.read)}: ${boundedList(files.read)}`, `          ${n(files.modified.length)} modified${order(files.modified)}: ${boundedList(files.modified)}`];
}

async function agentparley(file: string, session: Session, values: Values, cfg: Config, out: string[]): Promise<void> {
  const messages = session.format === "agentparley" ? session.messages : flattenSession(session, file);
  const focus = typeof values.focus === "string" ? values.focus : session.focus;
  const context: Record<string, unknown> = { messages };
  if (focus !== undefined) context.focus = focus;
  if (typeof values.threshold === "string") context.threshold = cfg.thresholdTokens;
  const report = summarizeWithReport(context, cfg);
  let sandboxNote = "";
  if (values.sandbox !== undefined) {
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
  out.push(`files     ${n(report.filesRead)} read, ${n(report.filesModified)} modified, carried in the envelope's files section`);
  out.push("", `--- what the plugin returns ---`, firstLines(report.summary, numberFlag(values, "lines", 30, 0, Number.MAX_SAFE_INTEGER, true)));
}

export async function compactCommand(file: string, session: Session, values: Values, cfg: Config, out: string[]): Promise<void> {
  if (values.sandbox !== undefined && values.host === undefined) throw new UsageError("--sandbox needs --host agentparley");
  if (values.sandbox !== undefined && values.sandbox !== "quickjs") throw new UsageError(`--sandbox takes "quickjs", got "${String(values.sandbox)}"`);
  const lines = numberFlag(values, "lines", 30, 0, Number.MAX_SAFE_INTEGER, true);
  if (values.host !== undefined) {
    if (values.host !== "agentparley") throw new UsageError(`--host takes "agentparley", got "${String(values.host)}"`);
    if (typeof values.archive === "string") throw new UsageError("--archive does not apply to --host agentparley: the plugin's sandbox has no filesystem to write dropped texts to");
    return agentparley(file, session, values, cfg, out);
  }
  const focus = parseFocus(typeof values.focus === "string" ? values.focus : session.focus);
  const writer = cliArchive(cfg);
  const plan = planCliff(session.messages, session.dialect, cfg, cfg.thresholdTokens, { focus, maxRung: maxRung(cfg), archive: writer?.archive, sha256: nodeSha256 });
  const before = tokensOf(session.messages, session.body, session.dialect);
  const r = plan.result;
  const files = r === null ? { read: [], modified: [] } : withoutFolders(filesTouched(session.messages.slice(r.headLen, r.cut), session.dialect), session);
  if (values.json === true) {
    const counts = r === null ? null : countParts(r, session.messages, session.dialect, plan.config);
    out.push(JSON.stringify({
      file, format: session.format, dialect: session.dialect, note: session.note ?? null, compacted: r !== null,
      before: { messages: session.messages.length, tokens: before },
      after: r === null ? null : { messages: r.messages.length, tokens: tokensOf(r.messages, session.body, session.dialect) },
      headLen: r?.headLen ?? null, cut: r?.cut ?? null, keptMessages: r === null ? null : r.messages.length - r.headLen - 1,
      rung: plan.rung, overBudget: plan.overBudget, keepRecent: plan.config.keepRecent, parts: counts, files, summary: r?.summaryText ?? null,
      archive: writer === undefined ? null : { dir: writer.dir, ...exported(writer, r?.summaryText ?? "", writesRefs(plan.config)), failures: writer.stats().failures },
    }, null, 2));
    return;
  }
  out.push(`session   ${file}  (${session.format}, dialect ${session.dialect})${session.note ? ` — ${session.note}` : ""}`);
  out.push(`before    ${n(session.messages.length)} messages, ${n(before)} tokens (estimated)`);
  if (r === null) {
    out.push("result    nothing to compact: no model turn yet, or no more turns than --keep-recent");
    return;
  }
  const after = tokensOf(r.messages, session.body, session.dialect);
  const c = countParts(r, session.messages, session.dialect, plan.config);
  const kept = r.messages.length - r.headLen - 1;
  out.push(`after     ${n(r.messages.length)} messages, ${n(after)} tokens (estimated), ${(100 - (100 * after) / Math.max(1, before)).toFixed(1)}% smaller`);
  out.push(`head      ${r.headLen} message(s) kept verbatim`);
  out.push(`tail      ${n(kept)} message(s) kept verbatim from message ${r.cut} (keepRecent ${plan.config.keepRecent})`);
  out.push(`summary   ${n(r.parts.length)} parts from ${n(r.cut - r.headLen)} messages: ${n(c.assistantSteps)} assistant steps, ${n(c.resultsKept)} tool results kept, ${n(c.resultsDropped)} dropped as too long, ${n(c.human)} human, ${n(c.system)} system${c.focusExcerpts ? `, ${c.focusExcerpts} focus excerpts` : ""}${c.imagesDropped ? `, ${c.imagesDropped} images dropped` : ""}`);
  out.push(...fileLines(files));
  out.push(...archiveLines(writer, r.summaryText, writesRefs(plan.config)));
  out.push(`rung      ${plan.rung}${plan.overBudget ? ` (still over the ${n(cfg.thresholdTokens)}-token threshold)` : ""}`);
  out.push("", "--- summary ---", firstLines(r.summaryText, lines));
}

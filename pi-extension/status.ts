/** What `/cliff status` says: the settings, the config file, the last cliff, the archive, warnings (rival handlers) and the last branch summary. */
import type { Config } from "../core/index.js";
import type { BranchSummary } from "./branch.js";
import type { LoadedConfig } from "./config.js";
import type { CliffDetails, CompactReason } from "./hook.js";
import type { ArchiveWriter } from "../node/archive.js";

export interface LastCliff {
  reason: CompactReason;
  at: string;
  details: CliffDetails;
}

export interface LastBranch {
  at: string;
  result: BranchSummary;
}

/** Lines of the last branch summary shown in full before the rest is counted. */
const BRANCH_LINES = 40;

function archiveLine(c: Config, writer: ArchiveWriter | undefined): string {
  // The archive is an export now: off by default, and what the model reads never depends on it.
  if (!c.archive) return c.refs ? "archive: off (an export; summaries name each dropped text by its ref)" : "archive: off";
  if (writer === undefined) return `archive: on, max ${c.archiveMaxBytes} bytes per session (nothing archived yet)`;
  const s = writer.stats();
  return `archive: on, ${writer.dir} · ${s.files} file(s), ${s.bytes} bytes of ${c.archiveMaxBytes}${s.failures > 0 ? ` · ${s.failures} could not be written` : ""}`;
}

function branchLines(last: LastBranch): string[] {
  const d = last.result.details;
  const text = last.result.summary.split("\n");
  const shown = text.slice(0, BRANCH_LINES);
  if (text.length > BRANCH_LINES) shown.push(`… (${text.length - BRANCH_LINES} more lines)`);
  return [`last branch summary: @ ${last.at} from ${d.messages} message(s), ${d.parts} part(s), ${last.result.summary.length} chars, no model call`, ...shown];
}

export function statusLines(loaded: LoadedConfig, last: LastCliff | undefined, branch: LastBranch | undefined, writer: ArchiveWriter | undefined, warnings: readonly string[] = []): string {
  const c: Config = loaded.config;
  const lines = [
    `cliffcompaction: ${c.enabled ? "on" : "off (Pi's default compaction runs)"}${c.shadow ? ", shadow (reports, never compacts)" : ""} · ${c.profile} profile`,
    `keepRecent ${c.keepRecent} · resultMaxChars ${c.resultMaxChars} · cmdMaxChars ${c.cmdMaxChars}`,
    `thoughtMaxChars ${c.thoughtMaxChars} · thinkingMaxChars ${c.thinkingMaxChars} · keepThinking ${c.keepThinking}`,
    `humanMaxChars ${c.humanMaxChars} · strict ${c.strict} · thresholdTokens ${c.thresholdTokens}`,
    archiveLine(c, writer),
    `config: ${loaded.path}${loaded.fileFound ? "" : " (not found, defaults)"}`,
  ];
  if (last !== undefined) {
    const d = last.details;
    lines.push(`last: ${last.reason} @ ${last.at} live=${d.liveMessages} kept=${d.keptMessages} rung=${d.rung} est=${d.estTokensOut}${d.overBudget ? " (over thresholdTokens)" : ""}`);
  }
  for (const p of loaded.problems) lines.push(`problem: ${p}`);
  lines.push(...warnings);
  if (branch !== undefined) lines.push(...branchLines(branch));
  return lines.join("\n");
}

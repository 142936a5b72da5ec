/**
 * cliffcompaction for Pi and OMP: answers session_before_compact with a mechanical cliff, so a
 * compaction costs no model call. Only type imports from Pi, so the same file loads in Pi 0.73+,
 * Pi 1.x and OMP. Fails open: whenever it cannot do better, it returns nothing and Pi's own
 * compaction runs.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import type { Config } from "../core/index";
import { loadConfig, type LoadedConfig } from "./config";
import { compactSession, type CliffDetails, type CompactReason } from "./hook";
import { addCarriedFiles, liveFromEntries } from "../core/pi/session";
import { FileTracker } from "../core/files";

const STATUS_KEY = "cliff";

interface UiLike {
  notify?(message: string, type?: "info" | "warning" | "error"): void;
  setStatus?(key: string, text: string | undefined): void;
}

interface LastCliff {
  reason: CompactReason;
  at: string;
  details: CliffDetails;
}

function ui(ctx: unknown): UiLike {
  const u = (ctx as { ui?: UiLike } | undefined)?.ui;
  return u ?? {};
}

function toReason(v: unknown): CompactReason | undefined {
  if (v === "overflow" || v === "incomplete") return "overflow";
  if (v === "threshold" || v === "idle") return "threshold";
  if (v === "manual") return "manual";
  return undefined;
}

function statusLines(loaded: LoadedConfig, last: LastCliff | undefined): string {
  const c: Config = loaded.config;
  const lines = [
    `cliffcompaction: ${c.enabled ? "on" : "off (Pi's default compaction runs)"}${c.shadow ? ", shadow (reports, never compacts)" : ""}`,
    `keepRecent ${c.keepRecent} · resultMaxChars ${c.resultMaxChars} · cmdMaxChars ${c.cmdMaxChars}`,
    `thoughtMaxChars ${c.thoughtMaxChars} · thinkingMaxChars ${c.thinkingMaxChars} · keepThinking ${c.keepThinking}`,
    `humanMaxChars ${c.humanMaxChars} · strict ${c.strict} · thresholdTokens ${c.thresholdTokens}`,
    `config: ${loaded.path}${loaded.fileFound ? "" : " (not found, defaults)"}`,
  ];
  if (last !== undefined) {
    const d = last.details;
    lines.push(`last: ${last.reason} @ ${last.at} live=${d.liveMessages} kept=${d.keptMessages} rung=${d.rung} est=${d.estTokensOut}${d.overBudget ? " (over thresholdTokens)" : ""}`);
  }
  for (const p of loaded.problems) lines.push(`problem: ${p}`);
  return lines.join("\n");
}

function carried(entries: readonly unknown[], preparation: unknown): FileTracker {
  const tracker = new FileTracker();
  addCarriedFiles(tracker, entries, preparation);
  return tracker;
}

export default function cliffcompaction(api: ExtensionAPI): void {
  let loaded = loadConfig();
  let last: LastCliff | undefined;
  // Hosts that send no reason with the event (Pi 0.73, OMP) announce automatic compactions first.
  let pendingReason: CompactReason = "manual";
  let reportedProblems = false;

  const reportProblems = (ctx: unknown): void => {
    if (reportedProblems || loaded.problems.length === 0) return;
    reportedProblems = true;
    ui(ctx).notify?.(`cliffcompaction config: ${loaded.problems.join("; ")}`, "warning");
  };

  const on = api.on.bind(api) as unknown as (event: string, handler: (event: any, ctx: any) => unknown) => unknown;

  on("session_start", (_event, ctx) => reportProblems(ctx));
  on("auto_compaction_start", (event) => {
    pendingReason = toReason(event?.reason) ?? "threshold";
  });
  on("auto_compaction_end", () => {
    pendingReason = "manual";
  });

  on("session_before_compact", (event, ctx) => {
    const u = ui(ctx);
    reportProblems(ctx);
    const cfg = loaded.config;
    if (!cfg.enabled) return undefined;
    const explicit = toReason(event?.reason);
    const reason: CompactReason = explicit !== undefined && explicit !== "manual" ? explicit : explicit ?? pendingReason;
    pendingReason = "manual";
    try {
      const entries: unknown[] = Array.isArray(event?.branchEntries) ? event.branchEntries : [];
      const live = liveFromEntries(entries);
      const result = compactSession(live, cfg, {
        reason,
        customInstructions: typeof event?.customInstructions === "string" && event.customInstructions.trim() !== "" ? event.customInstructions : undefined,
        files: carried(entries, event?.preparation),
      });
      if (cfg.shadow) {
        u.setStatus?.(STATUS_KEY, result === null ? "cliff shadow · nothing to compact" : `cliff shadow · would keep ${result.details.keptMessages} msgs`);
        return { cancel: true };
      }
      if (result === null) return undefined;
      last = { reason, at: new Date().toISOString(), details: result.details };
      u.setStatus?.(STATUS_KEY, `cliff · ${reason} · kept ${result.details.keptMessages}`);
      return {
        compaction: {
          summary: result.summary,
          firstKeptEntryId: result.firstKeptEntryId,
          tokensBefore: typeof event?.preparation?.tokensBefore === "number" ? event.preparation.tokensBefore : 0,
          details: result.details,
        },
      };
    } catch (e) {
      u.notify?.(`cliffcompaction failed, Pi's default compaction runs instead: ${(e as Error).message}`, "warning");
      return undefined;
    }
  });

  on("session_compact", (event, ctx) => {
    if (event?.fromExtension === true) ui(ctx).setStatus?.(STATUS_KEY, `cliff · compacted (${toReason(event?.reason) ?? last?.reason ?? "manual"})`);
  });

  api.registerCommand("cliff", {
    description: "cliffcompaction: status | config | reload",
    handler: async (args: string, ctx) => {
      const action = (args ?? "").trim().split(/\s+/)[0] || "status";
      const u = ui(ctx);
      if (action === "reload") {
        loaded = loadConfig();
        reportedProblems = false;
        u.notify?.(`cliffcompaction: reloaded ${loaded.path}${loaded.problems.length ? ` (${loaded.problems.length} problem(s))` : ""}`, loaded.problems.length ? "warning" : "info");
        u.notify?.(statusLines(loaded, last), "info");
      } else if (action === "config") {
        u.notify?.(JSON.stringify(loaded.config, null, 2), "info");
      } else {
        u.notify?.(statusLines(loaded, last), "info");
      }
    },
  });
}

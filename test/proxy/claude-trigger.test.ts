/**
 * Claude Code's own auto-compact trigger (2.1.332): its window read from the user's settings as
 * Claude Code merges them (the user's file, the project's, the local one, `--autocompact`, the
 * variable over all; a file's top-level key replaces what earlier files set per model), and `run --
 * claude` and `status` warning when the proxy's threshold for a model is at or above where Claude
 * Code compacts by itself, with what to set. Every home is a temporary folder.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../cli/args.js";
import { serviceCommand } from "../../cli/service/command.js";
import { resolveConfig } from "../../core/index.js";
import { claudeTrigger, claudeWindows, settingsKey, triggerWarnings } from "../../node/clients/index.js";
import { runAgent, startProxy } from "../../proxy/index.js";
import { claudeTriggerLines } from "../../proxy/claude-trigger.js";

function home(settings?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "cliff-claude-home-"));
  if (settings !== undefined) {
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify(settings));
  }
  return dir;
}

function project(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "cliff-claude-project-"));
  mkdirSync(join(dir, ".claude"));
  for (const [name, v] of Object.entries(files)) writeFileSync(join(dir, ".claude", name), JSON.stringify(v));
  return dir;
}

const DEFAULT_POLICY = { rule: "default" as const, tokens: 0, gainShare: 0.1 };

describe("Claude Code's auto-compact window, as it reads its settings", () => {
  it("per model by canonical name, the project's and the local file over the user's, a top-level key replacing earlier per-model ones, the variable over all", () => {
    expect(settingsKey("claude-opus-4-7[1m]")).toBe("claude-opus-4-7");
    expect(settingsKey("claude-sonnet-4-5-20250929")).toBe("claude-sonnet-4-5");
    const h = home({ modelSettings: { "claude-opus-5-5": { autoCompactWindow: 150_000 }, "claude-sonnet-5-5": { autoCompactWindow: "auto" } } });
    const env = { HOME: h };
    const none = mkdtempSync(join(tmpdir(), "cliff-claude-cwd-"));
    let w = claudeWindows(env, none);
    expect(w.all).toBeUndefined();
    expect([...w.byModel]).toEqual([["claude-opus-5-5", { tokens: 150_000, source: join(h, ".claude", "settings.json") }]]);
    // The local file adds a model; the project's top-level key would replace the user's per-model ones.
    const p = project({ "settings.local.json": { modelSettings: { "claude-haiku-5-5[1m]": { autoCompactWindow: "200k" } } } });
    w = claudeWindows(env, p);
    expect([...w.byModel.keys()].sort()).toEqual(["claude-haiku-5-5", "claude-opus-5-5"]);
    const q = project({ "settings.json": { autoCompactWindow: 300_000 } });
    w = claudeWindows(env, q);
    expect(w.all?.tokens).toBe(300_000);
    expect(w.byModel.size).toBe(0);
    expect(claudeWindows(env, q, ["--autocompact", "400k"]).all?.tokens).toBe(400_000);
    expect(claudeWindows({ ...env, CLAUDE_CODE_AUTO_COMPACT_WINDOW: "250000" }, q).all).toEqual({ tokens: 250_000, source: "CLAUDE_CODE_AUTO_COMPACT_WINDOW" });
    // CLAUDE_CONFIG_DIR moves the user's file.
    expect(claudeWindows({ HOME: mkdtempSync(join(tmpdir(), "cliff-claude-empty-")), CLAUDE_CONFIG_DIR: join(h, ".claude") }, none).byModel.has("claude-opus-5-5")).toBe(true);
  });

  it("the trigger is the window less the summary's output (20,000) and a 13,000 buffer; warned only where the proxy's threshold reaches it", () => {
    expect(claudeTrigger(150_000, 1_000_000)).toBe(117_000);
    expect(claudeTrigger(400_000, 200_000)).toBe(167_000);
    const w = claudeWindows({ HOME: home({ modelSettings: { "claude-opus-5-5": { autoCompactWindow: 150_000 }, "claude-opus-4-7": { autoCompactWindow: 400_000 } } }) }, tmpdir());
    // The default rule: 200,000 for a 1M model (over 117,000: warned), 100,000 for a 200K one (under 167,000: not).
    const lines = triggerWarnings(w, [], (m) => ({ threshold: m === "claude-opus-5-5" ? 200_000 : 100_000, window: m === "claude-opus-5-5" ? 1_000_000 : 200_000 }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Claude Code compacts claude-opus-5-5 itself at about 117,000 tokens \(autoCompactWindow 150,000 from .*settings\.json\), below the proxy's threshold for it \(200,000 estimated, about 230,000 as the provider counts\)/);
    expect(lines[0]).toContain("set --model-thresholds 'claude-opus-5-5=96000' or raise autoCompactWindow to 273,000 or more (/autocompact 273000)");
  });
});

describe("run -- claude and status say so", () => {
  it("run: a settings file with autoCompactWindow below the proxy's threshold gets a warning on the terminal and in the log; none without it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-claude-run-"));
    const claude = join(dir, "claude");
    writeFileSync(claude, "#!/bin/sh\nexit 0\n");
    chmodSync(claude, 0o755);
    const h = home({ modelSettings: { "claude-opus-5-5": { autoCompactWindow: 150_000 } } });
    const said: string[] = [];
    const code = await runAgent({ command: claude, args: ["-p", "hi"], defaultThreshold: true, env: { HOME: h, PATH: process.env.PATH }, say: (l) => said.push(l), logPath: join(dir, "run.log") });
    expect(code).toBe(0);
    const warnings = said.filter((l) => l.startsWith("cliffcompaction: WARNING: Claude Code compacts"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("claude-opus-5-5 itself at about 117,000 tokens");
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(join(dir, "run.log"), "utf8")).toContain("WARNING Claude Code compacts claude-opus-5-5");
    // A window for every model is checked against the model --model names (an alias as its model); one set per model always; without settings nothing is said.
    const all = home({ autoCompactWindow: 150_000 });
    expect(claudeTriggerLines(DEFAULT_POLICY, { HOME: all }, tmpdir(), ["--model", "sonnet"]).map((l) => l.split(" itself")[0])).toEqual(["Claude Code compacts claude-sonnet-5-5"]);
    expect(claudeTriggerLines(DEFAULT_POLICY, { HOME: h }, tmpdir(), ["--model", "sonnet"]).map((l) => l.split(" itself")[0])).toEqual(["Claude Code compacts claude-opus-5-5"]);
    expect(claudeTriggerLines(DEFAULT_POLICY, { HOME: home() }, tmpdir(), [])).toEqual([]);
    const quiet: string[] = [];
    await runAgent({ command: claude, args: [], defaultThreshold: true, env: { HOME: home(), PATH: process.env.PATH }, say: (l) => quiet.push(l), logPath: join(dir, "quiet.log") });
    expect(quiet.filter((l) => l.includes("WARNING"))).toEqual([]);
  });

  it("status: the running proxy's thresholds against the user's settings, one claude row per model it reaches", async () => {
    const h = home({ autoCompactWindow: 120_000, modelSettings: { "claude-sonnet-4-6": { autoCompactWindow: 300_000 } } });
    const proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 100_000 }), port: 0, log: () => undefined });
    try {
      const said: string[] = [];
      const exec = () => ({ status: 1, stdout: "", stderr: "Failed to connect to bus" });
      const code = await serviceCommand(parseArgs(["status", "--port", String(proxy.port)]), { platform: { platform: "linux", home: h, env: { HOME: h, SHELL: "/bin/bash" }, exec, uid: 501 }, cli: ["node", "cli"], say: (l) => said.push(l), waitMs: 5000 });
      expect(code).toBe(0);
      const rows = said.filter((l) => l.startsWith("claude "));
      // A fixed 100,000 (about 115,000 counted): over 120,000 − 33,000 for every current model, under 300,000 − 33,000 for Sonnet 4.6.
      expect(rows.length).toBe(3);
      expect(rows.every((r) => /WARNING: Claude Code compacts claude-(opus|sonnet|haiku)-5-5 itself at about 87,000 tokens \(autoCompactWindow 120,000/.test(r))).toBe(true);
      expect(rows.join("\n")).not.toContain("claude-sonnet-4-6");
    } finally {
      await proxy.close();
    }
  });
});

/** serve's own settings on the one order of layers, and a bad upstream URL refused in one line naming where it came from. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { durationMs, idleSettings, percentThreshold, windowSettings } from "../../cli/proxy/settings.js";
import { settingLayers } from "../../cli/settings.js";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;

function serve(env: Record<string, string>, ...args: string[]): { code: number | null; err: string } {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of Object.keys(clean)) if (k.startsWith("CLIFF_")) delete clean[k];
  const r = spawnSync(process.execPath, [CLI, "serve", "--port", "0", ...args], { encoding: "utf8", env: { ...clean, ...env }, timeout: 20_000 });
  return { code: r.status, err: r.stderr };
}

describe("bad upstream URLs", () => {
  const dir = mkdtempSync(join(tmpdir(), "cliff-proxy-settings-"));
  const file = join(dir, "cfg.json");
  writeFileSync(file, JSON.stringify({ chatgptUpstream: "chatgpt.com" }));
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{}, ["--anthropic-upstream", "localhost:4000"], /^cliffcompaction: --anthropic-upstream "localhost:4000" is not an http:\/\/ or https:\/\/ URL/],
    [{ CLIFF_OPENAI_UPSTREAM: "not a url" }, [], /^cliffcompaction: CLIFF_OPENAI_UPSTREAM "not a url" is not an http/],
    [{}, ["--config", file], new RegExp(`^cliffcompaction: ${file.replace(/[.\\/]/g, "\\$&")} chatgptUpstream "chatgpt.com" is not an http`)],
    [{ CLIFF_CHATGPT_UPSTREAM: "https://user:pw@chatgpt.com" }, [], /^cliffcompaction: CLIFF_CHATGPT_UPSTREAM ".*" must be a plain base URL/],
    [{}, ["--allow-host", "a b"], /^cliffcompaction: --allow-host: "a b" is not a host name/],
  ];
  for (const [env, args, message] of cases) {
    it(`${JSON.stringify(env)} ${args.join(" ")}`, () => {
      const r = serve(env, ...args);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err.trim()).toMatch(message);
      expect(r.err).not.toMatch(/cannot listen|    at /);
    });
  }
});

describe("the threshold, the window and the debug folder on the layers", () => {
  const dir = mkdtempSync(join(tmpdir(), "cliff-window-settings-"));
  const file = join(dir, "cfg.json");
  writeFileSync(file, JSON.stringify({ thresholdShare: 0.4, contextWindow: 64000, debugDir: "/tmp/d" }));
  const settings = (values: Record<string, string | boolean>, env: Record<string, string> = {}) => {
    const p = percentThreshold(values, env);
    return windowSettings(settingLayers(p.values, p.env));
  };
  it("flags over CLIFF_* over the file; a share or an absolute threshold, whichever the higher layer sets; each model's default otherwise", () => {
    expect(settings({})).toEqual({ defaultThreshold: true });
    expect(settings({ threshold: "60%" })).toEqual({ thresholdShare: 0.6 });
    expect(settings({ threshold: "150000" })).toEqual({});
    expect(settings({}, { CLIFF_THRESHOLD_TOKENS: "70%" })).toEqual({ thresholdShare: 0.7 });
    expect(settings({}, { CLIFF_THRESHOLD_SHARE: "0.3" })).toEqual({ thresholdShare: 0.3 });
    expect(settings({ config: file })).toEqual({ thresholdShare: 0.4, contextWindow: 64000, debugDir: "/tmp/d" });
    expect(settings({ config: file }, { CLIFF_THRESHOLD_TOKENS: "90000", CLIFF_CONTEXT_WINDOW: "32000" })).toEqual({ contextWindow: 32000, debugDir: "/tmp/d" });
    expect(settings({ config: file, threshold: "55%", "context-window": "1000", "debug-dir": "/x" }, { CLIFF_THRESHOLD_TOKENS: "90000" })).toEqual({ thresholdShare: 0.55, contextWindow: 1000, debugDir: "/x" });
  });
  it("bad values are refused naming where they came from", () => {
    expect(() => settings({ threshold: "160%" })).toThrow(/^--threshold 160%: a percentage is a share of each model's window, so it must be above 0% and at most 100% \(--threshold 60%\); for a number of tokens give the number/);
    expect(() => settings({ "threshold-share": "160%" })).toThrow(/^--threshold-share must be a share of the window in \(0, 1\]/);
    expect(() => settings({}, { CLIFF_CONTEXT_WINDOW: "big" })).toThrow(/^CLIFF_CONTEXT_WINDOW must be a whole number of tokens > 0/);
    expect(() => settings({ threshold: "1000", "threshold-share": "0.5" })).toThrow(/--threshold and --threshold-share: set one threshold, not both/);
  });
});

describe("modelThresholds on the layers", () => {
  const dir = mkdtempSync(join(tmpdir(), "cliff-model-thresholds-"));
  const file = join(dir, "cfg.json");
  writeFileSync(file, JSON.stringify({ modelThresholds: { "claude-opus-*": 120000, "claude-*": "40%" } }));
  const settings = (values: Record<string, string | boolean>, env: Record<string, string> = {}) => windowSettings(settingLayers(values, env)).modelThresholds;

  it("comes from a flag, a variable or the config file's object, in order", () => {
    expect(settings({ "model-thresholds": "claude-*=40%,gpt-4.1*=150000" })).toEqual([{ glob: "claude-*", share: 0.4 }, { glob: "gpt-4.1*", tokens: 150_000 }]);
    expect(settings({}, { CLIFF_MODEL_THRESHOLDS: "gemini-*=100000" })).toEqual([{ glob: "gemini-*", tokens: 100_000 }]);
    expect(settings({ config: file })).toEqual([{ glob: "claude-opus-*", tokens: 120_000 }, { glob: "claude-*", share: 0.4 }]);
    expect(settings({})).toBeUndefined();
  });

  it("a higher layer replaces a lower layer's map, it does not merge with it", () => {
    expect(settings({ config: file }, { CLIFF_MODEL_THRESHOLDS: "gpt-*=50%" })).toEqual([{ glob: "gpt-*", share: 0.5 }]);
    expect(settings({ config: file, "model-thresholds": "o3*=90000" }, { CLIFF_MODEL_THRESHOLDS: "gpt-*=50%" })).toEqual([{ glob: "o3*", tokens: 90_000 }]);
  });

  it("keeps --threshold for the models no glob matches, and the default when none is set", () => {
    expect(windowSettings(settingLayers({ "model-thresholds": "claude-*=40%", threshold: "150000" }, {}))).toEqual({ modelThresholds: [{ glob: "claude-*", share: 0.4 }] });
    expect(windowSettings(settingLayers({ "model-thresholds": "claude-*=40%" }, {}))).toEqual({ defaultThreshold: true, modelThresholds: [{ glob: "claude-*", share: 0.4 }] });
  });

  it("refuses a bad entry naming where it came from", () => {
    expect(() => settings({ "model-thresholds": "claude-*" })).toThrow(/^--model-thresholds: modelThresholds: "claude-\*" is not glob=threshold/);
    expect(() => settings({}, { CLIFF_MODEL_THRESHOLDS: "claude-*=lots" })).toThrow(/^CLIFF_MODEL_THRESHOLDS: modelThresholds/);
  });
});

describe("the idle cliff on the layers", () => {
  it("is off unless set; a duration and a share of the threshold", () => {
    expect(idleSettings(settingLayers({}, {}))).toEqual({});
    expect(idleSettings(settingLayers({ "idle-cliff": "5m" }, {}))).toEqual({ idleCliffMs: 300_000 });
    expect(idleSettings(settingLayers({ "idle-cliff": "1h", "idle-cliff-floor": "0.3" }, {}))).toEqual({ idleCliffMs: 3_600_000, idleCliffFloor: 0.3 });
    expect(idleSettings(settingLayers({}, { CLIFF_IDLE_CLIFF: "90s", CLIFF_IDLE_CLIFF_FLOOR: "60%" }))).toEqual({ idleCliffMs: 90_000, idleCliffFloor: 0.6 });
    expect(idleSettings(settingLayers({ "idle-cliff": "off" }, { CLIFF_IDLE_CLIFF: "5m" }))).toEqual({});
  });

  it("reads durations and refuses what is not one", () => {
    expect([durationMs("300", "x"), durationMs("250ms", "x"), durationMs("1.5h", "x")]).toEqual([300_000, 250, 5_400_000]);
    expect(() => idleSettings(settingLayers({ "idle-cliff": "soon" }, {}))).toThrow(/^--idle-cliff must be a duration/);
  });
});

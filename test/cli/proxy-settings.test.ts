/** serve's own settings on the one order of layers, and a bad upstream URL refused in one line naming where it came from. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_THRESHOLD_SHARE, percentThreshold, windowSettings } from "../../cli/proxy/settings.js";
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
  it("flags over CLIFF_* over the file; a share or an absolute threshold, whichever the higher layer sets; the default share otherwise", () => {
    expect(settings({})).toEqual({ thresholdShare: DEFAULT_THRESHOLD_SHARE });
    expect(settings({ threshold: "60%" })).toEqual({ thresholdShare: 0.6 });
    expect(settings({ threshold: "150000" })).toEqual({});
    expect(settings({}, { CLIFF_THRESHOLD_TOKENS: "70%" })).toEqual({ thresholdShare: 0.7 });
    expect(settings({}, { CLIFF_THRESHOLD_SHARE: "0.3" })).toEqual({ thresholdShare: 0.3 });
    expect(settings({ config: file })).toEqual({ thresholdShare: 0.4, contextWindow: 64000, debugDir: "/tmp/d" });
    expect(settings({ config: file }, { CLIFF_THRESHOLD_TOKENS: "90000", CLIFF_CONTEXT_WINDOW: "32000" })).toEqual({ contextWindow: 32000, debugDir: "/tmp/d" });
    expect(settings({ config: file, threshold: "55%", "context-window": "1000", "debug-dir": "/x" }, { CLIFF_THRESHOLD_TOKENS: "90000" })).toEqual({ thresholdShare: 0.55, contextWindow: 1000, debugDir: "/x" });
  });
  it("bad values are refused naming where they came from", () => {
    expect(() => settings({ threshold: "160%" })).toThrow(/^--threshold-share must be a share of the window in \(0, 1\]/);
    expect(() => settings({}, { CLIFF_CONTEXT_WINDOW: "big" })).toThrow(/^CLIFF_CONTEXT_WINDOW must be a whole number of tokens > 0/);
    expect(() => settings({ threshold: "1000", "threshold-share": "0.5" })).toThrow(/--threshold and --threshold-share: set one threshold, not both/);
  });
});

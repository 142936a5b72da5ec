import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSessionFiles } from "../helpers/session-files.js";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;
let dir: string;
let f: Record<string, string>;

function run(env: Record<string, string>, ...args: string[]): { code: number | null; out: string; err: string } {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of Object.keys(clean)) if (k.startsWith("CLIFF_")) delete clean[k];
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...clean, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const keepRecent = (env: Record<string, string>, ...args: string[]): number => {
  const r = run(env, "compact", f["anthropic.json"], "--json", ...args);
  expect(r.err).toBe("");
  return JSON.parse(r.out).keepRecent;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cliff-layers-"));
  f = writeSessionFiles(dir);
  writeFileSync(join(dir, "cfg.json"), JSON.stringify({ keep_recent: 4 }));
});

describe("one order: flags over CLIFF_* over the config file over the defaults", () => {
  it("each layer beats the ones below it", () => {
    const cfg = join(dir, "cfg.json");
    expect(keepRecent({})).toBe(3);
    expect(keepRecent({}, "--config", cfg)).toBe(4);
    expect(keepRecent({ CLIFF_CONFIG: cfg })).toBe(4);
    expect(keepRecent({ CLIFF_KEEP_RECENT: "2" }, "--config", cfg)).toBe(2);
    expect(keepRecent({ CLIFF_KEEP_RECENT: "2" }, "--config", cfg, "--keep-recent", "1")).toBe(1);
  });
  it("a bad CLIFF_* value is refused in one line naming the variable, exit 2", () => {
    const r = run({ CLIFF_KEEP_RECENT: "many" }, "compact", f["anthropic.json"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^cliffcompaction: CLIFF_KEEP_RECENT="many" must be a whole number/);
  });
  it("a bad value in the config file names the file", () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ keepRecent: "x" }));
    const r = run({}, "compact", f["anthropic.json"], "--config", bad);
    expect(r.code).toBe(2);
    expect(r.err).toContain(bad + ": config key \"keepRecent\"");
  });
  it("switches have a --no- form, and a profile is a flag and a variable", () => {
    const on = run({}, "compact", f["anthropic.json"], "--json", "--no-keep-thinking");
    expect(on.code).toBe(0);
    expect(run({}, "compact", f["anthropic.json"], "--json", "--profile", "recall").code).toBe(0);
    expect(run({ CLIFF_PROFILE: "recall" }, "compact", f["anthropic.json"], "--json").code).toBe(0);
    const bad = run({}, "compact", f["anthropic.json"], "--profile", "fast");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("reference, recall");
  });
});

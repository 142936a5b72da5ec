/** build.mjs: the upload zip, and defaults baked in with --config (validated, the bad key named). */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync, strFromU8 } from "fflate";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { vmSandbox } from "../helpers/sandboxes.js";
import { cycleTurns, TASK } from "../helpers/flat-session.js";

const BUILD = new URL("../../build.mjs", import.meta.url).pathname;
const VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
const build = (...args: string[]) => spawnSync(process.execPath, [BUILD, ...args], { encoding: "utf8" });

describe("build.mjs", () => {
  it("writes the upload zip: manifest, the script, the plugin's own README and LICENSE", () => {
    const out = mkdtempSync(join(tmpdir(), "cliff-build-"));
    expect(build("--out", out, "--no-types").status).toBe(0);
    const files = unzipSync(readFileSync(join(out, `cliffcompaction-agentparley-${VERSION}.zip`)));
    expect(Object.keys(files).sort()).toEqual(["LICENSE", "README.md", "cliffcompaction.js", "manifest.json"]);
    expect(JSON.parse(strFromU8(files["manifest.json"])).entry).toBe("cliffcompaction.js");
    expect(strFromU8(files["cliffcompaction.js"])).toBe(readFileSync(join(out, "cliffcompaction.js"), "utf8"));
    expect(strFromU8(files["README.md"])).toBe(readFileSync(new URL("../../plugin/README.md", import.meta.url), "utf8"));
    expect(files["README.md"].length).toBeLessThan(4000);
  });

  it("bakes a config file into the bundle", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-build-"));
    writeFileSync(join(dir, "cfg.json"), JSON.stringify({ keep_recent: 1, resultMaxChars: 5 }));
    const r = build("--config", join(dir, "cfg.json"), "--out", dir, "--no-types");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("config baked from");
    const s = vmSandbox("", join(dir, "cliffcompaction.js")).summarize({ messages: [TASK, ...cycleTurns(0)], threshold: 100000 });
    const env = parseEnvelope(s)!;
    expect(env.recent).toHaveLength(2);
    expect(env.digest).not.toContain("result:");
  });

  it("a bad config fails the build and names the key", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-build-"));
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ keepRecent: -1 }));
    const bad = build("--config", join(dir, "bad.json"), "--out", dir);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/keepRecent.*whole number/);
    writeFileSync(join(dir, "broken.json"), "{");
    const broken = build("--config", join(dir, "broken.json"), "--out", dir);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("cannot read config");
    expect(build("--frobnicate").stderr).toContain("unknown argument --frobnicate");
  });

  it("refuses a build with archive: true or refs: true by name; the recall profile's refs are left out quietly", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-build-"));
    writeFileSync(join(dir, "archive.json"), JSON.stringify({ archive: true, resultMaxChars: 5 }));
    const r = build("--config", join(dir, "archive.json"), "--out", dir, "--no-types");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/"archive": true cannot be built into the AgentParley plugin: its sandbox has no filesystem/);
    writeFileSync(join(dir, "refs.json"), JSON.stringify({ refs: true }));
    const refs = build("--config", join(dir, "refs.json"), "--out", dir, "--no-types");
    expect(refs.status).toBe(1);
    expect(refs.stderr).toMatch(/"refs": true cannot be built into the AgentParley plugin: the platform has no recall tool/);
    writeFileSync(join(dir, "recall.json"), JSON.stringify({ profile: "recall", resultMaxChars: 5 }));
    const ok = build("--config", join(dir, "recall.json"), "--out", dir, "--no-types");
    expect(ok.status, ok.stderr).toBe(0);
    // The recall profile is the default: its plugin has the usual file names.
    const s = vmSandbox("", join(dir, "cliffcompaction.js")).summarize({ messages: [TASK, ...cycleTurns(0), ...cycleTurns(1)], threshold: 100000 });
    expect(s).not.toBe("");
    expect(s).not.toMatch(/ chars, ref [0-9a-f]{12}|kept at/);
    // Another profile named in the config file builds that profile's plugin, under its own file names.
    writeFileSync(join(dir, "reference.json"), JSON.stringify({ profile: "reference", resultMaxChars: 5 }));
    const ref = build("--config", join(dir, "reference.json"), "--out", dir, "--no-types");
    expect(ref.status, ref.stderr).toBe(0);
    expect(vmSandbox("", join(dir, "cliffcompaction-reference.js")).summarize({ messages: [TASK, ...cycleTurns(0), ...cycleTurns(1)], threshold: 100000 })).not.toBe("");
  });
});

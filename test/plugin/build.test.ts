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
const build = (...args: string[]) => spawnSync(process.execPath, [BUILD, ...args], { encoding: "utf8" });

describe("build.mjs", () => {
  it("writes the upload zip: manifest, the script, README and LICENSE", () => {
    const out = mkdtempSync(join(tmpdir(), "cliff-build-"));
    expect(build("--out", out).status).toBe(0);
    const files = unzipSync(readFileSync(join(out, "cliffcompaction-agentparley-0.1.0.zip")));
    expect(Object.keys(files).sort()).toEqual(["LICENSE", "README.md", "cliffcompaction.js", "manifest.json"]);
    expect(JSON.parse(strFromU8(files["manifest.json"])).entry).toBe("cliffcompaction.js");
    expect(strFromU8(files["cliffcompaction.js"])).toBe(readFileSync(join(out, "cliffcompaction.js"), "utf8"));
  });

  it("bakes a config file into the bundle", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-build-"));
    writeFileSync(join(dir, "cfg.json"), JSON.stringify({ keep_recent: 1, resultMaxChars: 5 }));
    const r = build("--config", join(dir, "cfg.json"), "--out", dir);
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
});

/**
 * npm test runs in a home of its own: HOME and the XDG folders a test sees are a temporary folder,
 * so what the project writes (the admin token, the archive, shell profiles, agents' configs) never
 * reaches the user's home; the suite's global setup fails the run if the real one changed.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import guard, { homeState } from "./home.js";

describe("the tests' home", () => {
  it("HOME and the XDG folders are a temporary folder, not the user's", () => {
    const real = process.env.CLIFF_TEST_REAL_HOME!;
    expect(real).toBeTruthy();
    expect(homedir()).not.toBe(real);
    expect(homedir().startsWith(tmpdir())).toBe(true);
    for (const v of ["XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "npm_config_cache"]) expect(process.env[v]!.startsWith(homedir()), v).toBe(true);
  });

  it("a proxy started by a test makes its admin token in the tests' home", async () => {
    const { startProxy } = await import("../../proxy/index.js");
    const p = await startProxy({ port: 0, host: "127.0.0.1", log: () => {} } as never);
    try {
      expect(existsSync(join(process.env.XDG_STATE_HOME!, "cliffcompaction", "admin-token"))).toBe(true);
    } finally {
      await p.close();
    }
  });

  it("the guard fails when a watched path of the home changes, and passes when none does", () => {
    const home = mkdtempSync(join(tmpdir(), "cliff-guard-"));
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      expect(() => guard()()).not.toThrow();
      const check = guard();
      mkdirSync(join(home, ".local", "state", "cliffcompaction"), { recursive: true });
      writeFileSync(join(home, ".local", "state", "cliffcompaction", "admin-token"), "x");
      expect(() => check()).toThrow(/changed the real home folder .*\.local\/state\/cliffcompaction/);
      expect(Object.keys(homeState(home))).toContain(".local/state/cliffcompaction/admin-token");
    } finally {
      process.env.HOME = saved;
    }
  });

  it("a CLI a test starts writes its archive under the tests' home", () => {
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "compact", "examples/session.json", "--lines", "0"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(process.env.CLIFF_TEST_REAL_HOME + "/.cache");
  });
});

/**
 * The admin token's file: where it is (the flag, CLIFF_ADMIN_TOKEN_FILE, the state folder), made
 * once 0600 in a 0700 folder, read back the same by every start and every replica, made again
 * after it was deleted, and a file that cannot be the user's refused in one line.
 */
import { describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AdminTokenError, adminTokenFile, ensureAdminToken, findAdminToken, readAdminToken } from "../../node/admin-token.js";

const temp = (): string => mkdtempSync(join(tmpdir(), "cliff-token-"));

describe("where the token is", () => {
  it("the flag, else CLIFF_ADMIN_TOKEN_FILE, else $XDG_STATE_HOME/cliffcompaction, else ~/.local/state/cliffcompaction; always absolute", () => {
    expect(adminTokenFile({ HOME: "/home/a" })).toBe("/home/a/.local/state/cliffcompaction/admin-token");
    expect(adminTokenFile({ HOME: "/home/a", XDG_STATE_HOME: "/s" })).toBe("/s/cliffcompaction/admin-token");
    expect(adminTokenFile({ HOME: "/home/a", CLIFF_ADMIN_TOKEN_FILE: "/team/token" })).toBe("/team/token");
    expect(adminTokenFile({ HOME: "/home/a", CLIFF_ADMIN_TOKEN_FILE: "/team/token" }, "rel/token")).toBe(resolve("rel/token"));
  });
});

describe("the token file", () => {
  it("is made at the first start, 0600 in a 0700 folder (a folder made 0755 before is closed), and read back the same", () => {
    const state = temp();
    const dir = join(state, "cliffcompaction");
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = join(dir, "admin-token");
    const first = ensureAdminToken(file, true);
    expect(first.created).toBe(true);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).toBe(first.token + "\n");
    expect(ensureAdminToken(file, true)).toEqual({ token: first.token, created: false });
    expect(readAdminToken(file)).toBe(first.token);
    rmSync(file);
    const next = ensureAdminToken(file, true);
    expect(next.created).toBe(true);
    expect(next.token).not.toBe(first.token);
  });

  it("a named file (a team's, shared by replicas) is used as it is: its token, trimmed; made when missing", () => {
    const dir = temp();
    const file = join(dir, "team-token");
    writeFileSync(file, "  shared-team-token-0123456789  \n");
    expect(ensureAdminToken(file, false)).toEqual({ token: "shared-team-token-0123456789", created: false });
    const made = join(dir, "sub", "made");
    const a = ensureAdminToken(made, false);
    const b = ensureAdminToken(made, false);
    expect(b.token).toBe(a.token);
    expect(statSync(made).mode & 0o777).toBe(0o600);
  });

  it("refuses, in one line naming the file, a token that is empty or too short, and a default file that is a symlink", () => {
    const dir = temp();
    const file = join(dir, "admin-token");
    for (const text of ["", "\n", "short", "has a space in it 0123456789"]) {
      writeFileSync(file, text);
      expect(() => readAdminToken(file)).toThrow(AdminTokenError);
      expect(() => readAdminToken(file)).toThrow(file);
    }
    const own = join(temp(), "cliffcompaction");
    mkdirSync(own, { mode: 0o700 });
    const elsewhere = join(dir, "elsewhere");
    writeFileSync(elsewhere, "someone-elses-token-0123456789");
    symlinkSync(elsewhere, join(own, "admin-token"));
    expect(() => ensureAdminToken(join(own, "admin-token"), true)).toThrow(/not a regular file/);
  });

  it("a client without a file asks without a token; a missing file read on purpose says how it is made", () => {
    const file = join(temp(), "none");
    expect(findAdminToken(file)).toBeUndefined();
    expect(() => readAdminToken(file)).toThrow(/makes it at its first start/);
    expect(existsSync(file)).toBe(false);
  });
});

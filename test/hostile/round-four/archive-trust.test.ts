/**
 * Round four: the archive refuses a folder it cannot trust. The folder and each parent up to the
 * user's home (or /) must be owned by the user or root and not writable by others unless sticky;
 * a folder that is itself a symlink is resolved once and its target held to the same rule. A
 * refused folder gets one line naming it and what to do, and nothing is written there.
 */
import { describe, expect, it } from "vitest";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveWriter, defaultArchiveDir } from "../../../node/archive.js";
import { archiveTrust } from "../../../node/archive-trust.js";

const base = (): string => mkdtempSync(join(tmpdir(), "cliff-trust-"));
const isRoot = process.getuid?.() === 0;
const me = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home: "/nonexistent-home" };

describe("which folders the archive trusts", () => {
  it("a folder of the user's own under a sticky /tmp, and one not made yet: trusted, its real path kept", () => {
    const b = base();
    expect(archiveTrust(join(b, "archive"), me)).toEqual({ dir: join(b, "archive") });
    mkdirSync(join(b, "made"), { mode: 0o700 });
    expect(archiveTrust(join(b, "made"), me)).toEqual({ dir: join(b, "made") });
  });

  it("a folder others can write to (no sticky bit), or under one: refused in one line naming it and what to do", () => {
    const b = base();
    const open = join(b, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    for (const dir of [open, join(open, "archive")]) {
      const r = archiveTrust(dir, me);
      expect("problem" in r && r.problem).toContain(open);
      expect("problem" in r && r.problem).toMatch(/writable by other users/);
      expect("problem" in r && r.problem).toMatch(/\.cache\/cliffcompaction\/archive|a folder of your own/);
      expect("problem" in r && r.problem.includes("\n")).toBe(false);
    }
    chmodSync(open, 0o1777);
    expect(archiveTrust(join(open, "archive"), me)).toEqual({ dir: join(open, "archive") });
  });

  it.skipIf(!isRoot)("a folder another user owns (made before the user's first run, in /tmp): refused", () => {
    const b = base();
    const theirs = join(b, "cliff-archive");
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, 65534, 65534);
    const r = archiveTrust(theirs, me);
    expect("problem" in r && r.problem).toMatch(/owned by uid 65534/);
    const w = archiveWriter({ dir: theirs, maxBytes: 1 << 20, log: () => undefined });
    expect(w.archive("x".repeat(600), "result")).toBeNull();
    expect(readdirSync(theirs)).toEqual([]);
  });

  it("a folder that is a symlink is resolved once and its target held to the rule", () => {
    const b = base();
    const real = join(b, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(b, "link"));
    expect(archiveTrust(join(b, "link"), me)).toEqual({ dir: real });
    const open = join(b, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    symlinkSync(open, join(b, "bad-link"));
    const r = archiveTrust(join(b, "bad-link"), me);
    expect("problem" in r && r.problem).toContain(open);
  });

  it("the writer: a symlinked folder it trusts is written through its real path, once resolved; an untrusted one archives nothing and says why once", () => {
    const b = base();
    const real = join(b, "real");
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, join(b, "link"));
    const w = archiveWriter({ dir: join(b, "link"), maxBytes: 1 << 20 });
    const path = w.archive("y".repeat(700), "result");
    expect(path?.startsWith(real + "/")).toBe(true);
    const open = join(b, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const logs: string[] = [];
    const bad = archiveWriter({ dir: join(open, "archive"), maxBytes: 1 << 20, log: (l) => logs.push(l) });
    expect(bad.archive("z".repeat(700), "result")).toBeNull();
    expect(bad.archive("w".repeat(700), "result")).toBeNull();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/writable by other users/);
    expect(existsSync(join(open, "archive"))).toBe(false);
  });

  it("the default folder is under the user's cache", () => {
    expect(defaultArchiveDir({ XDG_CACHE_HOME: "/c" }, "/h")).toBe("/c/cliffcompaction/archive");
    expect(defaultArchiveDir({}, "/h")).toBe("/h/.cache/cliffcompaction/archive");
  });
});

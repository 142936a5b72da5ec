/** The Node archive writer: permissions, atomic writes, the bound oldest-first, symlinks, and every failure falling back. */
import { describe, expect, it } from "vitest";
import * as fs from "node:fs";
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, existsSync, mkdirSync, lstatSync } from "node:fs";
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveWriter, defaultArchiveDir } from "../../node/archive.js";

const fresh = (): string => join(mkdtempSync(join(tmpdir(), "cliff-archive-")), "archive");
const sha = (t: string): string => createHash("sha256").update(t, "utf8").digest("hex");
const where = (dir: string, t: string): string => join(dir, sha(t).slice(0, 2), sha(t) + ".txt");
const mode = (p: string): number => statSync(p).mode & 0o777;
const allFiles = (dir: string): string[] => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name));

describe("the Node archive writer", () => {
  it("stores a text under its hash, folders 0700 and files 0600, and returns the absolute path", () => {
    const dir = fresh();
    const w = archiveWriter({ dir, maxBytes: 1 << 20 });
    const text = "日本 log line\n".repeat(50);
    const p = w.archive(text, "result");
    expect(p).toBe(where(dir, text));
    expect(readFileSync(p!, "utf8")).toBe(text);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, sha(text).slice(0, 2)))).toBe(0o700);
    expect(mode(p!)).toBe(0o600);
    expect(w.archive(text, "result")).toBe(p);
    expect(w.stats()).toMatchObject({ files: 1, written: 1, refreshed: 1, failures: 0 });
  });

  it("writes through a temporary file renamed into place: a failed write leaves no file and no temporary", () => {
    const dir = fresh();
    const seen: string[] = [];
    const renames: [string, string][] = [];
    const io = {
      openSync: ((p: string, flags: number, m: number) => (seen.push(p), fs.openSync(p, flags, m))) as typeof fs.openSync,
      renameSync: ((a: string, b: string) => (renames.push([a, b]), fs.renameSync(a, b))) as typeof fs.renameSync,
    };
    const p = archiveWriter({ dir, maxBytes: 1 << 20, io }).archive("x".repeat(600), "result")!;
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toBe(p);
    expect(seen[0].startsWith(p + ".")).toBe(true);
    expect(renames).toEqual([[seen[0], p]]);
    expect(allFiles(dir)).toEqual([p]);
  });

  it("keeps the folder within maxBytes, least recently archived out first; archiving again refreshes a file", () => {
    const dir = fresh();
    const w = archiveWriter({ dir, maxBytes: 3000 });
    const [a, b, c, d] = ["a", "b", "c", "d"].map((x) => x.repeat(1000));
    w.archive(a, "result");
    w.archive(b, "result");
    w.archive(c, "result");
    w.archive(a, "result"); // a is now the newest
    w.archive(d, "result"); // b goes
    expect(existsSync(where(dir, a))).toBe(true);
    expect(existsSync(where(dir, b))).toBe(false);
    expect(existsSync(where(dir, c))).toBe(true);
    expect(existsSync(where(dir, d))).toBe(true);
    expect(w.stats().bytes).toBe(3000);
    expect(allFiles(dir).reduce((s, f) => s + statSync(f).size, 0)).toBeLessThanOrEqual(3000);
  });

  it("counts what earlier runs left, oldest by time first", () => {
    const dir = fresh();
    const first = archiveWriter({ dir, maxBytes: 10_000 });
    const [old, mid] = ["o".repeat(1000), "m".repeat(1000)];
    first.archive(old, "result");
    first.archive(mid, "result");
    utimesSync(where(dir, old), new Date(1_000_000), new Date(1_000_000));
    utimesSync(where(dir, mid), new Date(2_000_000), new Date(2_000_000));
    const next = archiveWriter({ dir, maxBytes: 2000 });
    next.archive("n".repeat(1000), "result");
    expect(existsSync(where(dir, old))).toBe(false);
    expect(existsSync(where(dir, mid))).toBe(true);
  });

  it("never follows a symlink inside the folder, and never writes through one", () => {
    const dir = fresh();
    const outside = mkdtempSync(join(tmpdir(), "cliff-outside-"));
    const text = "s".repeat(700);
    const h = sha(text);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    symlinkSync(outside, join(dir, h.slice(0, 2)));
    const logs: string[] = [];
    const w = archiveWriter({ dir, maxBytes: 1 << 20, log: (l) => logs.push(l) });
    expect(w.archive(text, "result")).toBeNull();
    expect(readdirSync(outside)).toEqual([]);
    expect(logs[0]).toMatch(/not a folder \(a symlink is never followed\)/);
    // A symlink where the file goes is replaced by the file, its target untouched.
    const other = "t".repeat(700);
    const target = join(outside, "victim");
    writeFileSync(target, "keep me");
    mkdirSync(join(dir, sha(other).slice(0, 2)), { mode: 0o700 });
    symlinkSync(target, where(dir, other));
    expect(w.archive(other, "result")).toBe(where(dir, other));
    expect(lstatSync(where(dir, other)).isFile()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  it("a read-only folder, a full disk and a bound of zero give null, logged once", () => {
    const cases = [
      { name: "read-only", io: { openSync: (() => { throw Object.assign(new Error("read-only"), { code: "EROFS" }); }) as unknown as typeof fs.openSync }, maxBytes: 1 << 20, says: /EROFS/ },
      { name: "full disk", io: { writeSync: (() => { throw Object.assign(new Error("full"), { code: "ENOSPC" }); }) as unknown as typeof fs.writeSync }, maxBytes: 1 << 20, says: /ENOSPC/ },
      { name: "bound zero", io: {}, maxBytes: 0, says: /archiveMaxBytes is 0/ },
      { name: "over the bound", io: {}, maxBytes: 10, says: /over archiveMaxBytes/ },
    ];
    for (const c of cases) {
      const dir = fresh();
      const logs: string[] = [];
      const w = archiveWriter({ dir, maxBytes: c.maxBytes, io: c.io, log: (l) => logs.push(l) });
      expect(w.archive("a".repeat(600), "result"), c.name).toBeNull();
      expect(w.archive("b".repeat(600), "call"), c.name).toBeNull();
      expect(logs, c.name).toHaveLength(1);
      expect(logs[0], c.name).toMatch(c.says);
      expect(w.stats().failures, c.name).toBe(2);
      if (existsSync(dir)) expect(allFiles(dir), c.name).toEqual([]);
    }
  });

  it("a folder that cannot be made (a file stands there) gives null", () => {
    const dir = fresh();
    mkdirSync(join(dir, ".."), { recursive: true });
    writeFileSync(dir, "not a folder");
    expect(archiveWriter({ dir, maxBytes: 1 << 20 }).archive("z".repeat(600), "result")).toBeNull();
  });

  it("defaults under the user's cache folder", () => {
    expect(defaultArchiveDir({ XDG_CACHE_HOME: "/c" }, "/home/me")).toBe("/c/cliffcompaction/archive");
    expect(defaultArchiveDir({}, "/home/me")).toBe("/home/me/.cache/cliffcompaction/archive");
  });
});

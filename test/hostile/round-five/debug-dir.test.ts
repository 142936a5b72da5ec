/**
 * Round five, item 5: `--debug-dir` holds its folder to the archive's rule (another account that
 * owns it or can write to it could plant names and links and read every request) and creates each
 * file new, never through a link.
 */
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startProxy } from "../../../proxy/index.js";
import { DebugDump, writeExclusive } from "../../../proxy/observe/debug-dump.js";

const isRoot = process.getuid?.() === 0;

describe("round five: --debug-dir", () => {
  it("5. --debug-dir refuses a folder others can write to", async () => {
    const base = mkdtempSync(join(tmpdir(), "cliff-debug-"));
    const open = join(base, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    await expect(startProxy({ port: 0, debugDir: join(open, "dumps"), env: { HOME: base, XDG_STATE_HOME: base } })).rejects.toThrow(/--debug-dir folder cannot be trusted: .*writable by other users/);
    expect(() => new DebugDump(join(base, "mine"), base)).not.toThrow();
  });

  it.runIf(isRoot)("5. --debug-dir refuses a folder another account owns (as root: the folder chowned to nobody)", () => {
    const base = mkdtempSync(join(tmpdir(), "cliff-debug-"));
    const theirs = join(base, "theirs");
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, 65534, 65534);
    expect(() => new DebugDump(theirs, base)).toThrow(/owned by uid 65534/);
  });

  it("5. --debug-dir files are created exclusively, never through a link, never over a planted file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-debug-"));
    const elsewhere = join(dir, "elsewhere.txt");
    writeFileSync(elsewhere, "theirs");
    symlinkSync(elsewhere, join(dir, "link.json"));
    await expect(writeExclusive(join(dir, "link.json"), "request")).rejects.toThrow(/EEXIST|ELOOP/);
    expect(readFileSync(elsewhere, "utf8")).toBe("theirs");
    writeFileSync(join(dir, "planted.json"), "planted");
    await expect(writeExclusive(join(dir, "planted.json"), "request")).rejects.toThrow(/EEXIST/);
    expect(readFileSync(join(dir, "planted.json"), "utf8")).toBe("planted");
    await writeExclusive(join(dir, "new.json"), "request");
    expect(lstatSync(join(dir, "new.json")).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, "new.json"))).toBe(true);
  });
});

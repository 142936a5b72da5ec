/**
 * The layout move (issue #29) moved files, not the package: `npm pack --dry-run` lists the same
 * files as before it, except the declarations' paths under dist/types/ (they follow the sources)
 * and the docs/*.md pages the package now ships, and each public entry still exports every name it
 * exported then (names added since are new API, not a moved file).
 */
import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const NPM = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
const BEFORE = JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "package", "pack-before-layout.json"), "utf8")) as { files: string[]; exports: Record<string, string[]> };
const ENTRIES = ["core/public", "plugin/lib", "proxy/index"];
/** Each entry's declaration file, by the name a consumer imports. */
const BY_IMPORT: Record<string, string> = { cliffcompaction: "core/public", "cliffcompaction/plugin": "plugin/lib", "cliffcompaction/proxy": "proxy/index" };

/** docs/library.md's table: each entry's documented names (values and types; a name's gloss in parentheses aside). */
function documented(): Record<string, string[]> {
  const page = readFileSync(join(ROOT, "docs", "library.md"), "utf8");
  const table = page.slice(page.indexOf("## What each entry exports"));
  const out: Record<string, string[]> = {};
  for (const line of table.split("\n").filter((l) => /^\| `cliffcompaction/.test(l))) {
    const [, entry, ...cells] = line.split("|").map((c) => c.trim());
    const names = cells.join(" ").replace(/\([^()]*(\([^()]*\)[^()]*)*\)/g, "").match(/`[A-Za-z_][A-Za-z0-9_]*`/g) ?? [];
    out[BY_IMPORT[entry.replace(/`/g, "")]] = names.map((n) => n.replace(/`/g, "")).sort();
  }
  return out;
}

/** The files `npm pack` would put in the tarball (npm test has built dist/; no script runs). */
function packed(): string[] {
  const out = execFileSync(NPM[0], [...NPM.slice(1), "pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, npm_config_loglevel: "error" } });
  return (JSON.parse(out) as { files: { path: string }[] }[])[0].files.map((f) => f.path).sort();
}

/** The names a declaration entry exports, as a consumer's compiler sees them. */
function exportedNames(entry: string): string[] {
  const file = join(ROOT, "dist", "types", `${entry}.d.ts`);
  const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
  return checker.getExportsOfModule(module).map((s) => s.name).sort();
}

describe("the package after the layout move", () => {
  const now = packed();

  it("lists the same files as before, declarations' paths, added docs pages and the plugin zip aside", () => {
    const outsideTypes = (files: string[]) => files.filter((f) => !f.startsWith("dist/types/"));
    const added = outsideTypes(now).filter((f) => !BEFORE.files.includes(f));
    const removed = outsideTypes(BEFORE.files).filter((f) => !now.includes(f));
    expect(removed).toEqual([]);
    // A page's own image (the web view's screenshot) ships beside it: pages link it relatively; the
    // AgentParley zip ships so that a user uploads it without cloning and building.
    const shippedSince = (f: string) => /^docs\/[^/]+\.md$/.test(f) || f === "docs/web-view.png" || /^dist\/cliffcompaction-agentparley-[0-9.]+\.zip$/.test(f);
    expect(added.filter((f) => !shippedSince(f))).toEqual([]);
  });

  it("ships the declarations of each public entry, ESM and CommonJS, at the paths package.json names", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const named = [pkg.types, ...Object.values(pkg.exports as Record<string, unknown>).flatMap((e) => (typeof e === "object" && e !== null ? Object.values(e).map((c) => (c as { types: string }).types) : []))];
    for (const path of named) expect(now, path).toContain(path.replace(/^\.\//, ""));
    for (const entry of ENTRIES) expect(now).toContain(`dist/types/${entry}.d.ts`);
  });

  it("exports what docs/library.md documents for each entry, and nothing else", () => {
    const docs = documented();
    expect(Object.keys(docs).sort()).toEqual([...ENTRIES].sort());
    for (const entry of ENTRIES) expect(exportedNames(entry), entry).toEqual(docs[entry]);
    // The internals the hosts share stay out of the main entry.
    for (const internal of ["arr", "obj", "str", "isObj", "PrefixStore", "canonicalJson"]) expect(exportedNames("core/public")).not.toContain(internal);
  });
});

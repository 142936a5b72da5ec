/**
 * The structure's size rules: no source file over 300 lines and no function over 60 lines in the
 * rooms people edit (tests excluded), so each file and function can be read in one sitting.
 */
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = join(__dirname, "..", "..");
const ROOMS = ["core", "plugin", "pi-extension", "cli", "proxy", "node"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

const FILES = ROOMS.flatMap((r) => sources(join(ROOT, r)));

function longFunctions(file: string, limit: number): string[] {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2020, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (end - start + 1 > limit) out.push(`${relative(ROOT, file)}:${start + 1} (${end - start + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe("structure", () => {
  it("finds the sources it checks", () => {
    expect(FILES.length).toBeGreaterThan(30);
  });

  it("no source file is over 300 lines", () => {
    const long = FILES.filter((f) => readFileSync(f, "utf8").split("\n").length > 300).map((f) => relative(ROOT, f));
    expect(long).toEqual([]);
  });

  it("no function is over 60 lines", () => {
    expect(FILES.flatMap((f) => longFunctions(f, 60))).toEqual([]);
  });
});

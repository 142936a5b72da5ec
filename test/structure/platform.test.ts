/**
 * The plugin reaches the core through its platform entry (core/platform/index.ts) alone, types aside,
 * and through two of its functions: platformMessages reads what the platform handed, handOff plans the
 * cliff. Everything else the plugin takes from the core is a constant. The entry names the plain dialect only: the plugin's bundle
 * carries no other dialect (the whole core's entry, core/index.ts, would bring every one).
 */
import { describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import * as platform from "../../core/platform/index.js";
import { ROOT, sources } from "./imports.js";

/** Each value import of a core module by a plugin source: the module and the names, type-only ones left out. */
function coreImports(): { file: string; module: string; names: string[] }[] {
  const out: { file: string; module: string; names: string[] }[] = [];
  for (const file of sources("plugin")) {
    const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.ES2020, true);
    for (const node of sf.statements) {
      if (!ts.isImportDeclaration(node) && !ts.isExportDeclaration(node)) continue;
      const spec = node.moduleSpecifier;
      if (spec === undefined || !ts.isStringLiteral(spec) || !spec.text.startsWith("../core/")) continue;
      if (ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly) continue;
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      const names = bindings !== undefined && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings))
        ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text)
        : ["*"];
      if (names.length > 0) out.push({ file, module: spec.text, names });
    }
  }
  return out;
}

describe("the plugin and the core", () => {
  const imports = coreImports();

  it("imports the core's values only through core/platform/index.ts", () => {
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((i) => i.module !== "../core/platform/index.js").map((i) => `${i.file}: ${i.module}`)).toEqual([]);
  });

  it("calls two of its functions, platformMessages and handOff, both from summarize.ts alone", () => {
    const names = [...new Set(imports.flatMap((i) => i.names))].sort();
    const functions = names.filter((n) => typeof (platform as Record<string, unknown>)[n] === "function");
    expect(functions).toEqual(["handOff", "platformMessages"]);
    // The envelope, its escapes and its sizer are the plugin's own: they take constants, never a core call.
    for (const f of functions) expect(imports.filter((i) => i.names.includes(f)).map((i) => i.file)).toEqual(["plugin/summarize.ts"]);
  });

  it("the entry is small: it names no dialect but the plain one, and the plugin's bundle carries no other", () => {
    const entry = readFileSync(join(ROOT, "core", "platform", "index.ts"), "utf8");
    expect(entry).not.toMatch(/dialects\/index|"\.\.\/index\.js"/);
    const bundle = join(ROOT, "dist", "cliffcompaction.js");
    expect(existsSync(bundle), "node build.mjs first").toBe(true);
    const text = readFileSync(bundle, "utf8");
    expect(text).toContain('name:"plain"');
    for (const other of ["anthropic", "openai-chat", "openai-responses", "gemini"]) expect(text).not.toContain(`name:"${other}"`);
  });
});

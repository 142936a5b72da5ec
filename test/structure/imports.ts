/**
 * The import graph of the six source rooms (core, plugin, pi-extension, cli, proxy, node), read
 * with TypeScript's parser: each edge knows whether it is type-only, since an import that names
 * only types is erased by the compiler and cannot take part in a cycle at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export const ROOT = resolve(__dirname, "..", "..");
export const ROOMS = ["core", "plugin", "pi-extension", "cli", "proxy", "node"];

export type Edge = { from: string; to: string; typeOnly: boolean };

/** Every .ts source under a folder (declarations excluded), as paths relative to the project root. */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir)).sort()) {
    const p = join(dir, name);
    if (statSync(join(ROOT, p)).isDirectory()) out.push(...sources(p));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolveSpecifier(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = join(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, ".ts"), base + ".ts", join(base, "index.ts")]) {
    if (existsSync(join(ROOT, candidate)) && statSync(join(ROOT, candidate)).isFile()) return relative(ROOT, join(ROOT, candidate));
  }
  return undefined;
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false; // `import "./x.js"` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  if (bindings === undefined || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** The relative imports and re-exports of one file, dynamic `import()` included. */
export function importsOf(file: string): { spec: string; typeOnly: boolean }[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.ES2020, true);
  const out: { spec: string; typeOnly: boolean }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) out.push({ spec: node.moduleSpecifier.text, typeOnly: importIsTypeOnly(node) });
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) out.push({ spec: node.moduleSpecifier.text, typeOnly: exportIsTypeOnly(node) });
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) out.push({ spec: node.arguments[0].text, typeOnly: false });
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) out.push({ spec: node.argument.literal.text, typeOnly: true });
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every edge between sources of the rooms (or of the folders named); a relative import that resolves to nothing is reported too. */
export function graph(rooms: readonly string[] = ROOMS): { files: string[]; edges: Edge[]; unresolved: string[] } {
  const files = rooms.flatMap(sources);
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    for (const { spec, typeOnly } of importsOf(from)) {
      if (!spec.startsWith(".")) continue;
      const to = resolveSpecifier(from, spec);
      if (to === undefined) unresolved.push(`${from} -> ${spec}`);
      else edges.push({ from, to, typeOnly });
    }
  }
  return { files, edges, unresolved };
}

/**
 * The strongly connected components with more than one file (or a file importing itself), by
 * Tarjan's algorithm; type-only imports count only when `types` says so.
 */
export function cycles(files: string[], edges: Edge[], types: "values only" | "types too" = "values only"): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) if (!e.typeOnly || types === "types too") next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (next.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const f of files) if (!index.has(f)) connect(f);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * An import that reaches past a sub-folder's face: the target sits in a folder below a room that
 * the importer is outside of, and it is not that folder's `index.ts`. Rooms themselves are entered
 * freely, and so are the core's sub-folders: the plugin imports the core's files one by one on
 * purpose, to keep the sandbox bundle small, and the core's own files import a dialect's types and
 * registry without running `core/dialects/index.ts`, whose registrations import them back.
 */
export function pastFace(edge: Edge): string | undefined {
  const from = edge.from.split("/");
  const to = edge.to.split("/");
  if (to[0] === "core") return undefined;
  let common = 0;
  while (common < from.length - 1 && common < to.length - 1 && from[common] === to[common]) common++;
  if (common === 0) common = 1; // a room entered from another room: its own sub-folders still have faces
  if (to.length - 1 <= common) return undefined; // the target is directly in the shared folder
  const door = [...to.slice(0, common + 1), "index.ts"].join("/");
  return edge.to === door ? undefined : door;
}

/** Folders of the rooms with more than `limit` sources directly inside. */
export function crowdedFolders(files: string[], limit: number): string[] {
  const count = new Map<string, number>();
  for (const f of files) count.set(dirname(f), (count.get(dirname(f)) ?? 0) + 1);
  return [...count].filter(([, n]) => n > limit).map(([d, n]) => `${d} (${n} files)`).sort();
}

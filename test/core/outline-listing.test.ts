/**
 * Outlines and listings (recall rules), on the shapes agents produce: a Claude Code `Write` series
 * past the working set's total, a Codex `apply_patch` Add File, an `rg -n` listing. Each keeps
 * only copied lines (never a paraphrase), within its budget; the reference profile's bytes do not
 * change.
 */
import { describe, expect, it, vi } from "vitest";
import { compact, type CompactResult } from "../../core/index.js";
import { outlineLines, outlinePart, OUTLINE_TAG } from "../../core/shapes/outline.js";
import { isListing, listingPart, LISTING_TAG } from "../../core/shapes/listing.js";
import { filler, session, stepMessages, taskMessage, type Step } from "../helpers/tool-steps.js";

const fillers = (n = 3): Step[] => Array.from({ length: n }, (_, i) => filler(i));
const summary = (msgs: unknown[], dialect: string, cfg: Record<string, unknown> = {}): string => {
  const r: CompactResult | null = compact(msgs, dialect, { keepRecent: 3, ...cfg });
  expect(r).not.toBeNull();
  return r!.summaryText;
};

/** A TypeScript module of ~5 KB whose defining lines name it (`Store<i>`, `makeItem<i>`, …). */
function tsModule(i: number): string {
  return [
    `import { z } from "zod";`,
    ``,
    `export interface Item${i} {`,
    `  id: string;`,
    `}`,
    ``,
    `export class Store${i} {`,
    `  private readonly items = new Map<string, Item${i}>();`,
    ``,
    `  addItem${i}(item: Item${i}): void {`,
    `    this.items.set(item.id, item);`,
    `  }`,
    `}`,
    ...Array.from({ length: 150 }, (_, k) => `// body line ${k} of module ${i}`),
    `export function makeItem${i}(id: string): Item${i} {`,
    `  return { id };`,
    `}`,
    `export const MAX_ITEMS_${i} = 100;`,
  ].join("\n");
}

/** Every line of a part but its tag line is a line (or a cut piece of a line) of `input`. */
function verbatim(part: string, input: string): void {
  for (const line of part.split("\n").slice(1)) expect(input.split("\n").some((l) => l === line || l.startsWith(line) || l === "+" + line), line).toBe(true);
}

describe("outlines (outlineFileMaxChars, outlineMaxChars)", () => {
  const writes: Step[] = Array.from({ length: 12 }, (_, i) => ({ name: "Write", args: { file_path: `src/store${i}.ts`, content: tsModule(i) }, result: "File created successfully at: src/store" + i + ".ts" }));

  it("a Claude Code Write series past the working set's total: each file that falls back keeps its defining lines, verbatim", () => {
    const msgs = session("anthropic", [...writes, ...fillers()]);
    const cfg = { profile: "recall", workingSetMaxChars: 20_000, outlineFileMaxChars: 600, outlineMaxChars: 6000 };
    const s = summary(msgs, "anthropic", cfg);
    // The newest files stand whole; the oldest fall back to their signature line and their outline.
    expect(s).toContain("return { id };");
    const outline = s.split("\n\n---\n\n").find((p) => p.includes(OUTLINE_TAG + "src/store0.ts"))!;
    expect(outline).toBeDefined();
    const part = outline.slice(outline.indexOf(OUTLINE_TAG));
    expect(part).toBe(`${OUTLINE_TAG}src/store0.ts\nexport interface Item0 {\nexport class Store0 {\n  private readonly items = new Map<string, Item0>();\n  addItem0(item: Item0): void {\nexport function makeItem0(id: string): Item0 {\nexport const MAX_ITEMS_0 = 100;`);
    verbatim(part, tsModule(0));
    // Off: the fallen-back files show their signature line only.
    expect(summary(msgs, "anthropic", { ...cfg, outlineFileMaxChars: 0 })).not.toContain(OUTLINE_TAG);
  });

  it("keeps to its budgets: per file and in all, newest first", () => {
    const msgs = session("anthropic", [...writes, ...fillers()]);
    const s = summary(msgs, "anthropic", { profile: "recall", workingSetMaxChars: 10_000, outlineFileMaxChars: 60, outlineMaxChars: 400 });
    const parts = s.split("\n").filter((l) => l.startsWith(OUTLINE_TAG));
    expect(parts.length).toBeGreaterThan(0);
    let total = 0;
    for (const block of s.split(OUTLINE_TAG).slice(1)) {
      const lines = block.split("\n\n---")[0].split("\n").slice(1).filter((l) => !l.startsWith("result:"));
      const body = lines.join("\n");
      expect(body.length).toBeLessThanOrEqual(60);
      total += OUTLINE_TAG.length + block.split("\n\n---")[0].length;
    }
    expect(total).toBeLessThanOrEqual(400 + 200);
    // Newest first: the newest file that fell back has its outline before an older one loses its own.
    expect(s).toContain(`${OUTLINE_TAG}src/store`);
  });

  it("a Codex apply_patch Add File: the added lines' definitions, without the +", () => {
    const body = tsModule(7);
    const patch = `*** Begin Patch\n*** Add File: src/store7.ts\n${body.split("\n").map((l) => "+" + l).join("\n")}\n*** End Patch`;
    const items: unknown[] = [taskMessage("openai-responses", "task")];
    for (let k = 0; k < 8; k++) items.push({ type: "custom_tool_call", call_id: `c${k}`, name: "apply_patch", input: patch.split("store7").join(`store${k}`) }, { type: "custom_tool_call_output", call_id: `c${k}`, output: "Success" });
    items.push(...fillers().flatMap((f) => stepMessages("openai-responses", f)));
    const s = summary(items, "openai-responses", { profile: "recall", workingSetMaxChars: 12_000, outlineFileMaxChars: 600, outlineMaxChars: 6000 });
    expect(s).toContain(`${OUTLINE_TAG}src/store0.ts\nexport interface Item7 {\nexport class Store7 {`);
    expect(s).not.toContain(`${OUTLINE_TAG}src/store0.ts\n+`);
  });

  it("a read the per-file cap cuts keeps the outline of the rest", () => {
    const text = tsModule(3);
    const msgs = session("anthropic", [{ name: "Read", args: { file_path: "src/store3.ts" }, result: text }, ...fillers()]);
    const s = summary(msgs, "anthropic", { profile: "recall", workingSetFileMaxChars: 400, outlineFileMaxChars: 600 });
    expect(s).toContain(`${OUTLINE_TAG}src/store3.ts\nexport function makeItem3(id: string): Item3 {\nexport const MAX_ITEMS_3 = 100;`);
  });

  it("reads each language's defining lines", () => {
    const cases: [string, string, string[]][] = [
      ["a.py", "import os\n\nclass Parser:\n    def parse(self, text):\n        return 1\n\nasync def main():\n    pass\nMAX_SIZE = 10\n", ["class Parser:", "    def parse(self, text):", "async def main():", "MAX_SIZE = 10"]],
      ["a.rs", "use std::io;\npub struct Lexer {\n    pos: usize,\n}\nimpl Lexer {\n    pub fn next_token(&mut self) -> Token {\n        todo!()\n    }\n}\n", ["pub struct Lexer {", "impl Lexer {", "    pub fn next_token(&mut self) -> Token {"]],
      ["a.go", "package main\n\ntype Server struct {\n}\n\nfunc (s *Server) Serve() error {\n\treturn nil\n}\n", ["type Server struct {", "func (s *Server) Serve() error {"]],
      ["A.kt", "package x\n\ndata class User(val id: String)\n\nfun main() {\n}\n", ["data class User(val id: String)", "fun main() {"]],
      ["a.c", "#include <stdio.h>\n#define MAX_LEN 10\nstatic int parse_args(int argc, char **argv) {\n  return 0;\n}\nstruct point {\n  int x;\n};\n", ["#define MAX_LEN 10", "static int parse_args(int argc, char **argv) {", "struct point {"]],
      ["run.sh", "#!/bin/sh\nset -e\nBUILD_DIR=out\nbuild_all() {\n  make\n}\n", ["BUILD_DIR=out", "build_all() {"]],
      ["schema.sql", "-- tables\nCREATE TABLE users (\n  id int\n);\ncreate index users_id on users(id);\n", ["CREATE TABLE users (", "create index users_id on users(id);"]],
      ["app.css", ":root {\n  --brand: #333;\n}\n.card .title {\n  color: red;\n}\n", [":root {", "  --brand: #333;", ".card .title {"]],
      ["package.json", '{\n  "name": "x",\n  "scripts": {\n    "build": "tsc"\n  }\n}\n', ['  "name": "x",', '  "scripts": {']],
      ["ci.yml", "name: ci\non:\n  push:\njobs:\n  test:\n", ["name: ci", "on:", "jobs:"]],
      ["README.md", "# Title\ntext\n## Usage\nmore\n", ["# Title", "## Usage"]],
    ];
    for (const [path, text, want] of cases) expect(outlineLines(path, text, 10_000), path).toEqual(want);
  });

  it("is linear in the file: a 4 MB file of one line, or of short lines, is read within the scan bound", () => {
    expect(outlineLines("a.ts", "x".repeat(4_000_000), 1000)).toEqual([]);
    expect(outlineLines("a.ts", "1234\n".repeat(800_000) + "export const LATE = 1;\n", 1000)).toEqual([]);
    expect(outlinePart("a.ts", "nothing defined here\n", 1000)).toBeNull();
  });
});

describe("listings (listingMaxChars)", () => {
  const rg = [
    "src/parser/lexer.ts:12:export function nextToken(input: string) {",
    "src/parser/lexer.ts:40:  const token = nextToken(rest);",
    "src/parser/ast.ts:7:import { nextToken } from './lexer';",
    "test/lexer.spec.ts:3:import { nextToken } from '../src/parser/lexer';",
    "test/lexer.spec.ts:19:    expect(nextToken('a')).toEqual(tok('a'));",
    ...Array.from({ length: 60 }, (_, k) => `src/gen/file${k}.ts:${k + 1}:  nextToken(x${k});`),
  ].join("\n");

  it("an rg -n listing keeps its distinct paths, then its path:line anchors, each once, within the cap", () => {
    expect(isListing(rg)).toBe(true);
    const part = listingPart(rg, 2000)!;
    const lines = part.slice(LISTING_TAG.length).split("\n");
    expect(lines.slice(0, 4)).toEqual(["src/parser/lexer.ts", "src/parser/ast.ts", "test/lexer.spec.ts", "src/gen/file0.ts"]);
    expect(new Set(lines).size).toBe(lines.length);
    expect(lines).toContain("src/parser/lexer.ts:12");
    expect(part.length).toBeLessThanOrEqual(2000);
    // Every kept line is a piece of one input line.
    for (const l of lines) expect(rg.split("\n").some((x) => x.startsWith(l)), l).toBe(true);
    expect(listingPart(rg, 100)!.length).toBeLessThanOrEqual(100);
  });

  it("find and git status are listings; a log or a file's text is not", () => {
    expect(isListing(Array.from({ length: 10 }, (_, k) => `./src/components/Widget${k}.tsx`).join("\n"))).toBe(true);
    expect(listingPart(" M src/a.ts\n M src/b.ts\n?? docs/new.md\n D old/c.py\n", 500)).toBe(`${LISTING_TAG}src/a.ts\nsrc/b.ts\ndocs/new.md\nold/c.py`);
    expect(isListing(Array.from({ length: 40 }, (_, k) => `ERROR test ${k} failed: expected 1 got 2`).join("\n"))).toBe(false);
    expect(isListing(tsModuleLike())).toBe(false);
  });

  it("judges a log without its patterns on lines holding no slash and no dot, and stops reading once the share is out of reach", () => {
    const log = Array.from({ length: 2000 }, (_, k) => `line ${k}: value ${k * 7} of the build log`).join("\n");
    const exec = vi.spyOn(RegExp.prototype, "exec");
    const newlines = vi.spyOn(String.prototype, "indexOf");
    try {
      expect(isListing(log)).toBe(false);
      expect(listingPart(log, 500)).toBeNull();
      expect(exec).not.toHaveBeenCalled();
      // 81 misses of 200 lines: no share of paths past 60% is left to reach.
      expect(newlines.mock.calls.filter(([s]) => s === "\n").length).toBe(2 * 81);
    } finally {
      vi.restoreAllMocks();
    }
    // A listing after 80 lines of text is still judged on its first 200 lines, as before.
    const mixed = [...Array.from({ length: 80 }, (_, k) => `note ${k}`), ...Array.from({ length: 120 }, (_, k) => `src/f${k}.ts`)].join("\n");
    expect(isListing(mixed)).toBe(true);
  });

  it("a dropped rg -n result in a Codex session keeps the listing; the reference profile's bytes do not change", () => {
    const steps: Step[] = [{ name: "exec_command", args: { cmd: "rg -n nextToken" }, result: rg }, ...fillers()];
    const msgs = session("openai-responses", steps);
    const s = summary(msgs, "openai-responses", { profile: "recall", listingMaxChars: 600 });
    expect(s).toContain(`${LISTING_TAG}src/parser/lexer.ts\nsrc/parser/ast.ts\ntest/lexer.spec.ts`);
    const ref = summary(msgs, "openai-responses", { profile: "reference" });
    expect(ref).not.toContain(LISTING_TAG);
    expect(summary(msgs, "openai-responses", { profile: "reference", outlineMaxChars: 1, listingMaxChars: 0 })).toBe(ref);
  });
});

function tsModuleLike(): string {
  return Array.from({ length: 30 }, (_, k) => `  const value${k} = compute(${k});`).join("\n");
}

describe("the reference profile", () => {
  it("keeps both rules off: its bytes are the reference's", () => {
    const msgs = session("anthropic", [{ name: "Write", args: { file_path: "src/store0.ts", content: tsModule(0) }, result: "ok" }, { name: "bash", args: { command: "rg -n x" }, result: "a/b.ts:1:x\na/c.ts:2:x\na/d.ts:3:x\na/e.ts:4:x\n".repeat(50) }, ...fillers()]);
    const s = summary(msgs, "anthropic", { profile: "reference" });
    expect(s).not.toContain(OUTLINE_TAG);
    expect(s).not.toContain(LISTING_TAG);
  });
});

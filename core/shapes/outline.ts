/**
 * Outlines (a recall rule, outlineFileMaxChars / outlineMaxChars): a file's defining lines, verbatim,
 * in file order: functions, classes, methods, types, exported names and constants, by the language
 * its extension names (TypeScript / JavaScript, Python, Rust, Go, Java / Kotlin, C / C++, shell,
 * SQL, CSS selectors, JSON / YAML top-level keys, Markdown headings; any other file: the union of
 * the code patterns and headings). Each line is the input's own line (a patch's added line without
 * its `+`), cut when it is longer than LINE_MAX: the no-paraphrase property holds. One pass over
 * the text, each line tested against anchored patterns without nested repetition, so the time is
 * linear in the file's size.
 */
import { toWellFormed } from "../text.js";

export const OUTLINE_TAG = "[outline] ";
/** A defining line longer than this is cut (a minified file's one line says little). */
const LINE_MAX = 160;
/** Longer lines are not tested (no definition is that long), so each test costs at most a constant. */
const TEST_MAX = 400;
/** Only a file's first this many characters are read for its outline: time and memory stay bounded. */
const SCAN_MAX = 1_000_000;

const TS_JS = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|enum|namespace|module)\s+[\w$]/,
  /^\s*(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]*)?=\s*(?:async\s+)?(?:\([^)]*\)|[\w$]+)\s*(?::[^=]*)?=>/,
  /^(?:export\s+)(?:declare\s+)?(?:const|let|var)\s+[\w$]/,
  /^(?:const|let|var)\s+[A-Z][A-Z0-9_]+\s*=/,
  /^\s*export\s+(?:default\s+|\*|\{)/,
  /^\s+(?:[a-z]+\s+)*[\w$#]+\s*(?:<[^>]*>)?\([^)]*\)\s*(?::\s*[^={;]+)?\{\s*$/,
  /^\s+(?:private|public|protected|readonly|static)\s[^(]*[:=]/,
];
const PYTHON = [/^\s*(?:async\s+)?def\s+\w/, /^\s*class\s+\w/, /^[A-Z][A-Z0-9_]*\s*(?::[^=]*)?=/, /^@\w/];
const RUST = [/^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+|const\s+|unsafe\s+|extern\s+"[^"]*"\s+)*(?:fn|struct|enum|trait|impl|mod|type|const|static|union|macro_rules!)\b/];
const GO = [/^func\s/, /^type\s+\w/, /^(?:const|var)\s+(?:\w|\()/, /^\t\w+\s+(?:struct|interface)\s*\{/];
const JAVA_KOTLIN = [
  /^\s*(?:@\w+\s+)*(?:[a-z]+\s+)*(?:class|interface|enum|record|object|fun|typealias)\s+[\w<`]/,
  /^\s*(?:[a-z]+\s+)*(?:val|var)\s+\w+\s*[:=]/,
];
const C_CPP = [
  /^\s*(?:typedef\s+)?(?:struct|class|enum|union|namespace)\s+\w+[^;]*$/,
  /^#\s*define\s+\w/,
  /^(?:static\s+|inline\s+|extern\s+|virtual\s+|constexpr\s+|const\s+|unsigned\s+|signed\s+)*[A-Za-z_][\w:<>,*& ]*[\s*&]\**[A-Za-z_][\w:~]*\s*\([^;]*\)\s*(?:const\s*)?(?:override\s*)?\{?\s*$/,
  /^\s*template\s*</,
];
const SHELL = [/^\s*(?:function\s+)?[A-Za-z_][\w:.-]*\s*\(\)\s*\{?/, /^\s*function\s+[A-Za-z_][\w:.-]*/, /^(?:export\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?[A-Z_][A-Z0-9_]*=/];
const SQL = [/^\s*(?:create|alter)\s+(?:or\s+replace\s+)?(?:temporary\s+|temp\s+|unique\s+|materialized\s+)*(?:table|view|index|function|procedure|trigger|type|schema|sequence|extension|policy)\b/i];
const CSS = [/^[^\s{}@/*][^{};]*\{\s*$/, /^@(?:media|keyframes|font-face|supports|layer|import|tailwind)\b/, /^\s*--[\w-]+\s*:/];
const JSON_KEYS = [/^(?: {2}|\t)"[^"]*"\s*:/];
const YAML = [/^[A-Za-z_"'][^:#]*:(?:\s|$)/, /^-\s+[A-Za-z_"'][^:#]*:(?:\s|$)/];
const MARKDOWN = [/^#{1,6}\s+\S/];
const GENERIC = [...TS_JS, ...PYTHON, ...RUST, ...GO, ...MARKDOWN];

const BY_EXTENSION: Record<string, readonly RegExp[]> = {
  ts: TS_JS, tsx: TS_JS, mts: TS_JS, cts: TS_JS, js: TS_JS, jsx: TS_JS, mjs: TS_JS, cjs: TS_JS, vue: TS_JS, svelte: TS_JS,
  py: PYTHON, pyi: PYTHON, rs: RUST, go: GO,
  java: JAVA_KOTLIN, kt: JAVA_KOTLIN, kts: JAVA_KOTLIN, scala: JAVA_KOTLIN, swift: JAVA_KOTLIN, cs: JAVA_KOTLIN,
  c: C_CPP, h: C_CPP, cc: C_CPP, cpp: C_CPP, cxx: C_CPP, hpp: C_CPP, hh: C_CPP, hxx: C_CPP, m: C_CPP, mm: C_CPP,
  sh: SHELL, bash: SHELL, zsh: SHELL, ksh: SHELL, sql: SQL, css: CSS, scss: CSS, sass: CSS, less: CSS,
  json: JSON_KEYS, jsonc: JSON_KEYS, yaml: YAML, yml: YAML,
  md: MARKDOWN, mdx: MARKDOWN, markdown: MARKDOWN, rst: MARKDOWN,
};

/** The patterns for a path: by its extension, else the generic union. */
function patternsFor(path: string): readonly RegExp[] {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return (dot > 0 ? BY_EXTENSION[base.slice(dot + 1).toLowerCase()] : undefined) ?? GENERIC;
}

/**
 * The defining lines of `text` (a file at `path`), in order, up to `maxChars` in all (each line and
 * its newline counted). `patch`: the text is a patch's added lines, each line's leading `+` left out
 * and removed lines skipped.
 */
export function outlineLines(path: string, text: string, maxChars: number, patch = false): string[] {
  const patterns = patternsFor(path);
  const out: string[] = [];
  let used = 0;
  const stop = Math.min(text.length, SCAN_MAX);
  for (let start = 0; start < stop && used < maxChars; ) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > stop) end = stop;
    if (end - start > TEST_MAX + 1) {
      start = end + 1;
      continue;
    }
    let line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (patch) {
      if (line.charCodeAt(0) !== 43 || line.startsWith("+++")) continue;
      line = line.slice(1);
    }
    if (line.trim().length < 3 || !patterns.some((p) => p.test(line))) continue;
    const kept = toWellFormed(line.length > LINE_MAX ? line.slice(0, LINE_MAX) : line);
    if (used + kept.length + 1 > maxChars) break;
    out.push(kept);
    used += kept.length + 1;
  }
  return out;
}

/** The outline part of a file, or null when it has no defining line within the cap. */
export function outlinePart(path: string, text: string, maxChars: number, patch = false): string | null {
  const lines = outlineLines(path, text, maxChars, patch);
  return lines.length === 0 ? null : OUTLINE_TAG + path + "\n" + lines.join("\n");
}

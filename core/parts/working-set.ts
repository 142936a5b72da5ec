/**
 * The working set (a recall rule): of each file the compacted span read or wrote whole, only the
 * newest copy keeps its text (a read's result kept whole up to workingSetFileMaxChars, a whole-file
 * write's content as the edit rule shows it); older copies of the same path are superseded and keep
 * only what the other rules keep of them. The newest copies share workingSetMaxChars, newest first;
 * what the caps cut stays in the archive. Paths are compared as the calls spell them.
 */
import { argsObject, fileOpsOfCall } from "./call-kinds.js";
import { isArray, str } from "../guards.js";
import { withPointer } from "../archive.js";
import { toWellFormed, truncate } from "../text.js";
import { pointerTo, type PartContext, type ResultMeta } from "./context.js";
import { signatureLine } from "./signature.js";
import { RESULT_TAG } from "./tags.js";
import type { CallBook } from "./call-book.js";

// The sandbox build has no one to tell which rule made a line (ctx.note): it leaves the calls out.
declare const __CLIFF_SANDBOX__: boolean | undefined;


/** One copy of a file's text in the summary: the line the rule keeps, and what stands when it is superseded. */
export interface FileCopy {
  /** Body index of the message that holds it. */
  readonly at: number;
  readonly path: string;
  /** The line as the working set keeps it (present in the message's parts). */
  readonly full: string;
  /** The line without the rule (null: nothing). */
  readonly fallback: string | null;
}

/** Characters a rule may still spend, shared by the passes that settle one span. */
export interface Budget {
  used: number;
  readonly max: number;
}

/** The asked-twice rule's say in a settling: a newest copy past the total stands on its budget when its path was asked twice. */
export interface AskedBudget {
  repeated: (path: string) => boolean;
  budget: Budget;
}

/** Copies by body index, kept across the passes of one list (every pass covers a prefix of the body). */
export class CopyBook {
  private readonly byAt = new Map<number, FileCopy[]>();

  note(copy: FileCopy): void {
    const list = this.byAt.get(copy.at);
    if (list === undefined) this.byAt.set(copy.at, [copy]);
    else if (!list.some((c) => c.path === copy.path && c.full === copy.full)) list.push(copy);
  }

  get size(): number {
    return this.byAt.size;
  }

  /**
   * The copies before `end` that fall back, by body index: a line falls back when every file it
   * holds a copy of has a newer copy (superseded), or when it is beyond the total cap, newest first.
   */
  fallbacks(end: number, totalMax: number, asked?: AskedBudget): Map<number, FileCopy[]> {
    const at = [...this.byAt.keys()].filter((i) => i < end).sort((a, b) => b - a);
    const seen = new Set<string>();
    const out = new Map<number, FileCopy[]>();
    let used = 0;
    for (const i of at) {
      const list = this.byAt.get(i)!;
      const lines = new Map<string, FileCopy[]>();
      for (const c of list) lines.set(c.full, [...(lines.get(c.full) ?? []), c]);
      for (const [full, copies] of lines) {
        const newest = copies.some((c) => !seen.has(c.path));
        for (const c of copies) seen.add(c.path);
        if (newest && used + full.length <= totalMax) used += full.length;
        else if (newest && asked !== undefined && asked.budget.used + full.length <= asked.budget.max && copies.some((c) => asked.repeated(c.path))) asked.budget.used += full.length;
        else (out.get(i) ?? out.set(i, []).get(i)!).push(copies[0]);
      }
    }
    return out;
  }
}

// Each list's copies, beside its call book (kept across the passes of one list as the book is).
const COPIES = /* @__PURE__ */ new WeakMap<CallBook, CopyBook>();

function copiesOf(book: CallBook): CopyBook {
  let c = COPIES.get(book);
  if (c === undefined) COPIES.set(book, (c = new CopyBook()));
  return c;
}

/** The parts of body message `i` once the span's copies are settled: superseded or over-cap copies fall back. */
export function settleCopies(book: CallBook, end: number, totalMax: number, asked?: AskedBudget): (i: number, parts: string[]) => string[] {
  const fallbacks = copiesOf(book).fallbacks(end, totalMax, asked);
  return byFallbacks(fallbacks);
}

/** The parts of body message `i` with the copies of `fallbacks` fallen back. */
export function byFallbacks(fallbacks: ReadonlyMap<number, readonly FileCopy[]>): (i: number, parts: string[]) => string[] {
  return (i, parts) => {
    const fell = fallbacks.get(i);
    return fell === undefined ? parts : applyFallbacks(parts, fell);
  };
}

/** `parts` with each fallen-back copy's line replaced by its fallback (or removed). */
export function applyFallbacks(parts: readonly string[], copies: readonly FileCopy[]): string[] {
  const out = parts.slice();
  for (const c of copies) {
    const k = out.findIndex((p) => p.indexOf(c.full) >= 0);
    if (k < 0) continue;
    const p = out[k];
    if (p === c.full) {
      if (c.fallback === null) out.splice(k, 1);
      else out[k] = c.fallback;
      continue;
    }
    const at = p.indexOf(c.full);
    // A line inside a part of several lines: it stands between newlines.
    const before = p.slice(0, at);
    const after = p.slice(at + c.full.length);
    out[k] = c.fallback !== null ? before + c.fallback + after : before.endsWith("\n") ? before.slice(0, -1) + after : after.startsWith("\n") ? before + after.slice(1) : before + after;
  }
  return out;
}

const SHELL_TOOLS = /* @__PURE__ */ new Set("shell shell_command exec exec_command local_shell local_shell_call container.exec bash execute_bash run_command run_shell_command terminal".split(" "));
const WRITE_TOOLS = /* @__PURE__ */ new Set("write write_file create_file".split(" "));
const EDITOR_TOOLS = /* @__PURE__ */ new Set("str_replace_editor str_replace_based_edit_tool".split(" "));
const PATCH_TOOLS = /* @__PURE__ */ new Set("apply_patch apply_patch_call".split(" "));
const PATH_KEYS = ["file_path", "path", "filePath", "filename"];

// A patch's whole new file; a heredoc written to a file (cat > f <<EOF, cat <<EOF > f, tee f <<EOF);
// a PowerShell here-string piped to Set-Content or Out-File (Codex on Windows writes files so).
const ADD_FILE = /^\*\*\* Add File: (.+)$/gm;
const CAT_TO = /\bcat\s+>\s*(['"]?)([^\s'"<>|;&]+)\1\s*<<-?\s*['"]?\w+/g;
const CAT_FROM = /\bcat\s+<<-?\s*['"]?\w+['"]?\s*>\s*(['"]?)([^\s'"<>|;&]+)\1/g;
const TEE = /\btee\s+(['"]?)([^\s'"<>|;&-][^\s'"<>|;&]*)\1\s*<<-?\s*['"]?\w+/g;
const HERE_STRING = /^['"]@\s*\|\s*(?:Set-Content|Out-File)\s+(?:-(?:Path|FilePath|LiteralPath)\s+)?(['"]?)([^\s'"|;]+)\1/gm;
// A whole file read by a shell command alone (cat, nl -ba, Get-Content).
const SHELL_READ = /^\s*(?:cd\s+\S+\s*&&\s*)?(?:cat|nl\s+-ba|Get-Content(?:\s+-Raw)?(?:\s+-Path)?)\s+(['"]?)([^\s'"|;&<>]+)\1\s*$/;

function matches(re: RegExp, text: string, group: number): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(re)) out.push(m[group].trim());
  return out;
}

function shellText(args: Record<string, unknown>): string {
  const c = args.command ?? args.cmd;
  // An argv list (["bash", "-lc", script], ["apply_patch", patch]) carries its text last.
  return isArray(c) ? str(c[c.length - 1]) : str(c);
}

/** The paths a call writes whole (a new file's full text), in every dialect the rule knows. */
export function wholeWritePaths(name: unknown, rawArgs: unknown): string[] {
  const tool = str(name).toLowerCase();
  const args = argsObject(rawArgs);
  if (WRITE_TOOLS.has(tool)) return PATH_KEYS.map((k) => args[k]).filter((p): p is string => typeof p === "string" && p !== "").slice(0, 1);
  if (EDITOR_TOOLS.has(tool)) return args.command === "create" && typeof args.path === "string" ? [args.path] : [];
  if (PATCH_TOOLS.has(tool)) return matches(ADD_FILE, [args.input, args.patch, shellText(args)].map((v) => str(v)).join("\n"), 1);
  if (!SHELL_TOOLS.has(tool)) return [];
  const text = shellText(args);
  if (text.indexOf("\n") < 0) return [];
  return [...matches(ADD_FILE, text, 1), ...matches(CAT_TO, text, 2), ...matches(CAT_FROM, text, 2), ...matches(TEE, text, 2), ...matches(HERE_STRING, text, 2)];
}

/** The path a call reads whole, if it is a read (a read tool, a viewer, a shell command that prints one file). */
export function readPath(name: unknown, rawArgs: unknown): string | null {
  const tool = str(name).toLowerCase();
  if (SHELL_TOOLS.has(tool)) {
    const m = SHELL_READ.exec(shellText(argsObject(rawArgs)));
    return m === null ? null : m[2];
  }
  const read = fileOpsOfCall(name, rawArgs).read;
  return read.length === 1 ? read[0] : null;
}

/**
 * A long result that reads one file, as the working set keeps it: whole up to the per-file cap,
 * noted as a copy whose fallback (when a newer copy supersedes it) is `part`, what the other rules keep.
 */
export function workingSetRead(text: string, clean: string, ctx: PartContext, meta: ResultMeta | undefined, part: string | null): string | null {
  const book = ctx.book;
  const call = book?.callOf(meta?.callId);
  const path = call === undefined ? null : readPath(call.name, call.args);
  if (book === undefined || path === null) return part;
  const cap = ctx.cfg.workingSetFileMaxChars;
  const full = withPointer(toWellFormed(RESULT_TAG + truncate(clean, cap)), clean.length > cap ? pointerTo(ctx.archive, text, "result") : null) as string;
  copiesOf(book).note({ at: book.at, path, full, fallback: part });
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("working-set", full);
  return full;
}

/** A whole-file write's edit line, noted as a copy of each file it writes; superseded, it falls back to the signature line. */
export function workingSetWrite(line: string, name: unknown, args: unknown, ctx: PartContext): string {
  const book = ctx.book;
  const paths = book === undefined ? [] : wholeWritePaths(name, args);
  if (book === undefined || paths.length === 0) return line;
  const fallback = signatureLine(name, args, ctx);
  // Superseded, the write shows as the reference shows a call.
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("call", fallback);
  for (const path of paths) copiesOf(book).note({ at: book.at, path, full: line, fallback });
  return line;
}

/**
 * The working set (a recall rule): of each file the compacted span read or wrote whole, only the
 * newest copy keeps its text (a read's result kept whole up to workingSetFileMaxChars, a whole-file
 * write's content as the edit rule shows it); older copies of the same path are superseded and keep
 * only what the other rules keep of them. The newest copies share workingSetMaxChars, newest first;
 * what the caps cut stays in the archive. Paths are compared as the calls spell them. Outlines
 * (outlineFileMaxChars): a file's newest copy that the caps keep only in part, or not at all, also
 * keeps the defining lines of what they cut (core/parts/outline.ts), under a total of its own.
 */
import { readPath, wholeWritePaths } from "../shapes/file-calls.js";
import { withPointer } from "../archive.js";
import { toWellFormed, truncate } from "../text.js";
import { pointerTo, type PartContext, type ResultMeta } from "./context.js";
import { signatureLine } from "./signature.js";
import { outliner, writtenText, type OutlineCaps } from "../shapes/file-outline.js";
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
  /** The file's text this copy holds, and how much of it `full` shows (an outline covers the rest). */
  readonly text?: string;
  readonly shown?: number;
  /** The text is a patch: its added lines are the file's. */
  readonly patch?: boolean;
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

/** One message's copies, and which (line, path) pairs it holds already (a message may hold thousands). */
interface AtCopies {
  /** The making that noted them (CallBook.making): one made again notes afresh, a fallback may be a focus excerpt of that pass's tail. */
  making: number;
  list: FileCopy[];
  paths: Map<string, Set<string>>;
}

/** Copies by body index, kept across the passes of one list (every pass covers a prefix of the body). */
export class CopyBook {
  private readonly byAt = new Map<number, AtCopies>();

  note(copy: FileCopy, making: number): void {
    let at = this.byAt.get(copy.at);
    if (at === undefined || at.making !== making) this.byAt.set(copy.at, (at = { making, list: [], paths: new Map() }));
    let paths = at.paths.get(copy.full);
    if (paths === undefined) at.paths.set(copy.full, (paths = new Set()));
    if (paths.has(copy.path)) return;
    paths.add(copy.path);
    at.list.push(copy);
  }

  get size(): number {
    return this.byAt.size;
  }

  /**
   * The copies before `end` that fall back, by body index: a line falls back when every file it
   * holds a copy of has a newer copy (superseded), or when it is beyond the total cap, newest first.
   * With outline caps, a newest copy beyond the total cap falls back to its line and its file's
   * outline, and one kept only in part is followed by the outline of the rest, newest first.
   */
  fallbacks(end: number, totalMax: number, asked?: AskedBudget, outline: OutlineCaps | null = null): Map<number, FileCopy[]> {
    const at = [...this.byAt.keys()].filter((i) => i < end).sort((a, b) => b - a);
    const seen = new Set<string>();
    const out = new Map<number, FileCopy[]>();
    const add = (i: number, c: FileCopy): void => void (out.get(i) ?? out.set(i, []).get(i)!).push(c);
    let used = 0;
    const outlineOf = outliner(outline);
    for (const i of at) {
      const lines = new Map<string, FileCopy[]>();
      for (const c of this.byAt.get(i)!.list) {
        const same = lines.get(c.full);
        if (same === undefined) lines.set(c.full, [c]);
        else same.push(c);
      }
      for (const [full, copies] of lines) {
        const fresh = copies.filter((c) => !seen.has(c.path));
        for (const c of copies) seen.add(c.path);
        if (fresh.length > 0 && used + full.length <= totalMax) {
          used += full.length;
          // Kept, but cut at the per-file cap: the outline of what the cut left out follows the line.
          const cut = fresh.filter((c) => c.text !== undefined && c.shown !== undefined && c.shown < c.text.length);
          const more = cut.length === 0 ? null : outlineOf(cut, true);
          if (more !== null) add(i, { ...copies[0], fallback: full + "\n" + more });
          continue;
        }
        if (fresh.length > 0 && asked !== undefined && asked.budget.used + full.length <= asked.budget.max && copies.some((c) => asked.repeated(c.path))) {
          asked.budget.used += full.length;
          continue;
        }
        const o = fresh.length === 0 ? null : outlineOf(fresh, false);
        add(i, o === null ? copies[0] : { ...copies[0], fallback: copies[0].fallback === null ? o : copies[0].fallback + "\n" + o });
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
export function settleCopies(book: CallBook, end: number, totalMax: number, asked?: AskedBudget, outline: OutlineCaps | null = null): (i: number, parts: string[]) => string[] {
  const fallbacks = copiesOf(book).fallbacks(end, totalMax, asked, outline);
  return byFallbacks(fallbacks);
}

/** The parts of body message `i` with the copies of `fallbacks` fallen back. */
export function byFallbacks(fallbacks: ReadonlyMap<number, readonly FileCopy[]>): (i: number, parts: string[]) => string[] {
  return (i, parts) => {
    const fell = fallbacks.get(i);
    return fell === undefined ? parts : applyFallbacks(parts, fell);
  };
}

/** A piece of one part to replace: [start, end) of its text by `text`. */
type Cut = { start: number; end: number; text: string };

/** The cuts made in one part so far, by where they start and end (to read the part as it now stands). */
class PartCuts {
  readonly list: Cut[] = [];
  private readonly byStart = new Map<number, Cut>();
  private readonly byEnd = new Map<number, Cut>();
  reach = 0; // the end of the furthest cut: a cut past it overlaps none

  add(c: Cut): void {
    this.list.push(c);
    this.byStart.set(c.start, c);
    this.byEnd.set(c.end, c);
    this.reach = Math.max(this.reach, c.end);
  }

  overlaps(c: Cut): boolean {
    return c.start < this.reach && this.list.some((x) => x.start < c.end && c.start < x.end);
  }

  /** Where the newline just before `pos` stands in the part as it now stands, if one does (-1: none, or one a fallback wrote). */
  newlineBefore(p: string, pos: number): number {
    for (let c = this.byEnd.get(pos); c !== undefined; c = this.byEnd.get(pos)) {
      if (c.text !== "") return -1;
      pos = c.start;
    }
    return pos > 0 && p[pos - 1] === "\n" ? pos - 1 : -1;
  }

  newlineAfter(p: string, pos: number): number {
    for (let c = this.byStart.get(pos); c !== undefined; c = this.byStart.get(pos)) {
      if (c.text !== "") return -1;
      pos = c.end;
    }
    return p[pos] === "\n" ? pos : -1;
  }
}

/**
 * Replaces a copy's line inside a part of several lines, as if the part were edited in turn: by its
 * fallback, or removed with the newline before it (after it, when it leads what is left).
 */
function cutLine(p: string, at: number, c: FileCopy, cuts: PartCuts): void {
  const end = at + c.full.length;
  if (cuts.overlaps({ start: at, end, text: "" })) return; // a line inside one already cut: left as it stands
  if (c.fallback !== null) return cuts.add({ start: at, end, text: c.fallback });
  cuts.add({ start: at, end, text: "" });
  const before = cuts.newlineBefore(p, at);
  const after = before < 0 ? cuts.newlineAfter(p, end) : -1;
  const nl = before >= 0 ? before : after;
  if (nl >= 0) cuts.add({ start: nl, end: nl + 1, text: "" });
}

function applyCuts(p: string, cuts: Cut[]): string {
  cuts.sort((a, b) => a.start - b.start);
  let out = "";
  let from = 0;
  for (const c of cuts) {
    out += p.slice(from, c.start) + c.text;
    from = c.end;
  }
  return out + p.slice(from);
}

/**
 * `parts` with each fallen-back copy's line replaced by its fallback (or removed). A message may
 * hold thousands of copies, so nothing is searched once per copy from the start: a line that is a
 * part of its own is found by a table of the parts; a line inside a part of several lines is
 * searched for after the previous one (the calls' lines stand in the order of the calls), and
 * each such part is rebuilt once (a part nothing is left of is removed, as a line that was the
 * whole part is).
 */
export function applyFallbacks(parts: readonly string[], copies: readonly FileCopy[]): string[] {
  const out = parts.slice();
  const whole = new Map<string, number[]>();
  out.forEach((p, k) => (whole.get(p) ?? whole.set(p, []).get(p)!).push(k));
  const removed = new Set<number>();
  const cuts = new Map<number, PartCuts>();
  let last = -1;
  let cursor = 0;
  for (const c of copies) {
    const own = whole.get(c.full)?.shift();
    if (own !== undefined) {
      if (c.fallback === null) removed.add(own);
      else out[own] = c.fallback;
      continue;
    }
    let at = last >= 0 ? out[last].indexOf(c.full, cursor) : -1;
    const k = at >= 0 ? last : out.findIndex((p, j) => !removed.has(j) && (at = p.indexOf(c.full)) >= 0);
    if (k < 0) continue;
    cutLine(out[k], at, c, cuts.get(k) ?? cuts.set(k, new PartCuts()).get(k)!);
    [last, cursor] = [k, at + c.full.length];
  }
  for (const [k, list] of cuts) {
    out[k] = applyCuts(out[k], list.list);
    if (out[k] === "") removed.add(k);
  }
  return removed.size === 0 ? out : out.filter((_, k) => !removed.has(k));
}

export { readPath, wholeWritePaths } from "../shapes/file-calls.js";

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
  const full = withPointer(toWellFormed(RESULT_TAG + truncate(clean, cap)), clean.length > cap ? pointerTo(ctx, text, "result") : null) as string;
  copiesOf(book).note({ at: book.at, path, full, fallback: part, text: clean, shown: cap }, book.making);
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
  const cap = ctx.cfg.editMaxChars;
  for (const path of paths) {
    const w = writtenText(path, name, args);
    copiesOf(book).note({ at: book.at, path, full: line, fallback, text: w?.text, shown: cap, patch: w?.patch }, book.making);
  }
  return line;
}

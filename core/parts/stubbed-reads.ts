/**
 * A re-read that comes back empty. Claude Code (2.1.1xx) answers a second `Read` of an unchanged
 * file with a stub that points at the earlier result, and its `Edit` and `Write` results end by
 * saying the file's state is in context. Behind a proxy it never compacts its own transcript, so it
 * believes that earlier text is still there; a cliff that dropped it leaves the model with a pointer
 * to nothing. These rules keep, for each such path, the newest whole text of the file the request
 * no longer holds, as a pinned result is kept (within pinMaxChars, a ref line naming the whole).
 *
 * Anthropic `tool_result` content only, and only its leading text (a string content, or the first
 * text block): no other text can trigger a rule.
 */
import { withPointer, type DroppedTexts } from "../archive.js";
import { CallBook } from "./call-book.js";
import type { Config } from "../config/index.js";
import { arr, isObj, obj, str } from "../guards.js";
import { pointerTo, type PartContext } from "./context.js";
import { signatureLine } from "./signature.js";
import { RESULT_TAG } from "./tags.js";
import { pinned } from "./result-rules.js";
import { strip, toWellFormed, truncate } from "../text.js";

/** What Claude Code answers a re-read of an unchanged file with, matched from the result's first character. */
export const READ_STUB_OPENINGS: readonly string[] = [
  "Wasted call \u2014 file unchanged since your last Read. Refer to that earlier tool_result instead.",
  "File unchanged since last read. The content from the earlier Read tool_result in this conversation is still current \u2014 refer to that instead of re-reading.",
  "<system-reminder>This file is already in your context",
];

/** How Claude Code ends an Edit or Write result: the file's text is said to be in context. */
export const STATE_CURRENT_TRAILER = " (file state is current in your context \u2014 no need to Read it back)";

/** Claude Code's mark of a Read that shows part of a file. */
const PARTIAL_VIEW = "<system-reminder>[Truncated: PARTIAL view";
const EDIT_TOOLS = ["Edit", "Write", "MultiEdit"];

/** Where a summary stands in the original list: its head, the first message its own parts describe, and the kept tail. */
export interface SummarySpan {
  headLen: number;
  /** The summary's parts describe [spanFrom, cut); what lies in [headLen, spanFrom) an earlier cliff already dropped. */
  spanFrom: number;
  cut: number;
}

interface Call {
  name: string;
  input: Record<string, unknown>;
  at: number;
}

interface Result {
  id: string;
  block: Record<string, unknown>;
  at: number;
  /** The string content, or the first text block's text. */
  lead: string;
}

/** Whether any rule can keep something under `cfg`. */
export function stubRulesOn(cfg: Config): boolean {
  return cfg.pinMaxChars > 0 && (cfg.keepStubbedReads || cfg.keepEditedFiles);
}

/** A tool_result's text: its string content, or its text blocks joined (what the summary would have shown). */
function resultText(block: Record<string, unknown>): string {
  const content = block.content;
  if (typeof content === "string") return content;
  const out: string[] = [];
  for (const b of arr(content)) if (obj(b).type === "text" && typeof obj(b).text === "string") out.push(obj(b).text as string);
  return out.join("\n");
}

function leadingText(content: unknown): string {
  if (typeof content === "string") return content;
  for (const b of arr(content)) if (obj(b).type === "text") return str(obj(b).text);
  return "";
}

function resultsFrom(messages: readonly unknown[], from: number): Result[] {
  const out: Result[] = [];
  for (let i = Math.max(0, from); i < messages.length; i++) {
    const m = obj(messages[i]);
    if (m.role !== "user") continue;
    for (const b of arr(m.content)) {
      const block = obj(b);
      if (block.type === "tool_result" && typeof block.tool_use_id === "string") out.push({ id: block.tool_use_id, block, at: i, lead: leadingText(block.content) });
    }
  }
  return out;
}

function callsBefore(messages: readonly unknown[], end: number): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (let i = 0; i < end; i++) {
    const m = obj(messages[i]);
    if (m.role !== "assistant") continue;
    for (const b of arr(m.content)) {
      const block = obj(b);
      if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string") calls.set(block.id, { name: block.name, input: isObj(block.input) ? block.input : {}, at: i });
    }
  }
  return calls;
}

const isStub = (text: string): boolean => READ_STUB_OPENINGS.some((s) => text.startsWith(s));
const mayTrigger = (r: Result, cfg: Config): boolean => (cfg.keepStubbedReads && isStub(r.lead)) || (cfg.keepEditedFiles && resultText(r.block).endsWith(STATE_CURRENT_TRAILER));
const pathOf = (call: Call | undefined): string | null => (call !== undefined && typeof call.input.file_path === "string" && call.input.file_path !== "" ? call.input.file_path : null);

/** What points at a file's earlier text: its path, and the index before which that text must stand. */
interface Trigger {
  path: string;
  before: number;
  /** An Edit/Write result: a Write's own text counts as the file's text too (a Write's call is its own newest text). */
  writes: boolean;
}

function triggers(results: readonly Result[], calls: ReadonlyMap<string, Call>, cfg: Config): Trigger[] {
  const out: Trigger[] = [];
  for (const r of results) {
    const call = calls.get(r.id);
    const path = pathOf(call);
    if (path === null || call === undefined) continue;
    if (cfg.keepStubbedReads && call.name === "Read" && isStub(r.lead)) out.push({ path, before: r.at, writes: false });
    else if (cfg.keepEditedFiles && EDIT_TOOLS.indexOf(call.name) >= 0 && r.block.is_error !== true && resultText(r.block).endsWith(STATE_CURRENT_TRAILER)) out.push({ path, before: call.at + 1, writes: true });
  }
  return out;
}

/** A file's whole text as the history holds it: a full Read's result, or a Write's content. */
interface Source {
  at: number;
  call: Call;
  /** The Read result (absent for a Write). */
  result?: Result;
}

/** A Read of the whole file (no offset, limit or pages) that succeeded and showed the file. */
function wholeRead(r: Result, call: Call | undefined): boolean {
  if (call === undefined || call.name !== "Read" || r.block.is_error === true) return false;
  if (call.input.offset !== undefined || call.input.limit !== undefined || call.input.pages !== undefined) return false;
  return r.lead !== "" && !isStub(r.lead) && !r.lead.startsWith(PARTIAL_VIEW);
}

/** Each path's whole texts, oldest first: built once per request, so each trigger costs a search, not a scan of every result. */
interface SourceIndex {
  reads: Map<string, Source[]>;
  writes: Map<string, Source[]>;
}

function push(into: Map<string, Source[]>, path: string, s: Source): void {
  const list = into.get(path);
  if (list === undefined) into.set(path, [s]);
  else list.push(s);
}

function indexSources(results: readonly Result[], calls: ReadonlyMap<string, Call>): SourceIndex {
  const reads = new Map<string, Source[]>();
  for (const r of results) {
    const call = calls.get(r.id);
    const path = pathOf(call);
    if (path !== null && wholeRead(r, call)) push(reads, path, { at: r.at, call: call!, result: r });
  }
  const writes = new Map<string, Source[]>();
  for (const call of calls.values()) {
    const path = pathOf(call);
    if (path !== null && call.name === "Write" && typeof call.input.content === "string") push(writes, path, { at: call.at, call });
  }
  // A call id given twice keeps its first place in the map: order by index, the first of equals first.
  for (const list of writes.values()) list.sort((a, b) => a.at - b.at);
  return { reads, writes };
}

/** The first of the newest sources before `before` (lists ordered by index). */
function newestBefore(list: readonly Source[] | undefined, before: number): Source | null {
  if (list === undefined) return null;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].at < before) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return null;
  let i = lo - 1;
  while (i > 0 && list[i - 1].at === list[i].at) i--;
  return list[i];
}

function newestSource(t: Trigger, index: SourceIndex): Source | null {
  const read = newestBefore(index.reads.get(t.path), t.before);
  if (!t.writes) return read;
  const write = newestBefore(index.writes.get(t.path), t.before);
  return write !== null && (read === null || write.at > read.at) ? write : read;
}

/** The summary made of [spanFrom, cut) already shows this source whole (a short result, a pin, an edit line within its cap). */
function summaryShows(s: Source, id: string, cfg: Config): boolean {
  if (s.result === undefined) return cfg.editMaxChars > 0 && str(s.call.input.content).length <= cfg.editMaxChars;
  if (strip(resultText(s.result.block)).length <= cfg.resultMaxChars) return true;
  const book = new CallBook();
  book.record(id, s.call.name, s.call.input);
  return pinned(cfg, book, { callId: id });
}

function render(s: Source, ctx: PartContext): string {
  const cap = ctx.cfg.pinMaxChars;
  if (s.result !== undefined) {
    const text = resultText(s.result.block);
    const clean = strip(text);
    const line = signatureLine(s.call.name, s.call.input, ctx) + "\n" + RESULT_TAG + truncate(clean, cap);
    return withPointer(toWellFormed(line), clean.length > cap ? pointerTo(ctx, text, "result") : null) as string;
  }
  const content = str(s.call.input.content);
  const line = `[${s.call.name}] ${pathOf(s.call)}\n${truncate(content, cap)}`;
  return withPointer(toWellFormed(line), content.length > cap ? pointerTo(ctx, content, "call") : null) as string;
}

/**
 * The parts a summary of Anthropic `messages` adds so that what a kept stub or Edit/Write result
 * points at is still there: for each path, the newest whole text before it that the request no
 * longer holds (before the tail, after the head, and not already shown whole by the summary's own
 * parts), oldest first. Triggers are read in [spanFrom, end): the summary's own span and the tail.
 */
export function stubbedReadParts(messages: readonly unknown[], span: SummarySpan, cfg: Config, to: Omit<DroppedTexts, "cfg"> = {}): string[] {
  if (!stubRulesOn(cfg) || span.cut <= span.headLen) return [];
  // Most requests hold no trigger: the calls are indexed only when one may be there.
  const late = resultsFrom(messages, span.spanFrom).filter((r) => mayTrigger(r, cfg));
  if (late.length === 0) return [];
  const calls = callsBefore(messages, messages.length);
  const found = triggers(late, calls, cfg);
  if (found.length === 0) return [];
  const index = indexSources(resultsFrom(messages, 0), calls);
  const kept = new Map<number, Source>();
  // Sources already weighed: many stubs of one file weigh its text once.
  const seen = new Set<Source>();
  for (const t of found) {
    const s = newestSource(t, index);
    // In the head or the tail, the text is still in the request.
    if (s === null || seen.has(s) || s.at < span.headLen || s.at >= span.cut || kept.has(s.at)) continue;
    seen.add(s);
    const id = s.result?.id ?? "";
    if (s.at >= span.spanFrom && summaryShows(s, id, cfg)) continue;
    kept.set(s.at, s);
  }
  const ctx: PartContext = { cfg, archive: to.archive, sha256: to.sha256 };
  return [...kept.keys()].sort((a, b) => a - b).map((at) => render(kept.get(at)!, ctx));
}

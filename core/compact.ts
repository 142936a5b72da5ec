/** One cliff: head | middle | tail, with the middle replaced by one summary message. */
import { toConfig, type Config } from "./config/index.js";
import { getDialect } from "./dialects/registry.js";
import type { Dialect, DialectName } from "./dialects/types.js";
import type { Focus } from "./focus.js";
import { pythonJsonLength } from "./estimate/json.js";
import type { PartContext } from "./parts/index.js";
import type { ArchiveFn } from "./archive.js";
import { FileTracker, formatFileLists } from "./files.js";
import { summaryMessageText } from "./parts/index.js";
import { PartsCache } from "./parts/cache.js";
import { CallBook, needsBook } from "./parts/call-book.js";
import { settleCopies } from "./parts/working-set.js";
import { askedSettling, askedTwiceOn, setPriorCalls, type PriorCalls } from "./repeats/asked-twice.js";
import { backRefs } from "./parts/back-refs.js";

// A sandbox build whose config never turns the working set on leaves it out (build.mjs defines this).
declare const __CLIFF_WORKING_SET__: boolean | undefined;
// A sandbox build whose config never turns back-references on leaves them out (build.mjs defines this).
declare const __CLIFF_BACK_REFS__: boolean | undefined;
// A sandbox build whose config never turns asked-twice on leaves it out (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;

import { tailScans, tailTerms, withTailTerms } from "./retention/tail-focus.js";
import { renderSummary } from "./summary.js";
import { stubbedReadParts } from "./parts/stubbed-reads.js";

// The AgentParley sandbox speaks the plain dialect only: its build leaves the re-read stubs rule out.
declare const __CLIFF_SANDBOX__: boolean | undefined;
const readStubParts = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? null : stubbedReadParts;

export { PartsCache };

/** A compaction. `messages`, `summary` and `summaryText` are built when first read. */
export interface CompactResult {
  /** head + [summary] + kept tail; head and tail are the input's own objects. */
  messages: unknown[];
  /** Messages before the summary. */
  headLen: number;
  /** Index in the input where the verbatim tail starts (`input.slice(cut)` is the tail). */
  cut: number;
  /** The summary message (dialect-shaped). */
  summary: unknown;
  /** The summary text and its parts. */
  summaryText: string;
  parts: string[];
  /** What follows the parts in the summary text: the file lists when `appendFileLists` is on, else "". */
  filesText?: string;
}

export interface CompactOptions {
  /** Honour a focus: dropped results that mention its terms contribute matching lines. */
  focus?: Focus;
  /** Protect exactly this many leading messages as the head instead of applying `head`. */
  headLen?: number;
  /**
   * How the head is found: "detect" (default) ends it at the first old summary and trims trailing
   * summaries and system messages; "before-first-turn" keeps everything before the first model
   * turn, for hosts whose live history never holds an old summary (Pi drops its compactions).
   */
  head?: "detect" | "before-first-turn";
  /**
   * The host replaces more than the messages it passed (AgentParley replaces its previous envelope
   * too) and judges itself whether the result is worth it: skip the "same count, only when smaller" rule.
   */
  hostJudgesGain?: boolean;
  /**
   * Parts already made for these message objects under an equal part config (the ladder's rungs
   * share most of them). Not used with a focus, whose excerpt budget runs across messages.
   */
  partsCache?: PartsCache;
  /**
   * The host's export, when asked for (see core/archive.ts): each dropped tool result and each cut
   * call is handed to it; its line in the summary names the text by its ref either way.
   */
  archive?: ArchiveFn;
  /** The host's SHA-256, when it has a faster one than the core's: refs are the same either way. */
  sha256?: (text: string) => string;
  /**
   * false: leave out the files kept for Claude Code's re-read stubs (parts/stubbed-reads.ts); the
   * engine adds them to its outgoing summary itself, as it alone knows what its earlier cliffs dropped.
   */
  stubbedReads?: boolean;
  /**
   * The model calls the history made before the list's span that an earlier cliff replaced, by key
   * (the asked-twice rule counts them with the span's own: core/repeats/asked-twice.ts).
   */
  priorCalls?: PriorCalls;
  /**
   * Told of each line a rule makes, with the rule (core/retention/held-by.ts: which rule kept what
   * the next turns needed). Not with a parts cache, whose reused parts tell nothing.
   */
  note?: PartContext["note"];
}

/** The kept tail's terms (made once per tail when a plan's rungs share a cache). */
function keptTailTerms(messages: readonly unknown[], headLen: number, keptFrom: number, d: Dialect, cfg: Config, cache: PartsCache | undefined): string[] {
  const compute = (): string[] => tailTerms(messages.slice(headLen + keptFrom), d, cfg, cache?.decoded);
  return cache === undefined ? compute() : cache.tailTerms(messages, headLen, `${keptFrom}:${cfg.resultMaxChars}`, compute);
}

/** A summariser that tells the book which message it reads. */
function booked(d: Dialect, ctx: PartContext): (i: number, m: unknown) => string[] {
  const book = ctx.book;
  return book === undefined ? (_i, m) => d.summarize(m, ctx) : (i, m) => ((book.at = i), d.summarize(m, ctx));
}

/** Back-references of a span, once its parts are made (core/parts/back-refs.ts). */
type RefsOf = (book: CallBook, made: readonly string[][]) => ((i: number, parts: string[]) => string[]) | null;

/**
 * The parts of body[0, keptFrom) in order. With the plan rule on, a message that ends its parts
 * with a plan keeps it only when it is the span's newest (older plans are superseded).
 */
function collectParts(body: readonly unknown[], keptFrom: number, partsOf: (i: number, m: unknown) => string[], book: CallBook | undefined, cfg: Config, visit: (m: unknown) => void, refsOf: RefsOf | null, note?: PartContext["note"]): string[] {
  // Superseded plans and file copies are settled, and back-references found, once the whole span is read.
  const asked = (typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) || !askedTwiceOn(cfg) ? null : askedSettling(book, keptFrom, cfg);
  const plans = (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && asked !== null) || (!(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && refsOf !== null) || cfg.planMaxChars > 0 || cfg.workingSetFileMaxChars > 0;
  const parts: string[] = [];
  const made: string[][] = plans ? new Array<string[]>(keptFrom) : [];
  for (let i = 0; i < keptFrom; i++) {
    visit(body[i]);
    const p = partsOf(i, body[i]);
    if (plans) made[i] = p;
    else for (let j = 0; j < p.length; j++) parts.push(p[j]);
  }
  if (!plans || book === undefined) return plans ? ([] as string[]).concat(...made) : parts;
  const latest = cfg.planMaxChars > 0 ? book.latestPlanBefore(keptFrom) : -1;
  const settle = (typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__) || cfg.workingSetFileMaxChars <= 0 ? null : settleCopies(book, keptFrom, cfg.workingSetMaxChars, (typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) || asked === null ? undefined : asked.overflow, cfg.outlineFileMaxChars > 0 ? { file: cfg.outlineFileMaxChars, total: cfg.outlineMaxChars, note } : null);
  const refs = (typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) || refsOf === null ? null : refsOf(book, made);
  for (let i = 0; i < keptFrom; i++) {
    const own = cfg.planMaxChars > 0 && book.hasPlan(i) && i !== latest ? made[i].slice(0, -1) : made[i];
    const copied = settle === null ? own : settle(i, own);
    // Asked-twice settles after the working set, on what its overflow left of the shared budget.
    const settled = (typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) || asked === null ? copied : asked.settle(i, copied);
    for (const part of (typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) || refs === null ? settled : refs(i, settled)) parts.push(part);
  }
  return parts;
}

/** Index of the first model turn, or -1. */
function firstTurn(messages: readonly unknown[], dialect: Dialect): number {
  for (let i = 0; i < messages.length; i++) if (dialect.isAssistant(messages[i])) return i;
  return -1;
}

/** Index of the end of the head (see spec §3): before the first model turn, cut at the first old summary, minus trailing summaries and system messages. */
export function headLength(messages: readonly unknown[], dialect: Dialect): number | null {
  const first = firstTurn(messages, dialect);
  if (first < 0) return null;
  let head = first;
  for (let i = 0; i < first; i++) {
    if (dialect.isSummary(messages[i])) {
      head = i;
      break;
    }
  }
  while (head > 0 && (dialect.isSummary(messages[head - 1]) || dialect.trimFromHead(messages[head - 1]))) head--;
  // The provider's own compaction and all before it stay (see Dialect.providerCompactionEnd).
  return Math.max(head, dialect.providerCompactionEnd?.(messages) ?? 0);
}

/** Start indices (within `body`) of its turns: a leading orphan group when the body does not open with a turn. */
export function turnStarts(body: readonly unknown[], dialect: Dialect): number[] {
  const starts: number[] = [];
  for (let i = 0; i < body.length; i++) {
    if (i === 0 || dialect.startsTurn(body[i], body[i - 1])) starts.push(i);
  }
  return starts;
}

/** The head length `compactWith` uses under these options, or null when there is no model turn. */
export function headOf(messages: readonly unknown[], d: Dialect, options: CompactOptions): number | null {
  if (options.headLen !== undefined) return Math.max(0, Math.min(messages.length, Math.floor(options.headLen)));
  if (options.head !== "before-first-turn") return headLength(messages, d);
  const first = firstTurn(messages, d);
  return first < 0 ? null : first;
}

/**
 * Compacts `messages` once. Returns null when there is nothing to gain: no model turn, no more
 * turns than keepRecent, or a result that would not be smaller. The input is never mutated.
 */
export function compact(
  messages: unknown,
  dialect: DialectName | Dialect | string,
  config?: Partial<Config>,
  options: CompactOptions = {},
): CompactResult | null {
  if (!Array.isArray(messages)) return null;
  // The result builds its list when first read: it reads a copy, so a caller may change its own list meanwhile.
  return compactWith(messages.slice(), getDialect(dialect), toConfig(config), options);
}

/** compact() with a resolved dialect and config (hosts and the ladder call this in loops). */
export function compactWith(messages: readonly unknown[], d: Dialect, cfg: Config, options: CompactOptions = {}): CompactResult | null {
  const headLen = headOf(messages, d, options);
  if (headLen === null) return null;
  const body = messages.slice(headLen);
  const starts = options.partsCache?.turnStarts(messages, headLen, () => turnStarts(body, d)) ?? turnStarts(body, d);
  const k = Math.max(0, cfg.keepRecent);
  if (starts.length <= k) return null;
  const keptFrom = k === 0 ? body.length : starts[starts.length - k];
  const focus = cfg.tailFocus ? withTailTerms(options.focus, keptTailTerms(messages, headLen, keptFrom, d, cfg, options.partsCache)) : options.focus;
  const files = cfg.appendFileLists ? new FileTracker() : null;
  const cache = options.partsCache !== undefined && PartsCache.reusable(cfg) ? options.partsCache : null;
  const ctx: PartContext = {
    cfg,
    decoded: options.partsCache?.decoded,
    archive: options.archive,
    sha256: options.sha256,
    focus: focus === undefined ? undefined : { focus, perResult: cfg.focusResultMaxChars, remaining: cfg.focusTotalMaxChars, context: cfg.focusContextLines, scans: cfg.tailFocus ? tailScans(options.focus) : undefined },
    book: !needsBook(cfg) ? undefined : cache !== null ? cache.bookOf(messages, headLen) : new CallBook(),
    onCall: files === null ? undefined : (name, args) => files.addCall(name, args),
  };
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note = options.note;
  if (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && ctx.book !== undefined) setPriorCalls(ctx.book, options.priorCalls);
  const partsOf = cache !== null ? cache.summarizer(messages, headLen, d, ctx) : booked(d, ctx);
  const parts = collectParts(body, keptFrom, partsOf, ctx.book, cfg, (m) => {
    // The lists an old summary carried come forward; everything else it said is dropped.
    if (files !== null && d.isSummary(m)) files.addText(summaryMessageText(m));
  }, (typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) || cfg.backRefMaxChars <= 0 ? null : (book, made) => backRefs(book, keptFrom, made, (i) => d.isAssistant(body[i]), cfg, ctx.note), ctx.note);
  if (!(typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__) && readStubParts !== null && d.name === "anthropic" && options.stubbedReads !== false) {
    for (const p of readStubParts(messages, { headLen, spanFrom: headLen, cut: headLen + keptFrom }, cfg, options)) {
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) options.note?.("stubbed-read", p);
      parts.push(p);
    }
  }
  const filesText = files === null ? "" : formatFileLists(files.capped(cfg.filesMaxPaths, cfg.filesMaxChars));
  const result = resultOf(messages, d, headLen, headLen + keptFrom, parts, filesText);
  const outLength = headLen + 1 + body.length - keptFrom;
  if (outLength > messages.length) return null;
  if (outLength === messages.length && options.hostJudgesGain !== true) {
    // Same count: worth it only when the span was not just old summaries and the new text is smaller.
    let onlySummaries = true;
    let replaced = 0;
    for (let i = 0; i < keptFrom; i++) {
      if (!d.isSummary(body[i])) onlySummaries = false;
      replaced += pythonJsonLength(body[i]);
    }
    if (onlySummaries || pythonJsonLength(result.summary) >= replaced) return null;
  }
  return result;
}

/**
 * The result of cutting `source` at [headLen, cut) and putting a summary of `parts` there. The
 * summary text, message and message list are built when first read: the ladder's probes and the
 * plugin size candidates from the parts alone, so a rejected candidate costs no rendering.
 */
export function resultOf(source: readonly unknown[], d: Dialect, headLen: number, cut: number, parts: string[], filesText: string): CompactResult {
  const built: { text?: string; summary?: unknown; messages?: unknown[] } = {};
  return {
    headLen,
    cut,
    parts,
    filesText,
    get summaryText(): string {
      return (built.text ??= renderSummary(parts) + filesText);
    },
    get summary(): unknown {
      if (!("summary" in built)) built.summary = d.summaryMessage(this.summaryText);
      return built.summary;
    },
    get messages(): unknown[] {
      if (built.messages === undefined) {
        const out = source.slice(0, headLen);
        out.push(this.summary);
        for (let i = cut; i < source.length; i++) out.push(source[i]);
        built.messages = out;
      }
      return built.messages;
    },
  };
}

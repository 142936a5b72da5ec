/**
 * Asked twice (a recall rule): a call the history repeats (the same file read again, the same tool
 * with the same arguments: core/repeats/call-key.ts) showed that the agent needs its result, so at the
 * next cliff the newest result of that call keeps its text, up to askedTwiceMaxChars, all such
 * results sharing askedTwiceTotalMaxChars newest first. Older results of the same call, and results
 * of calls made once, keep what the other rules keep. A read the working set already keeps stays
 * the working set's; one it lets fall back past its own total takes this rule's budget instead.
 *
 * Like the working set, a result's line is made as the rule keeps it and noted by body position
 * (with what stands without the rule); which lines stand is settled once the span is read, after
 * the parts cache, from the calls of the span (counted by body position as they are recorded) and
 * the calls earlier cliffs already replaced (`priorCalls`: the engine and the hosts count them from
 * the original history, so warm and cold replays agree).
 */
import { withPointer } from "../archive.js";
import type { Dialect } from "../dialects/types.js";
import { toWellFormed, truncate } from "../text.js";
import { CallBook, type BookedCall } from "../parts/call-book.js";
import { callKey, READ_KEY } from "./call-key.js";
import type { Config } from "../config/index.js";
import { pointerTo, type PartContext, type ResultMeta } from "../parts/context.js";
import { byFallbacks, CopyBook, type AskedBudget, type Budget } from "../parts/working-set.js";
import { RESULT_TAG } from "../parts/tags.js";

// The sandbox build has no one to tell which rule made a line (ctx.note): it leaves the calls out.
declare const __CLIFF_SANDBOX__: boolean | undefined;

/** Calls the history made before the span, by key, with how many times each was made. */
export type PriorCalls = ReadonlyMap<string, number>;

/** One list's call keys by body index and its asked copies, beside its call book (kept across passes as the book is). */
class AskedBook {
  /** Each message's distinct call keys, in the order first made (a message may make thousands of calls). */
  readonly keysAt = new Map<number, Set<string>>();
  readonly copies = new CopyBook();
  /** The calls before the span, as the compaction being made was given them. */
  prior: PriorCalls | undefined;
}

const BOOKS = /* @__PURE__ */ new WeakMap<CallBook, AskedBook>();

function askedOf(book: CallBook): AskedBook {
  let a = BOOKS.get(book);
  if (a === undefined) BOOKS.set(book, (a = new AskedBook()));
  return a;
}

/** Whether the rule is on under `cfg`. */
export const askedTwiceOn = (cfg: Config): boolean => cfg.askedTwiceMaxChars > 0 && cfg.askedTwiceTotalMaxChars > 0;

/** The calls before the span that the compaction about to read `book`'s list counts (the same list may be compacted with other ones). */
export function setPriorCalls(book: CallBook, prior: PriorCalls | undefined): void {
  askedOf(book).prior = prior;
}

/** A booked call's repeat key, made once however many rules ask. */
function keyOfCall(call: BookedCall): string {
  return (call.key ??= callKey(call.name, call.args));
}

/** Counts a call of the message being summarised (AssistantPart calls this as it records the call). */
export function noteAskedCall(book: CallBook, call: BookedCall): void {
  const key = keyOfCall(call);
  if (key === "") return;
  const a = askedOf(book);
  const keys = a.keysAt.get(book.at);
  if (keys === undefined) a.keysAt.set(book.at, new Set([key]));
  else keys.add(key);
}

/**
 * A long result as the rule keeps it: whole up to the per-result cap, noted as a copy of its call
 * whose fallback is `kept` (what the other rules keep). A read the working set took stays its own.
 */
export function askedTwiceResult(text: string, clean: string, ctx: PartContext, meta: ResultMeta | undefined, part: string | null, kept: string | null): string | null {
  const book = ctx.book;
  if (book === undefined || kept !== part) return kept;
  const call = book.callOf(meta?.callId);
  const key = call === undefined ? "" : keyOfCall(call);
  if (key === "") return kept;
  const cap = ctx.cfg.askedTwiceMaxChars;
  const full = withPointer(toWellFormed(RESULT_TAG + truncate(clean, cap)), clean.length > cap ? pointerTo(ctx, text, "result") : null) as string;
  if (full === kept) return kept;
  askedOf(book).copies.note({ at: book.at, path: key, full, fallback: kept }, book.making);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("asked-twice", full);
  return full;
}

/** The keys made at least twice: before the span (`prior`) and at body indices before `end` (counted when first asked, once the span is read). */
export function repeatedKeys(book: CallBook, end: number, prior: PriorCalls | undefined): (key: string) => boolean {
  let counts: Map<string, number> | null = null;
  return (key) => {
    if (counts === null) {
      counts = new Map<string, number>(prior ?? []);
      for (const [at, keys] of askedOf(book).keysAt) if (at < end) for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    return (counts.get(key) ?? 0) >= 2;
  };
}

/** A working-set copy's path as a read key, to ask whether that file was read twice. */
export const readKeyOf = (path: string): string => READ_KEY + path.replace(/^\.\//, "");

/**
 * How one span settles under the rule: `overflow` for the working set's settling (a file read twice
 * stands past its total on this budget), then `settle` for the rule's own copies, message by message
 * once the working set has settled: of a repeated call, only the newest within what is left stands.
 */
export function askedSettling(book: CallBook | undefined, end: number, cfg: Config): { overflow: AskedBudget; settle: (i: number, parts: string[]) => string[] } | null {
  if (book === undefined) return null;
  const repeated = repeatedKeys(book, end, askedOf(book).prior);
  const budget: Budget = { used: 0, max: cfg.askedTwiceTotalMaxChars };
  let settle: ((i: number, parts: string[]) => string[]) | null = null;
  return {
    overflow: { repeated: (path) => repeated(readKeyOf(path)), budget },
    // Settled when first asked, after the working set's settling has drawn on the budget.
    settle: (i, parts) => (settle ??= byFallbacks(askedOf(book).copies.fallbacks(end, 0, { repeated, budget })))(i, parts),
  };
}

// Only the calls are read: every other part is cut as short as it goes.
const CALLS_ONLY_KEYS = { keepThinking: false, thoughtMaxChars: 1, cmdMaxChars: 1, humanMaxChars: 1, resultMaxChars: 0 };

/** Counts the keys of the model calls of messages [from, to) into `into` (the calls a cliff replaces, for the next one's `priorCalls`). */
export function countCallKeys(messages: readonly unknown[], d: Dialect, from: number, to: number, cfg: Config, into: Map<string, number>): Map<string, number> {
  const ctx: PartContext = { cfg: { ...cfg, ...CALLS_ONLY_KEYS, workingSetFileMaxChars: 0, planMaxChars: 0, editMaxChars: 0, askedTwiceMaxChars: 0 }, onCall: (name, args) => {
    const key = callKey(name, args);
    if (key !== "") into.set(key, (into.get(key) ?? 0) + 1);
  } };
  for (let i = Math.max(0, from); i < to && i < messages.length; i++) if (d.isAssistant(messages[i])) d.summarize(messages[i], ctx);
  return into;
}

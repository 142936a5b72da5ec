/**
 * Re-fetches: what a cliff cost the agent, read from the requests alone. After a cliff, an agent
 * that needs what was dropped asks for it again. A call made after a cliff is a re-fetch of it when
 * the newest earlier call with the same key (core/repeats/call-key.ts: the same file read, or the same
 * tool with the same arguments) lies in what the cliff replaced and its result is not in the request
 * the agent saw (the summary does not hold its text whole), or when it asks for a text by a ref the
 * summary names (a recall: `{"ref": "…"}`, whatever the tool's name). A repeat of a call whose result the request still held is not one; nor is the
 * second repeat of a dropped call (the first brought it back). Pure: one rule for every host.
 */
import { DEFAULT_CONFIG, type Config } from "./config/index.js";
import type { Dialect } from "./dialects/types.js";
import { CallBook, type BookedCall } from "./parts/call-book.js";
import { callKey, readKeyPath } from "./repeats/call-key.js";
import { heldWhole } from "./repeats/held-whole.js";
import type { ResultMeta } from "./parts/index.js";
import { strip } from "./text.js";
import { tokensOfChars } from "./estimate/estimate.js";
import { str } from "./guards.js";
import { namesRef } from "./archive.js";
import { REF_PATTERN } from "./recall/ref.js";

/** Where a cliff stands in a message list: its head, where the kept tail starts, and the summary the agent saw. */
export interface CliffSeen {
  headLen: number;
  cut: number;
  summaryText: string;
}

/** One re-fetch: the message that made the call, its tool, the file it reads (if any), and the tokens its result cost. */
export interface Refetch {
  at: number;
  tool: string;
  path: string | null;
  /** Estimated tokens of the result the re-fetch brought back (of the dropped one while its own has not come). */
  tokens: number;
  /** Where the call it repeats was made (-1 for a recall by a ref the summary names). */
  repeats: number;
}

interface Site {
  at: number;
  id: unknown;
  name: string;
  key: string;
  /** The ref the call asks for, when its arguments are `{"ref": "…"}` (with or without an offset). */
  ref: string | null;
}

/** The ref a call's arguments ask for, or null. */
function askedRef(args: unknown): string | null {
  const ref = args !== null && typeof args === "object" ? (args as { ref?: unknown }).ref : undefined;
  return typeof ref === "string" && REF_PATTERN.test(ref) ? ref : null;
}

interface Answer {
  at: number;
  text: string;
}

/** How far back a result without a call id looks for the call it answers (as the call book does). */
const PAIRING_REACH = 16;

/** A call book that also keeps each call's place and key, and pairs each result with its call. */
class SiteBook extends CallBook {
  readonly sites: Site[] = [];
  private readonly answers = new Map<Site, Answer>();
  private readonly ids = new Map<string, Site>();
  /** The message being read is the model's (a user's own command, as Pi records one, is no re-fetch). */
  model = false;

  record(id: unknown, name: unknown, args: unknown): BookedCall {
    const call = super.record(id, name, args);
    if (!this.model) return call;
    const site = { at: this.at, id, name: str(name), key: callKey(name, args), ref: askedRef(args) };
    this.sites.push(site);
    if (typeof id === "string" && id !== "") this.ids.set(id, site);
    return call;
  }

  answer(text: string, meta: ResultMeta | undefined): void {
    const id = meta?.callId;
    let site = typeof id === "string" && id !== "" ? this.ids.get(id) : undefined;
    if (site === undefined && (typeof id !== "string" || id === "")) {
      const last = this.sites[this.sites.length - 1];
      if (last !== undefined && last.at >= this.at - PAIRING_REACH) site = last;
    }
    if (site !== undefined && !this.answers.has(site)) this.answers.set(site, { at: this.at, text });
  }

  answerOf(site: Site): Answer | undefined {
    return this.answers.get(site);
  }
}

// The calls and the results' text are all that is read: every part is cut as short as it goes.
const READ_ONLY: Config = { ...DEFAULT_CONFIG, keepThinking: false, thoughtMaxChars: 1, cmdMaxChars: 1, humanMaxChars: 1, resultMaxChars: 0, keepStubbedReads: false };

/** The calls and results of messages [from, to). */
function read(messages: readonly unknown[], d: Dialect, from: number, to: number): SiteBook {
  const book = new SiteBook();
  const ctx = { cfg: READ_ONLY, book, onResult: (text: string, meta: ResultMeta | undefined) => book.answer(text, meta) };
  for (let i = Math.max(0, from); i < to; i++) {
    book.at = i;
    book.model = d.isAssistant(messages[i]);
    d.summarize(messages[i], ctx);
  }
  return book;
}

/** Whether the result of `site` stood in [headLen, cut) and the summary does not hold its text whole. */
function dropped(book: SiteBook, site: Site, cliff: CliffSeen, held: (text: string) => boolean): boolean {
  if (site.at < cliff.headLen || site.at >= cliff.cut) return false;
  const answer = book.answerOf(site);
  if (answer === undefined || answer.at >= cliff.cut) return false;
  const clean = strip(answer.text);
  return clean !== "" && !held(clean);
}

/**
 * The re-fetches among the calls of messages [from, to) of `messages`, of the cliff the agent saw
 * when it made them (`cliff`, positions in `messages`); oldest first.
 */
export function refetchesIn(messages: readonly unknown[], d: Dialect, cliff: CliffSeen, from: number, to = messages.length): Refetch[] {
  const end = Math.min(to, messages.length);
  if (cliff.cut <= cliff.headLen || from >= end) return [];
  const book = read(messages, d, Math.min(cliff.headLen, from), end);
  const out: Refetch[] = [];
  const newest = new Map<string, Site>();
  const held = heldWhole(cliff.summaryText);
  for (const site of book.sites) {
    if (site.key === "") continue;
    if (site.at >= from) {
      const found = refetchOf(book, site, newest.get(site.key), cliff, held);
      if (found !== null) out.push(found);
    }
    newest.set(site.key, site);
  }
  return out;
}

function refetchOf(book: SiteBook, site: Site, earlier: Site | undefined, cliff: CliffSeen, held: (text: string) => boolean): Refetch | null {
  const path = readKeyPath(site.key);
  const recalled = site.ref !== null && (earlier === undefined || earlier.at < cliff.cut) && namesRef(cliff.summaryText, site.ref);
  if (!recalled && (earlier === undefined || !dropped(book, earlier, cliff, held))) return null;
  const own = book.answerOf(site);
  const theirs = earlier === undefined ? undefined : book.answerOf(earlier);
  const text = own?.text ?? theirs?.text ?? "";
  return { at: site.at, tool: site.name, path, tokens: tokensOfChars(text.length), repeats: recalled ? -1 : earlier!.at };
}

/** The re-fetches' count and the tokens their results cost. */
export function refetchTotals(list: readonly Refetch[]): { count: number; tokens: number } {
  let tokens = 0;
  for (const r of list) tokens += r.tokens;
  return { count: list.length, tokens };
}

/**
 * Parts per message for the passes of one plan over one list (the ladder's rungs, and a host's
 * file-list pass before them), so each message is summarised as few times as possible.
 */
import { CONFIG_KEYS, type Config } from "../config/index.js";
import type { Dialect } from "../dialects/types.js";
import { jsonStringify } from "../guards.js";
import { DecodedJson, type PartContext } from "./index.js";
import { CallBook } from "./call-book.js";

/** The settings only an assistant's thinking and visible text read (rung 2 changes these and nothing else). */
const THOUGHT_KEYS = ["thoughtMaxChars", "keepThinking", "thinkingMaxChars"] as const;

/** Parts already made, by body index: under this exact config, and under any config that differs only in its thought settings. */
interface Slot {
  own: (string[] | undefined)[];
  shared: (string[] | undefined)[];
}

/**
 * A copy of `cfg` whose thought settings record that they were read. A message whose parts never
 * read them comes out the same under every rung that agrees on the rest, so its parts are shared.
 * Watching the reads, not listing the places that make such parts, keeps the rule in one room.
 */
function watched(cfg: Config, seen: { thought: boolean }): Config {
  const out = { ...cfg };
  for (const k of THOUGHT_KEYS) {
    Object.defineProperty(out, k, {
      enumerable: true,
      get() {
        seen.thought = true;
        return cfg[k];
      },
    });
  }
  return out;
}

/** `ctx` with its config watched and its focus recording that it was read (such parts are never kept). */
function watchedContext(ctx: PartContext, seen: { thought: boolean; focus: boolean }): PartContext {
  const focus = ctx.focus;
  const out = { ...ctx, cfg: watched(ctx.cfg, seen) };
  Object.defineProperty(out, "focus", {
    enumerable: true,
    get() {
      seen.focus = true;
      return focus;
    },
  });
  return out;
}

const keyOf = (cfg: Config, keys: readonly (keyof Config)[]): string => keys.map((k) => jsonStringify(cfg[k])).join(",");

// Parts made with an export handed their texts to it: each export separates the parts it made, so each is handed every text.
const archiveIds = new WeakMap<object, number>();
let nextArchiveId = 1;
function archiveKey(archive: object | undefined): string {
  if (archive === undefined) return "";
  let id = archiveIds.get(archive);
  if (id === undefined) archiveIds.set(archive, (id = nextArchiveId++));
  return ";archive " + id;
}
/** Every setting but the one that only picks which messages are summarised: any other may change a part. */
const PART_KEYS = CONFIG_KEYS.filter((k) => k !== "keepRecent");
const SHARED_KEYS = PART_KEYS.filter((k) => (THOUGHT_KEYS as readonly string[]).indexOf(k) < 0);

/**
 * Kept by position: every pass walks the same list with the same head, so a lookup is an array
 * read rather than a hash of the message object. A new list or head starts afresh.
 */
export class PartsCache {
  /**
   * Whether a pass under `cfg` may reuse parts: file lists appended to the summary listen to every
   * call, so that pass cannot skip a message. (A message whose parts read the focus is made again
   * in every pass, in order, so a focus's excerpt budget runs across messages as in a fresh pass.)
   */
  static reusable(cfg: Config): boolean {
    return !cfg.appendFileLists;
  }

  private readonly slots = { own: new Map<string, (string[] | undefined)[]>(), shared: new Map<string, (string[] | undefined)[]>() };
  /** Content strings decoded as JSON by the plain dialect, for every pass of one plan. */
  readonly decoded = new DecodedJson();
  /** Calls and plans of the list, for the recall rules (positions are the body's, like the parts). */
  private book = new CallBook();
  private list: readonly unknown[] | null = null;
  private headLen = -1;
  private starts: number[] | null = null;
  private readonly tails = new Map<string, string[]>();

  private use(list: readonly unknown[], headLen: number): void {
    if (this.list === list && this.headLen === headLen) return;
    this.list = list;
    this.headLen = headLen;
    this.slots.own.clear();
    this.slots.shared.clear();
    this.starts = null;
    this.book = new CallBook();
    this.tails.clear();
  }

  /** Where the body's turns start (`compute` runs once per list and head). */
  turnStarts(list: readonly unknown[], headLen: number, compute: () => number[]): number[] {
    this.use(list, headLen);
    return (this.starts ??= compute());
  }

  /** The terms of the kept tail that starts where `key` says (`compute` runs once per list, head and key). */
  tailTerms(list: readonly unknown[], headLen: number, key: string, compute: () => string[]): string[] {
    this.use(list, headLen);
    let terms = this.tails.get(key);
    if (terms === undefined) this.tails.set(key, (terms = compute()));
    return terms;
  }

  /** The book of calls and plans of this list (the one every pass over it shares). */
  bookOf(list: readonly unknown[], headLen: number): CallBook {
    this.use(list, headLen);
    return this.book;
  }

  /** A summariser of body messages under `cfg` that reuses and keeps parts (and, when `ctx` has a book, this list's). */
  summarizer(list: readonly unknown[], headLen: number, d: Dialect, ctx: PartContext): (i: number, m: unknown) => string[] {
    this.use(list, headLen);
    const archived = archiveKey(ctx.archive);
    const slot: Slot = { own: this.slot("own", keyOf(ctx.cfg, PART_KEYS) + archived), shared: this.slot("shared", keyOf(ctx.cfg, SHARED_KEYS) + archived) };
    const seen = { thought: false, focus: false };
    const book = ctx.book === undefined ? undefined : this.book;
    const watching = watchedContext({ ...ctx, book }, seen);
    return (i, m) => {
      let made = slot.own[i] ?? slot.shared[i];
      if (made === undefined) {
        seen.thought = seen.focus = false;
        if (book !== undefined) book.at = i;
        made = d.summarize(m, watching);
        if (!seen.focus) (seen.thought ? slot.own : slot.shared)[i] = made;
      }
      return made;
    };
  }

  private slot(kind: "own" | "shared", key: string): (string[] | undefined)[] {
    let made = this.slots[kind].get(key);
    if (made === undefined) {
      // Filled up front: an array written at scattered indices would become a slow sparse one.
      made = new Array<string[] | undefined>(Math.max(0, (this.list?.length ?? 0) - this.headLen)).fill(undefined);
      this.slots[kind].set(key, made);
    }
    return made;
  }
}

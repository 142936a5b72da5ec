/**
 * What the part rules share: the context of one message's summarising, the JSON one plan has
 * already decoded, and the ref line of a dropped text (none in the AgentParley sandbox).
 */
import type { CallBook } from "./call-book.js";
import type { Config } from "../config/index.js";
import type { FocusBudget } from "../focus.js";
import type { ResultMeta } from "./result-rules.js";
import { droppedLine, type ArchiveFn } from "../archive.js";

// The AgentParley sandbox cannot answer a recall (nor write files): its build leaves ref lines out.
declare const __CLIFF_SANDBOX__: boolean | undefined;
export const pointerTo: typeof droppedLine = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? () => null : droppedLine;

/** The rule that made a summary line: which rule kept what the next turns needed (core/retention/held-by.ts). */
export type LineRule = "result" | "call" | "text" | "thinking" | "user" | "system" | "edit" | "plan" | "working-set" | "pinned" | "error-tail" | "focus" | "stubbed-read" | "back-ref" | "asked-twice" | "outline" | "listing" | "ref";

/** What summarising one message needs besides the message. */
export interface PartContext {
  readonly cfg: Config;
  /** Present when a focus was given: dropped results may contribute matching lines. */
  readonly focus?: FocusBudget;
  /** Told of every model tool call a message makes, with its raw arguments (the file-list extractor listens). */
  readonly onCall?: (name: unknown, args: unknown) => void;
  /** Told of every tool result's text as the message holds it, with what the dialect knows of it (the re-fetch count listens). */
  readonly onResult?: (text: string, meta: ResultMeta | undefined) => void;
  /** JSON already decoded from content strings, shared by one plan's passes. */
  readonly decoded?: DecodedJson;
  /** The host's export, when asked for: a dropped result or a cut call is written there too (the summary names it by its ref either way). */
  readonly archive?: ArchiveFn;
  /** The host's SHA-256, when it has a faster one than the core's (a ref is the same either way). */
  readonly sha256?: (text: string) => string;
  /** Calls and plans across the messages of the list (present when a recall rule needs them). */
  readonly book?: CallBook;
  /**
   * Told of each line a rule makes, as it stands in the summary unless a later rule replaces it
   * (attribution only: the sandbox build has no listener and leaves the calls out).
   */
  note?: (rule: LineRule, line: string) => void;
}

export type { ResultMeta };

/**
 * Content strings decoded as JSON (undefined: not worth decoding), kept for the passes of one plan
 * up to a budget in characters of source text, so a huge history does not hold every decoded value.
 */
export class DecodedJson {
  private readonly values = new Map<string, unknown>();
  private chars = 0;

  constructor(private readonly maxChars = 32_000_000) {}

  /** The decoded value, `undefined` for "not worth decoding", or `NOT_SEEN`. */
  get(content: string): unknown {
    const v = this.values.get(content);
    return v !== undefined || this.values.has(content) ? v : NOT_SEEN;
  }

  set(content: string, value: unknown): void {
    if (this.chars + content.length > this.maxChars) return;
    this.chars += content.length;
    this.values.set(content, value);
  }
}

/** What DecodedJson.get returns for a string it has not decoded. */
export const NOT_SEEN: unique symbol = Symbol("not seen");

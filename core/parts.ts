/**
 * The content-class rules, in one place: every dialect extracts text and calls these to turn it
 * into summary parts. Each part is a fixed tag plus a verbatim (possibly truncated) excerpt.
 */
import type { CallBook } from "./call-book.js";
import { editTextOf, isPlanCall } from "./call-kinds.js";
import type { Config } from "./config.js";
import { canonicalJson, stringPrefixJson } from "./json.js";
import { focusExcerpt, FOCUS_EXCERPT_TAG, type FocusBudget } from "./focus.js";
import { errorTailTag, failure, lastLines, pinned, type ResultMeta } from "./result-rules.js";
import { SUMMARY_HEADER } from "./summary.js";
import { archivePointer, withPointer, type ArchiveFn } from "./archive.js";

// The AgentParley sandbox has no filesystem, so no archive: its build leaves the pointers out.
declare const __CLIFF_SANDBOX__: boolean | undefined;
const pointerTo: typeof archivePointer = typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? () => null : archivePointer;
import { isBlank, strip, stripTaskNotifications, toWellFormed, truncate } from "./text.js";
import { arr, getPrototypeOf, isArray, jsonStringify, OBJECT_PROTOTYPE, obj, objectKeys, str } from "./guards.js";

/** The tags that open summary parts (human parts are tagged with their role). */
export const RESULT_TAG = "result: ";
export const ASSISTANT_TAG = "assistant: ";
export const THINKING_TAG = "thinking: ";

/** The content class a summary part belongs to, read from its tag. */
export type PartKind = "result" | "focus-excerpt" | "assistant" | "user" | "system" | "other";

/** The class of a part this module made (an assistant step opens with its text, thinking or a `[name]` call). */
export function partKind(part: string): PartKind {
  if (part.startsWith(RESULT_TAG)) return "result";
  if (part.startsWith(FOCUS_EXCERPT_TAG)) return "focus-excerpt";
  if (part.startsWith(ASSISTANT_TAG) || part.startsWith(THINKING_TAG) || part.startsWith("[")) return "assistant";
  if (part.startsWith("user: ")) return "user";
  if (part.startsWith("system: ")) return "system";
  return "other";
}

/** What summarising one message needs besides the message. */
export interface PartContext {
  readonly cfg: Config;
  /** Present when a focus was given: dropped results may contribute matching lines. */
  readonly focus?: FocusBudget;
  /** Told of every model tool call a message makes, with its raw arguments (the file-list extractor listens). */
  readonly onCall?: (name: unknown, args: unknown) => void;
  /** JSON already decoded from content strings, shared by one plan's passes. */
  readonly decoded?: DecodedJson;
  /** The host's archive: a dropped result or a cut call is kept there and the summary points at it. */
  readonly archive?: ArchiveFn;
  /** Calls and plans across the messages of the list (present when a recall rule needs them). */
  readonly book?: CallBook;
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

/** Text of a content value: a string, or the `text` of text-like blocks (and bare strings) joined with "\n". */
export function contentText(content: unknown, types: readonly string[] = ["text"]): string {
  if (typeof content === "string") return content;
  const out: string[] = [];
  for (const b of arr(content)) {
    if (typeof b === "string") out.push(b);
    else {
      const block = obj(b);
      if (types.indexOf(str(block.type)) >= 0 && typeof block.text === "string") out.push(block.text);
    }
  }
  return out.join("\n");
}

/** The text a summary message carries, in any dialect (a string, or its text / input_text blocks). */
export function summaryMessageText(message: unknown): string {
  return contentText(obj(message).content, ["text", "input_text"]);
}

/** True when a text is a previous summary (it opens with the header). */
export function isSummaryText(text: unknown): boolean {
  return typeof text === "string" && text.startsWith(SUMMARY_HEADER);
}

/** `<tag>: text` for human-authored text (user, system, developer…): notifications removed, stripped, capped. */
export function humanPart(tag: string, text: string, ctx: PartContext, dropSummary = true): string | null {
  if (dropSummary && isSummaryText(text)) return null;
  const clean = strip(stripTaskNotifications(text));
  if (clean === "") return null;
  return toWellFormed(`${tag}: ${truncate(clean, ctx.cfg.humanMaxChars)}`);
}

/**
 * `result: text` for a short result; for a long one what a recall rule keeps of it, else a focus
 * excerpt or nothing (an empty one is nothing).
 */
export function resultPart(text: string, ctx: PartContext, meta?: ResultMeta): string | null {
  const clean = strip(text);
  if (clean.length === 0) return null;
  if (clean.length <= ctx.cfg.resultMaxChars) return toWellFormed(RESULT_TAG + clean);
  const kept = keptLongResult(clean, ctx, meta);
  // What a rule keeps of a long result may be cut (a tail, a pinned start): the archive keeps it whole.
  if (kept !== null) return withPointer(toWellFormed(kept.line), kept.cut ? pointerTo(ctx.archive, text, "result") : null);
  const excerpt = ctx.focus === undefined ? null : toWellFormed(focusExcerpt(clean, ctx.focus) ?? "") || null;
  // The archive keeps the text as the model saw it, unstripped.
  return withPointer(excerpt, pointerTo(ctx.archive, text, "result"));
}

/**
 * The recall rules for a result over the length cap: a pinned one is kept whole (within its cap),
 * a failed one keeps its end. Null: no rule keeps it.
 */
function keptLongResult(clean: string, ctx: PartContext, meta: ResultMeta | undefined): { line: string; cut: boolean } | null {
  const pinCap = ctx.cfg.pinMaxChars;
  if (pinned(ctx.cfg, ctx.book, meta)) return { line: RESULT_TAG + truncate(clean, pinCap), cut: clean.length > pinCap };
  const tailCap = ctx.cfg.errorTailMaxChars;
  if (tailCap > 0) {
    const failed = failure(clean, meta);
    if (failed !== null) return { line: errorTailTag(failed.exit) + lastLines(clean, tailCap), cut: clean.length > tailCap };
  }
  return null;
}

/**
 * An edit or write call as its path and new text (the input's own lines, cut at `editMaxChars`),
 * or null when the rule is off or the call is not one.
 */
function editLines(name: unknown, args: unknown, ctx: PartContext): string | null {
  const cap = ctx.cfg.editMaxChars;
  if (cap <= 0) return null;
  const edit = editTextOf(name, args);
  if (edit === null) return null;
  const whole = edit.texts.join("\n");
  const text = truncate(whole, cap);
  const line = `[${typeof name === "string" && name !== "" ? name : "?"}] ` + (edit.path === null ? text : edit.path + "\n" + text);
  return whole.length <= cap ? line : (withPointer(line, callPointer(args, ctx.archive)) as string);
}

/** The archive's pointer to a cut call's arguments as its signature line would show them uncut. */
function callPointer(args: unknown, archive: ArchiveFn | undefined): string | null {
  if (archive === undefined) return null;
  return pointerTo(archive, typeof args === "string" ? args : flatCanonical(args, 0) ?? canonicalJson(args), "call");
}

/** `[name] args`, args capped at cmdMaxChars; a string is passed through, anything else is canonical JSON. */
export function signatureLine(name: unknown, args: unknown, ctx: PartContext): string {
  return cappedSignature(name, args, ctx.cfg.cmdMaxChars, ctx.archive);
}

function cappedSignature(name: unknown, args: unknown, cap: number, archive: ArchiveFn | undefined): string {
  const text = typeof args === "string" ? args : args === undefined ? "" : flatCanonical(args, cap) ?? canonicalJson(args, cap);
  const label = typeof name === "string" && name !== "" ? name : "?";
  const line = `[${label}] ${truncate(text, cap)}`;
  if (archive === undefined || !(cap > 0) || text.length <= cap) return line;
  return withPointer(line, callPointer(args, archive)) as string;
}

/**
 * Canonical JSON of a flat object (string, number, boolean or null values: most tool arguments),
 * keys sorted, or undefined when the object is not one. Only what a signature line can show is
 * written: past `cap` units the text is a prefix of the full one, which `truncate` cuts the same way.
 */
function flatCanonical(args: unknown, cap: number): string | undefined {
  if (args === null || typeof args !== "object" || isArray(args) || getPrototypeOf(args) !== OBJECT_PROTOTYPE) return undefined;
  const keys = objectKeys(args);
  if (keys.length > 16) return undefined;
  let size = 0;
  for (const k of keys) {
    const v = (args as Record<string, unknown>)[k];
    if (v !== null && typeof v === "object") return undefined;
    if (typeof v === "string") size += v.length;
    if (k === "__proto__" || typeof v === "bigint") return undefined;
  }
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  // No cap (0) shows the whole text; short and already in order (one key, most often): the engine's serialiser writes it in one call.
  const limit = cap > 0 ? cap : Infinity;
  if (sorted && size <= limit) return jsonStringify(args);
  if (!sorted) keys.sort();
  let out = "{";
  for (const k of keys) {
    const v = (args as Record<string, unknown>)[k];
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    out += (out.length > 1 ? "," : "") + jsonStringify(k) + ":";
    if (typeof v === "string" && v.length > limit - out.length + 2) return out + stringPrefixJson(v, limit - out.length);
    out += typeof v === "number" && !isFinite(v) ? "null" : jsonStringify(v);
    if (out.length > limit) return out;
  }
  return out + "}";
}

/** Collects the lines of one assistant part in the reference order: thinking, visible text, calls, inline results. */
export class AssistantPart {
  // Made on first use: most messages fill one of the three, and a long history has many messages.
  private thinking: string[] | null = null;
  private visible: string[] | null = null;
  private lines: string[] | null = null;
  /** The message's newest plan call, kept apart: only the newest plan of the span is kept. */
  private plan: string | null = null;

  constructor(private readonly ctx: PartContext) {}

  addThinking(text: unknown): void {
    if (this.ctx.cfg.keepThinking && typeof text === "string" && !isBlank(text)) (this.thinking ??= []).push(text);
  }

  addText(text: unknown): void {
    if (typeof text === "string" && !isBlank(text)) (this.visible ??= []).push(text);
  }

  addCall(name: unknown, args: unknown, id?: unknown): void {
    const ctx = this.ctx;
    ctx.onCall?.(name, args);
    ctx.book?.record(id, name, args);
    const planCap = ctx.cfg.planMaxChars;
    if (planCap > 0 && isPlanCall(name, args)) {
      this.plan = cappedSignature(name, args, planCap, ctx.archive);
      return;
    }
    (this.lines ??= []).push(editLines(name, args, ctx) ?? signatureLine(name, args, ctx));
  }

  addResult(text: string, meta?: ResultMeta): void {
    const part = resultPart(text, this.ctx, meta);
    if (part !== null) (this.lines ??= []).push(part);
  }

  /** The part as a list ([] when the message had nothing to keep), then its plan, noted in the book. */
  parts(): string[] {
    const out = one(this.build());
    if (this.plan !== null) {
      this.ctx.book?.notePlan();
      out.push(toWellFormed(this.plan));
    }
    return out;
  }

  /** The part, or null when the message had nothing to keep. */
  build(): string | null {
    const cfg = this.ctx.cfg;
    const thinking = this.thinking === null ? null : THINKING_TAG + truncate(strip(this.thinking.join("\n")), cfg.thinkingMaxChars);
    const visible = this.visible === null ? null : ASSISTANT_TAG + truncate(strip(this.visible.join("\n")), cfg.thoughtMaxChars);
    // One line (most messages): no list to build and join, which costs a fifth of a history of short messages.
    if (this.lines === null && (thinking === null || visible === null)) {
      const only = thinking ?? visible;
      return only === null ? null : toWellFormed(only);
    }
    const out: string[] = [];
    if (thinking !== null) out.push(thinking);
    if (visible !== null) out.push(visible);
    if (this.lines !== null) for (const l of this.lines) out.push(l);
    return toWellFormed(out.join("\n"));
  }
}

/** A single optional part as a list. */
export function one(part: string | null): string[] {
  return part === null ? [] : [part];
}

/** Parts for a message that is only tool output. */
export function resultParts(texts: readonly string[], ctx: PartContext): string[] {
  const out: string[] = [];
  for (const t of texts) {
    const p = resultPart(t, ctx);
    if (p !== null) out.push(p);
  }
  return out;
}

/** The parts of human text and of tool results: short ones whole, long ones as a recall rule or a focus keeps them. */
import { focusExcerpt } from "../focus.js";
import { withPointer } from "../archive.js";
import { strip, stripTaskNotifications, toWellFormed, truncate } from "../text.js";
import { isSummaryText } from "./content.js";
import { pointerTo, type PartContext } from "./context.js";
import { errorTailTag, failure, lastLines, pinned, type ResultMeta } from "./result-rules.js";
import { RESULT_TAG } from "./tags.js";
import { workingSetRead } from "./working-set.js";
import { noteDropped } from "./back-refs.js";
import { listingPart } from "../shapes/listing.js";
import { askedTwiceOn, askedTwiceResult } from "../repeats/asked-twice.js";

// A sandbox build whose config never turns the working set on leaves it out (build.mjs defines this).
declare const __CLIFF_WORKING_SET__: boolean | undefined;
// The sandbox build has no one to tell which rule made a line (ctx.note): it leaves the calls out.
declare const __CLIFF_SANDBOX__: boolean | undefined;
// A sandbox build whose config never turns back-references on leaves them out (build.mjs defines this).
declare const __CLIFF_BACK_REFS__: boolean | undefined;
// …and listings, likewise.
declare const __CLIFF_LISTINGS__: boolean | undefined;
// A sandbox build whose config never turns asked-twice on leaves it out (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;


/** `<tag>: text` for human-authored text (user, system, developer…): notifications removed, stripped, capped. */
export function humanPart(tag: string, text: string, ctx: PartContext, dropSummary = true): string | null {
  if (dropSummary && isSummaryText(text)) return null;
  const clean = strip(stripTaskNotifications(text));
  if (clean === "") return null;
  const part = toWellFormed(`${tag}: ${truncate(clean, ctx.cfg.humanMaxChars)}`);
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.(tag === "user" ? "user" : "system", part);
  return part;
}

/**
 * `result: text` for a short result; for a long one what a recall rule keeps of it, else a focus
 * excerpt or nothing (an empty one is nothing).
 */
export function resultPart(text: string, ctx: PartContext, meta?: ResultMeta): string | null {
  if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.onResult?.(text, meta);
  const clean = strip(text);
  if (clean.length === 0) return null;
  if (clean.length <= ctx.cfg.resultMaxChars) {
    const whole = toWellFormed(RESULT_TAG + clean);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("result", whole);
    return whole;
  }
  const part = longResultPart(text, clean, ctx, meta);
  const kept = (typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__) || ctx.cfg.workingSetFileMaxChars <= 0 ? part : workingSetRead(text, clean, ctx, meta, part);
  return !(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && askedTwiceOn(ctx.cfg) ? askedTwiceResult(text, clean, ctx, meta, part, kept) : kept;
}

function longResultPart(text: string, clean: string, ctx: PartContext, meta: ResultMeta | undefined): string | null {
  const kept = keptLongResult(clean, ctx, meta);
  // What a rule keeps of a long result may be cut (a tail, a pinned start): the archive keeps it whole.
  if (kept !== null) return withPointer(toWellFormed(kept.line), kept.cut ? pointerTo(ctx, text, "result") : null);
  if (!(typeof __CLIFF_BACK_REFS__ !== "undefined" && !__CLIFF_BACK_REFS__) && ctx.cfg.backRefMaxChars > 0 && ctx.book !== undefined) noteDropped(ctx.book, clean);
  const excerpt = ctx.focus === undefined ? null : toWellFormed(focusExcerpt(clean, ctx.focus) ?? "") || null;
  if ((typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) && excerpt !== null) ctx.note?.("focus", excerpt);
  const listing = (typeof __CLIFF_LISTINGS__ !== "undefined" && !__CLIFF_LISTINGS__) || ctx.cfg.listingMaxChars <= 0 ? null : listingPart(clean, ctx.cfg.listingMaxChars);
  if ((typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) && listing !== null) ctx.note?.("listing", listing);
  const shown = listing === null ? excerpt : excerpt === null ? listing : listing + "\n" + excerpt;
  // The archive keeps the text as the model saw it, unstripped.
  return withPointer(shown, pointerTo(ctx, text, "result"));
}


/**
 * The recall rules for a result over the length cap: a pinned one is kept whole (within its cap),
 * a failed one keeps its end. Null: no rule keeps it.
 */
function keptLongResult(clean: string, ctx: PartContext, meta: ResultMeta | undefined): { line: string; cut: boolean } | null {
  const pinCap = ctx.cfg.pinMaxChars;
  if (pinned(ctx.cfg, ctx.book, meta)) {
    const line = RESULT_TAG + truncate(clean, pinCap);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("pinned", line);
    return { line, cut: clean.length > pinCap };
  }
  const tailCap = ctx.cfg.errorTailMaxChars;
  if (tailCap > 0) {
    const failed = failure(clean, meta);
    if (failed === null) return null;
    const line = errorTailTag(failed.exit) + lastLines(clean, tailCap);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("error-tail", line);
    return { line, cut: clean.length > tailCap };
  }
  return null;
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

/** An assistant message's part: its thinking, visible text, calls (a plan kept apart) and inline results. */
import { isPlanCall } from "./call-kinds.js";
import { isBlank, strip, toWellFormed, truncate } from "../text.js";
import { one } from "./content.js";
import type { PartContext } from "./context.js";
import { resultPart } from "./result.js";
import type { ResultMeta } from "./result-rules.js";
import { cappedSignature, editLines, signatureLine } from "./signature.js";
import { ASSISTANT_TAG, THINKING_TAG } from "./tags.js";
import { workingSetWrite } from "./working-set.js";
import { askedTwiceOn, noteAskedCall } from "../repeats/asked-twice.js";

// A sandbox build whose config never turns the working set on leaves it out (build.mjs defines this).
declare const __CLIFF_WORKING_SET__: boolean | undefined;
// A sandbox build whose config never turns asked-twice on leaves it out (build.mjs defines this).
declare const __CLIFF_ASKED_TWICE__: boolean | undefined;
// The sandbox build has no one to tell which rule made a line (ctx.note): it leaves the calls out.
declare const __CLIFF_SANDBOX__: boolean | undefined;


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
    const call = ctx.book?.record(id, name, args);
    if (!(typeof __CLIFF_ASKED_TWICE__ !== "undefined" && !__CLIFF_ASKED_TWICE__) && ctx.book !== undefined && call !== undefined && askedTwiceOn(ctx.cfg)) noteAskedCall(ctx.book, call);
    const planCap = ctx.cfg.planMaxChars;
    if (planCap > 0 && isPlanCall(name, args)) {
      this.plan = cappedSignature(name, args, planCap, ctx);
      if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.("plan", this.plan);
      return;
    }
    const edit = editLines(name, args, ctx);
    const line = edit ?? signatureLine(name, args, ctx);
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) ctx.note?.(edit === null ? "call" : "edit", line);
    if (edit === null) (this.lines ??= []).push(line);
    else if ((typeof __CLIFF_WORKING_SET__ !== "undefined" && !__CLIFF_WORKING_SET__) || ctx.cfg.workingSetFileMaxChars <= 0) (this.lines ??= []).push(edit);
    else (this.lines ??= []).push(workingSetWrite(edit, name, args, ctx));
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
    if (typeof __CLIFF_SANDBOX__ === "undefined" || !__CLIFF_SANDBOX__) {
      if (thinking !== null) this.ctx.note?.("thinking", thinking);
      if (visible !== null) this.ctx.note?.("text", visible);
    }
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

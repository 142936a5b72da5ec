/**
 * The line a client's answer carries for each recall the host answered in its place, so the user
 * sees when a cliff cost something, and a later cliff that reads it in the history knows which
 * text the agent needed (the line names it by ref).
 */
import { groupDigits } from "../archive.js";
import { isObj } from "../guards.js";
import type { RecallAnswer } from "./recall-answer.js";
import { recallInput } from "./answer.js";

const RECALLED_OPENING = "[cliffcompaction ";

/** The line for one answered recall (a ref's page or a search), or for one refused. */
export function recallLine(answer: RecallAnswer): string {
  const r = answer.recalled;
  if (r !== undefined) {
    const part = r.given < r.chars ? `${groupDigits(r.given)} of ${groupDigits(r.chars)} chars` : `${groupDigits(r.chars)} chars`;
    return `${RECALLED_OPENING}recalled ref ${r.ref}, ${part}]`;
  }
  if (answer.matches !== undefined) return `${RECALLED_OPENING}searched the earlier history, ${groupDigits(answer.matches)} matching line${answer.matches === 1 ? "" : "s"}]`;
  return `${RECALLED_OPENING}a recall failed]`;
}

/**
 * The line for a recall whose answer never reached the model (`why`: what stopped it), from the
 * call's arguments. It names the ref without the "recalled" wording, so no later cliff keeps a text
 * the model never got.
 */
export function unansweredLine(args: unknown, why: string): string {
  const input = recallInput(args);
  const what = "ref" in input ? `recall ref ${input.ref}` : "search" in input ? "search the earlier history" : "answer a recall";
  return `${RECALLED_OPENING}could not ${what}: ${why}]`;
}

/** A recall line naming a ref, wherever it stands in a text: the ref is group 1. */
const RECALLED_REF = /\[cliffcompaction recalled ref ([0-9a-f]{12}), /g;

/** The refs the recall lines of `text` name, in order (linear: one global scan). */
export function recalledRefs(text: string): string[] {
  if (text.indexOf(RECALLED_OPENING) < 0) return [];
  const out: string[] = [];
  RECALLED_REF.lastIndex = 0;
  for (let m = RECALLED_REF.exec(text); m !== null; m = RECALLED_REF.exec(text)) out.push(m[1]);
  return out;
}

/**
 * The refs the recall lines inside a message name, in order: every string it holds is scanned once,
 * walked without recursion (a history may nest a value 100,000 deep) and without stringifying it.
 */
export function recalledRefsIn(message: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [message];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") {
      for (const ref of recalledRefs(v)) out.push(ref);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (isObj(v)) {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push(v[keys[i]]);
    }
  }
  return out;
}

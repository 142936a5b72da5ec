/**
 * Which rule kept each needed token a cliff held: the head, the kept tail, or the summary line a
 * rule made (a short result whole, a call's signature, an edit's new text, the working set's copy
 * of a file, the tail focus's lines, …), named with the config key that governs it. The cliff is
 * made again with a listener on its rules (PartContext.note); a line counts only where it stands
 * in the summary the cliff sent, so a superseded copy or a part rung 3 cut keeps nothing.
 */
import { REF_LINE } from "../archive.js";
import { compactWith, type CompactResult } from "../compact.js";
import type { Config } from "../config/index.js";
import type { LineRule } from "../parts/index.js";
import { addDistinctive } from "./distinctive.js";
import type { TokenReader } from "./retention.js";

/** What kept a needed token: the head, the kept tail, a summary rule, the file lists, a ref line. */
export type KeptRule = "head" | "tail" | LineRule | "files" | "other";

/**
 * A token held by several rules is credited to the first in this order: the verbatim head and
 * tail, the reference's own rules, then the recall rules, so a recall rule is credited only with
 * what nothing else kept.
 */
export const KEPT_ORDER: readonly KeptRule[] = [
  "head", "tail", "result", "call", "text", "thinking", "user", "system", "files",
  "edit", "plan", "working-set", "pinned", "error-tail", "focus", "back-ref", "asked-twice", "outline", "listing", "stubbed-read", "ref", "other",
];

const KEYS: Readonly<Record<KeptRule, string | null>> = {
  head: null, tail: "keepRecent", result: "resultMaxChars", call: "cmdMaxChars", text: "thoughtMaxChars", thinking: "keepThinking",
  user: "humanMaxChars", system: "humanMaxChars", files: "appendFileLists", edit: "editMaxChars", plan: "planMaxChars",
  "working-set": "workingSetFileMaxChars", pinned: "keepFiles", "error-tail": "errorTailMaxChars", focus: "tailFocus",
  "back-ref": "backRefMaxChars", "asked-twice": "askedTwiceMaxChars", outline: "outlineFileMaxChars", listing: "listingMaxChars", "stubbed-read": "keepStubbedReads", ref: "refs", other: null,
};

/** The config key that governs a rule under `cfg` (a pin by tool name is keepResultsOf's; an excerpt without the tail focus is the user's focus). */
export function keyOf(rule: KeptRule, cfg: Config): string | null {
  if (rule === "pinned" && cfg.keepFiles.length === 0 && cfg.keepResultsOf.length > 0) return "keepResultsOf";
  if (rule === "focus" && !cfg.tailFocus) return null;
  return KEYS[rule];
}

/** The held needed tokens a rule kept, in the order the next turns used them. */
export interface HeldItem {
  rule: KeptRule;
  key: string | null;
  tokens: string[];
}

/**
 * Credits each of `held` (needed tokens the compacted request holds, in order of use) to the rule
 * that kept it, in KEPT_ORDER; every token is named once.
 */
export function heldBy(input: readonly unknown[], held: readonly string[], result: CompactResult, cfg: Config, reader: TokenReader): HeldItem[] {
  const head = reader.tokensOfList(input.slice(0, result.headLen));
  const tail = reader.tokensOfList(input.slice(result.cut));
  const rule = new Map<string, KeptRule>();
  const inSummary: string[] = [];
  for (const t of held) {
    if (head.has(t)) rule.set(t, "head");
    else if (tail.has(t)) rule.set(t, "tail");
    else inSummary.push(t);
  }
  if (inSummary.length > 0) for (const [t, r] of summaryRules(input, inSummary, result, cfg, reader)) rule.set(t, r);
  const out: HeldItem[] = [];
  for (const r of KEPT_ORDER) {
    const tokens = held.filter((t) => rule.get(t) === r);
    if (tokens.length > 0) out.push({ rule: r, key: keyOf(r, cfg), tokens });
  }
  return out;
}

/** The rule of each token the summary holds: the lines the rules made again, as they stand in the summary sent. */
function summaryRules(input: readonly unknown[], tokens: readonly string[], result: CompactResult, cfg: Config, reader: TokenReader): Map<string, KeptRule> {
  const lines: [LineRule, string][] = [];
  const again = compactWith(input, reader.dialect, cfg, { headLen: result.headLen, hostJudgesGain: true, note: (r, line) => lines.push([r, line]) });
  const sent = result.summaryText;
  const best = new Map<string, KeptRule>();
  const credit = (t: string, r: KeptRule): void => {
    const had = best.get(t);
    if (had === undefined || KEPT_ORDER.indexOf(r) < KEPT_ORDER.indexOf(had)) best.set(t, r);
  };
  const consider = (r: KeptRule, line: string): void => {
    // Most lines hold none of the tokens: read a line's words only when one of them is in it.
    const some = tokens.filter((t) => line.indexOf(t) >= 0);
    if (some.length === 0 || sent.indexOf(line) < 0) return;
    const words = addDistinctive(line, new Set());
    for (const t of some) if (words.has(t)) credit(t, r);
  };
  if (again !== null && again.cut === result.cut) for (const [r, line] of lines) consider(r, line);
  if (result.filesText) consider("files", result.filesText);
  for (const line of sent.split("\n")) if (REF_LINE.test(line)) consider("ref", line);
  for (const t of tokens) if (!best.has(t)) best.set(t, "other");
  return best;
}

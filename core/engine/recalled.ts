/**
 * Recalled texts kept (the asked-twice rule's budget): a text the model recalled through the
 * host's recall tool is one the agent needed again, so a request whose history names it in a
 * recall line (the line the host put in the client's answer, in an assistant message of the
 * summary's own span or the kept tail) holds it again in its outgoing summary, from the original
 * history, once the request is decided, as the re-read stubs' files are (stubbed.ts): warm and cold
 * requests decide the same cliff, so they add the same texts, and the agent does not ask twice.
 */
import type { Config } from "../config/index.js";
import { askedTwiceOn } from "../repeats/asked-twice.js";
import { RecallTexts } from "../recall/texts.js";
import { recalledRefsIn } from "../recall/line.js";
import { truncate } from "../text.js";
import { groupDigits } from "../archive.js";
import type { RequestState } from "./request.js";

/** The opening of a kept recalled text's part. */
export const RECALLED_TAG = "[recalled] ref ";

/** The refs the recall lines of the request's assistant messages in [from, end) name, newest first, each once. */
function namedRefs(ctx: RequestState, from: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = ctx.messages.length - 1; i >= from; i--) {
    const m = ctx.messages[i];
    if (!ctx.dialect.isAssistant(m)) continue;
    const refs = recalledRefsIn(m);
    for (let j = refs.length - 1; j >= 0; j--) if (!seen.has(refs[j])) (seen.add(refs[j]), out.push(refs[j]));
  }
  return out;
}

/**
 * The parts that hold the recalled texts a cliff dropped (in [head, cut)), oldest first: each up to
 * askedTwiceMaxChars, all within askedTwiceTotalMaxChars, the newest recall first.
 */
export function recalledParts(ctx: RequestState, cfg: Config): string[] {
  if (!cfg.recallTool || !askedTwiceOn(cfg) || ctx.baseCut <= ctx.baseHead) return [];
  const refs = namedRefs(ctx, ctx.baseSpan);
  if (refs.length === 0) return [];
  const texts = RecallTexts.of(ctx.messages, ctx.dialect, cfg, ctx.baseCut, ctx.baseHead);
  const parts: string[] = [];
  let left = cfg.askedTwiceTotalMaxChars;
  for (const ref of refs) {
    const t = texts.get(ref);
    if (t === undefined || left <= 0) continue;
    const cap = Math.min(cfg.askedTwiceMaxChars, left);
    const kept = truncate(t.text, cap);
    left -= Math.min(t.text.length, cap);
    const rest = t.text.length > cap ? ` (${groupDigits(cap)} of ${groupDigits(t.text.length)} chars)` : "";
    parts.unshift(RECALLED_TAG + ref + rest + "\n" + kept);
  }
  return parts;
}

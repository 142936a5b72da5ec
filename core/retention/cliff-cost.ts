/**
 * What one cliff cost: the items of the compacted span (a dropped tool result, a cut call, cut
 * text, dropped thinking) that held tokens the next turns needed and that the compacted request
 * no longer holds anywhere. Built on the retention measure (core/retention/retention.ts).
 */
import type { CompactResult } from "../compact.js";
import type { Config } from "../config/index.js";
import { partKind } from "../parts/index.js";
import { neededTokens, TokenReader } from "./retention.js";
import { heldBy, type HeldItem } from "./held-by.js";

export type { HeldItem, KeptRule } from "./held-by.js";

export type CostKind = "result" | "call" | "text" | "thinking" | "user" | "system" | "summary" | "other";

export interface DroppedItem {
  /** Index of the message in the list the cliff compacted. */
  index: number;
  kind: CostKind;
  /** "dropped": the summary says nothing of it; "cut": a part of it is quoted. */
  action: "dropped" | "cut";
  /** The needed tokens it held that the compacted request lost, in the order the next turns used them. */
  tokens: string[];
}

export interface CliffCost {
  /** Needed tokens of the next turns that the compacted list held, and how many the result still holds. */
  needed: number;
  held: number;
  items: DroppedItem[];
  /** Which rule kept each needed token the result holds (core/retention/held-by.ts). */
  heldBy: HeldItem[];
}

/**
 * The cost of compacting `input` into `result` (under `cfg`), judged by the model turns of
 * `future` (the session after the request that made the cliff).
 */
export function cliffCost(input: readonly unknown[], future: readonly unknown[], result: CompactResult, cfg: Config, reader: TokenReader): CliffCost {
  const needed = neededTokens([...input, ...future], input.length, reader);
  // Built from its pieces: a host may have gone on appending to the result's own list.
  const present = reader.tokensOfList([...input.slice(0, result.headLen), result.summary, ...input.slice(result.cut)]);
  const lost = new Set<string>();
  for (const t of needed.keys()) if (!present.has(t)) lost.add(t);
  const items: DroppedItem[] = [];
  for (let i = result.headLen; i < result.cut && lost.size > 0; i++) {
    for (const item of itemsOf(input[i], i, lost, cfg, reader)) items.push({ ...item, tokens: item.tokens.sort((a, b) => needed.get(a)! - needed.get(b)!) });
  }
  const held = [...needed.keys()].filter((t) => !lost.has(t));
  return { needed: needed.size, held: held.length, items, heldBy: heldBy(input, held, result, cfg, reader) };
}

function lostIn(tokens: Iterable<string>, lost: Set<string>, taken: Set<string>): string[] {
  const out: string[] = [];
  for (const t of tokens) if (lost.has(t) && !taken.has(t)) {
    out.push(t);
    taken.add(t);
  }
  return out;
}

/** The costly items of one message: a model message by where its tokens stand, any other message whole. */
function itemsOf(m: unknown, index: number, lost: Set<string>, cfg: Config, reader: TokenReader): DroppedItem[] {
  const d = reader.dialect;
  const taken = new Set<string>();
  const kept = d.isSummary(m) ? [] : d.summarize(m, { cfg });
  const action = kept.length === 0 ? "dropped" : "cut";
  if (d.isSummary(m)) return one({ index, kind: "summary", action, tokens: lostIn(reader.tokensOf(m), lost, taken) });
  const out: DroppedItem[] = [];
  if (d.isAssistant(m)) {
    const own = reader.modelTokensOf(m);
    out.push({ index, kind: "call", action: "cut", tokens: lostIn(own.calls, lost, taken) });
    out.push({ index, kind: "text", action, tokens: lostIn(own.text, lost, taken) });
    out.push({ index, kind: "thinking", action: cfg.keepThinking ? "cut" : "dropped", tokens: lostIn(own.thinking, lost, taken) });
  }
  const rest = lostIn(reader.tokensOf(m), lost, taken);
  const first = d.summarize(m, { cfg: { ...cfg, resultMaxChars: Number.MAX_SAFE_INTEGER } })[0];
  const kind = d.isAssistant(m) ? "result" : kindOf(first);
  // A model message's inline results are dropped or kept as results are.
  out.push({ index, kind, action: d.isAssistant(m) ? (kept.some((p) => p.indexOf("result: ") >= 0) ? "cut" : "dropped") : action, tokens: rest });
  return out.filter((x) => x.tokens.length > 0);
}

function kindOf(part: string | undefined): CostKind {
  const k = part === undefined ? "other" : partKind(part);
  // A message that is not the model's but opens with a call (Pi's bashExecution) is a command and its output.
  return k === "result" || k === "focus-excerpt" || k === "assistant" ? "result" : k === "user" || k === "system" ? k : "other";
}

function one(item: DroppedItem): DroppedItem[] {
  return item.tokens.length > 0 ? [item] : [];
}

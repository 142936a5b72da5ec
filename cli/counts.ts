/** What a compaction did, counted: parts by class, dropped results and images, tokens of a message list. */
import { n } from "./table.js";
import { ARCHIVED_RESULT_OPENING, estimateTokens, imagePayload, compactWith, getDialect, partKind, type CompactResult, type Config, type DialectName, type PartKind } from "../core/index.js";

export interface PartCounts {
  assistantSteps: number;
  resultsKept: number;
  resultsDropped: number;
  focusExcerpts: number;
  human: number;
  system: number;
  other: number;
  imagesDropped: number;
}

function countImages(v: unknown): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (x === null || typeof x !== "object") continue;
    if (!Array.isArray(x) && imagePayload(x as Record<string, unknown>) !== undefined) {
      n++;
      continue;
    }
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push(c);
  }
  return n;
}

/** Counts the summary's parts by class; dropped results are those a limitless resultMaxChars would have kept. */
export function countParts(result: CompactResult, messages: readonly unknown[], dialect: DialectName, cfg: Config): PartCounts {
  const c: PartCounts = { assistantSteps: 0, resultsKept: 0, resultsDropped: 0, focusExcerpts: 0, human: 0, system: 0, other: 0, imagesDropped: 0 };
  // A pointer line stands for a dropped result: it is not one kept.
  const kept = (p: string): boolean => partKind(p) === "result" && !p.startsWith(ARCHIVED_RESULT_OPENING);
  const results = (parts: string[]): number => parts.filter(kept).length;
  const field: Record<PartKind, keyof PartCounts> = {
    result: "resultsKept", "focus-excerpt": "focusExcerpts", assistant: "assistantSteps", user: "human", system: "system", other: "other",
  };
  for (const p of result.parts) if (!p.startsWith(ARCHIVED_RESULT_OPENING)) c[field[partKind(p)]]++;
  const all = compactWith(messages, getDialect(dialect), { ...cfg, resultMaxChars: Number.MAX_SAFE_INTEGER }, { headLen: result.headLen });
  c.resultsDropped = Math.max(0, (all === null ? 0 : results(all.parts)) - results(result.parts));
  c.imagesDropped = countImages(messages.slice(result.headLen, result.cut));
  return c;
}

/** The first `lines` lines of a text (0 = all), with a note of what was left out. */
export function firstLines(text: string, lines: number): string {
  const all = text.split("\n");
  if (lines <= 0 || all.length <= lines) return text;
  return all.slice(0, lines).join("\n") + `\n… (${n(all.length - lines)} more lines; --lines 0 prints all)`;
}

/** Estimated tokens of `messages` sent in `body` (or as a bare `{messages}` body) under the dialect's key. */
export function tokensOf(messages: readonly unknown[], body: Record<string, unknown> | undefined, dialect: DialectName): number {
  return estimateTokens(body === undefined ? { messages } : { ...body, [getDialect(dialect).messagesKey]: messages });
}

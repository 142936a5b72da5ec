/**
 * Anthropic's prompt cache, as its documentation describes it, for a scripted model's usage: a
 * request's prompt is its tools, its system and its messages' content blocks in that order; each
 * block marked `cache_control` is a breakpoint (at most 4, else the request is refused); the
 * prefix up to each breakpoint is written to the cache once it holds at least 1,024 tokens; a
 * request reads the longest prefix ending at a block boundary within 20 blocks before one of its
 * breakpoints that an earlier request wrote. What lies before the last breakpoint and was not read
 * is a cache write; what follows it is input. Tokens are a fixed count: one per 4 characters of
 * each block's JSON, so the figures are the same on every machine.
 */
import { createHash } from "node:crypto";
import type { AnthropicUsage, Refusal } from "../test/helpers/recall-model.js";

const MIN_CACHED_TOKENS = 1024;
const LOOKBACK_BLOCKS = 20;
const MAX_BREAKPOINTS = 4;

/** The prompt's blocks in the order the cache reads them. */
function blocksOf(body: Record<string, any>): { text: string; breakpoint: boolean }[] {
  const out: { text: string; breakpoint: boolean }[] = [];
  // The marker is no part of the prompt: a block reads the same with it or without.
  const add = (role: string, b: any): void => {
    const { cache_control, ...block } = b;
    out.push({ text: JSON.stringify([role, block]), breakpoint: cache_control !== undefined });
  };
  for (const t of body.tools ?? []) add("tool", t);
  for (const b of typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? [])) add("system", b);
  for (const m of body.messages ?? []) for (const b of typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content) add(m.role, b);
  return out;
}

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

export class PromptCache {
  /** Prefixes written, by the digest of their blocks: their tokens. */
  private readonly written = new Map<string, number>();

  /** The refusal the API gives a request with too many breakpoints. */
  refusal(body: Record<string, any>): Refusal | undefined {
    const n = blocksOf(body).filter((b) => b.breakpoint).length;
    if (n <= MAX_BREAKPOINTS) return undefined;
    return { status: 400, type: "invalid_request_error", message: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${n}.` };
  }

  /** The usage of one request (its prompt read, written and left as input), the cache updated. */
  usage(body: Record<string, any>, outputTokens: number): AnthropicUsage {
    const blocks = blocksOf(body);
    const keys: string[] = [];
    const tokens: number[] = [];
    const hash = createHash("sha256");
    let chars = 0;
    for (const b of blocks) {
      hash.update(b.text);
      keys.push(hash.copy().digest("hex"));
      chars += b.text.length;
      tokens.push(tokensOf(chars));
    }
    const marks = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = 0;
    for (const m of marks) for (let i = m; i >= Math.max(0, m - LOOKBACK_BLOCKS); i--) read = Math.max(read, this.written.get(keys[i]) ?? 0);
    const last = marks.length === 0 ? -1 : marks[marks.length - 1];
    const write = last >= 0 && tokens[last] >= MIN_CACHED_TOKENS ? Math.max(0, tokens[last] - read) : 0;
    for (const m of marks) if (tokens[m] >= MIN_CACHED_TOKENS) this.written.set(keys[m], tokens[m]);
    const total = tokens.length === 0 ? 0 : tokens[tokens.length - 1];
    return { input_tokens: total - read - write, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: outputTokens };
  }
}

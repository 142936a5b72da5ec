/**
 * The recall bill's bench: its model's prompt cache follows Anthropic's documented rules (a prefix
 * read back though the marker moved on, nothing written under 1,024 tokens, a read from a block
 * boundary within 20 blocks of a breakpoint, more than 4 breakpoints refused), and a session through
 * `serve` meets the need by a recall with the tool (a search first when no summary names the output)
 * and by running the command again without.
 */
import { describe, expect, it } from "vitest";
import { PromptCache, tokensOf } from "../../bench/recall-cache.js";
import { outputOf, session } from "../../bench/recall-bill.js";

const mark = { type: "ephemeral" };
const text = (t: string, marked = false): Record<string, unknown> => ({ type: "text", text: t, ...(marked ? { cache_control: mark } : {}) });
/** A block of about 1,500 tokens: enough to be written to the cache alone. */
const big = (tag: string): string => `${tag} `.repeat(Math.ceil(6000 / (tag.length + 1)));
/** A request of `n` user messages, the last block marked. */
const request = (texts: string[]): Record<string, unknown> => ({ messages: texts.map((t, i) => ({ role: i % 2 ? "assistant" : "user", content: [text(t, i === texts.length - 1)] })) });
const total = (u: { input_tokens: number; cache_read_input_tokens?: number; cache_creation_input_tokens?: number }): number => u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);

describe("the bench model's prompt cache", () => {
  it("reads back the prefix an earlier request wrote, the marker moved to the new last block, and writes the rest", () => {
    const cache = new PromptCache();
    const first = cache.usage(request([big("a")]), 5);
    expect(first).toEqual({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: total(first), output_tokens: 5 });
    const second = cache.usage(request([big("a"), "ok", "more"]), 5);
    expect(second.cache_read_input_tokens).toBe(total(first));
    expect(second.cache_creation_input_tokens).toBe(total(second) - total(first));
  });

  it("writes nothing under 1,024 tokens, so the same short prompt is never read", () => {
    const cache = new PromptCache();
    const short = request(["x".repeat(4000)]);
    const first = cache.usage(short, 1);
    expect(first).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    expect(cache.usage(short, 1)).toEqual(first);
    expect(first.input_tokens).toBe(tokensOf(JSON.stringify(["user", { type: "text", text: "x".repeat(4000) }]).length));
  });

  it("a changed block ends what is read: the prefix before it if a request wrote it, else nothing", () => {
    const cache = new PromptCache();
    const system = [text(big("system"), true)];
    cache.usage({ system, ...request([big("a"), "ok", big("b")]) }, 1);
    const changed = cache.usage({ system, ...request([big("summary"), "ok", big("b")]) }, 1);
    expect(changed.cache_read_input_tokens).toBe(tokensOf(JSON.stringify(["system", { type: "text", text: big("system") }]).length));
    expect(new PromptCache().usage(request([big("summary")]), 1).cache_read_input_tokens).toBe(0);
  });

  it("reads from a block boundary at most 20 blocks before a breakpoint", () => {
    const near = new PromptCache();
    const far = new PromptCache();
    const grown = (n: number): string[] => [big("a"), ...Array.from({ length: n }, (_, i) => `turn ${i}`)];
    near.usage(request(grown(0)), 1);
    far.usage(request(grown(0)), 1);
    expect(near.usage(request(grown(20)), 1).cache_read_input_tokens).toBeGreaterThan(0);
    expect(far.usage(request(grown(21)), 1).cache_read_input_tokens).toBe(0);
  });

  it("refuses more than 4 breakpoints as the API does, and lets 4 through", () => {
    const cache = new PromptCache();
    const marked = (n: number): Record<string, unknown> => ({ messages: [{ role: "user", content: Array.from({ length: n }, (_, i) => text(`b${i}`, true)) }] });
    expect(cache.refusal(marked(4))).toBeUndefined();
    expect(cache.refusal(marked(5))).toMatchObject({ status: 400, type: "invalid_request_error", message: expect.stringContaining("Found 5") });
  });
});

describe("the session through serve", () => {
  it("with the tool, one recall round brings the dropped output back; without, the agent runs the command again: the same requests upstream", async () => {
    const withTool = await session(24, 20, true);
    const without = await session(24, 20, false, withTool.step);
    expect(withTool.met).toBe(`cliff_recall of ref ${withTool.met.match(/ref ([0-9a-f]{12})/)![1]}, step ${withTool.step}'s output (${outputOf(withTool.step).length.toLocaleString("en-US")} chars)`);
    expect(without.met).toBe(`make step${withTool.step} run again (${outputOf(withTool.step).length.toLocaleString("en-US")} chars)`);
    expect(withTool.recalls).toMatchObject({ calls: 1, rounds: 1 });
    expect(without.recalls).toEqual({ calls: 0, rounds: 0, tokens: 0 });
    expect([withTool.upstream, withTool.clientTurns, without.upstream, without.clientTurns]).toEqual([26, 25, 26, 26]);
    expect(withTool.usage.input).toBeGreaterThan(0);
    expect(withTool.usage.cacheRead).toBeGreaterThan(0);
    expect(await session(24, 20, true)).toEqual(withTool);
  }, 60_000);

  it("a need no summary names any more: a search for the output's first line, then its ref, two rounds", async () => {
    const b = await session(40, 30, true, 5);
    expect(b.met).toMatch(new RegExp(`^cliff_recall search, then ref [0-9a-f]{12}, step 5's output \\(${outputOf(5).length.toLocaleString("en-US")} chars\\)$`));
    expect(b.recalls).toMatchObject({ calls: 2, rounds: 2 });
    expect([b.upstream, b.clientTurns]).toEqual([43, 41]);
  }, 60_000);
});

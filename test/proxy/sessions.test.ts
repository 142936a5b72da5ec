/** Session keys and kinds of request, the bounded session table, each cliff's bill and the price table. */
import { describe, expect, it } from "vitest";
import { getDialect } from "../../core/index.js";
import { Ledger } from "../../proxy/observe/ledger.js";
import { checkPrices, DEFAULT_PRICES, Prices } from "../../proxy/observe/prices.js";
import { modelName, requestShape, sessionKey } from "../../proxy/observe/session-key.js";
import { Sessions, type Exchange } from "../../proxy/observe/sessions.js";
import { nodeSha256 } from "../../proxy/index.js";

const noRoot = () => "ROOT";

describe("session keys", () => {
  it("Claude Code: its session header, else session_id in metadata.user_id's JSON, else the older user_id form", () => {
    expect(sessionKey({ "x-claude-code-session-id": "abc" }, {}, noRoot)).toBe("claude\u0000abc");
    const userId = JSON.stringify({ device_id: "d1", account_uuid: "a1", session_id: "s-42" });
    expect(sessionKey({}, { metadata: { user_id: userId } }, noRoot)).toBe("claude\u0000s-42");
    expect(sessionKey({}, { metadata: { user_id: "user_0f3a_account_1234_session_9e7d-11aa" } }, noRoot)).toBe("claude\u00009e7d-11aa");
    // A user_id that is neither falls through to the chain's root.
    expect(sessionKey({}, { metadata: { user_id: "{not json" } }, noRoot)).toBe("chain\u0000ROOT");
  });

  it("Codex: session_id or conversation_id headers, else prompt_cache_key; else the chain's root, asked for only then", () => {
    expect(sessionKey({ session_id: "019a-codex" }, {}, noRoot)).toBe("codex\u0000019a-codex");
    expect(sessionKey({ conversation_id: "conv-7" }, {}, noRoot)).toBe("codex\u0000conv-7");
    expect(sessionKey({}, { prompt_cache_key: "pck-1" }, noRoot)).toBe("cache-key\u0000pck-1");
    let asked = 0;
    expect(sessionKey({}, {}, () => (asked++, "R"))).toBe("chain\u0000R");
    sessionKey({ session_id: "x" }, {}, () => (asked++, "R"));
    expect(asked).toBe(1);
    expect(sessionKey({}, {}, () => null)).toBeNull();
  });

  it("probes (max_tokens ≤ 1, in each API's spelling), turns, side calls by their shape, and requests with no model turn", () => {
    const a = getDialect("anthropic");
    const turn = [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }, { role: "user", content: "go" }];
    expect(requestShape({ max_tokens: 1 }, turn, a)).toBe("probe");
    expect(requestShape({ max_output_tokens: 0 }, turn, getDialect("openai-responses"))).toBe("probe");
    expect(requestShape({ max_completion_tokens: 1 }, turn, getDialect("openai-chat"))).toBe("probe");
    expect(requestShape({ max_tokens: 32 }, [{ role: "user", content: "title this" }], a)).toBe("unturned");
    expect(requestShape({ max_tokens: 32 }, [{ role: "user", content: "judge this" }, { role: "user", content: "transcript" }], a)).toBe("side");
    expect(requestShape({ max_tokens: 32 }, turn, a)).toBe("turn");
  });

  it("model names: known families shown, anything else is other", () => {
    expect(modelName({ model: "claude-sonnet-4-5-20250929" })).toBe("claude-sonnet-4-5-20250929");
    expect(modelName({ model: "gpt-5.1-codex" })).toBe("gpt-5.1-codex");
    expect(modelName({ model: "o3" })).toBe("o3");
    expect(modelName({ model: "MARKER-secret" })).toBe("other");
    expect(modelName({ model: "claude x" })).toBe("other");
    expect(modelName(null)).toBe("other");
  });
});

const ex = (over: Partial<Exchange> = {}): Exchange => ({
  kind: "turn", model: "claude-sonnet-4-5", api: "anthropic", action: "pass", messagesIn: 3, messagesOut: 3, tokensIn: 100, tokensOut: 100, usage: null, price: null, threshold: 2000, time: 1, ...over,
});

describe("the session table", () => {
  it("display ids are short, stable hashes, never the key", () => {
    const s = new Sessions(nodeSha256);
    const id = s.idOf("claude\u0000abc");
    expect(id).toMatch(/^[0-9a-f]{10}$/);
    expect(s.idOf("claude\u0000abc")).toBe(id);
    expect(s.idOf("claude\u0000abd")).not.toBe(id);
  });

  it("probes and side calls are counted apart and open no session; a known session counts them apart from its requests", () => {
    const t = new Sessions(nodeSha256);
    expect(t.find("k1", "probe", 1).session).toBeNull();
    expect(t.find("k1", "side", 1).session).toBeNull();
    expect(t.size).toBe(0);
    const s = t.find("k1", "turn", 2).session!;
    s.add(ex({ action: "cliff", tokensIn: 5000, tokensOut: 1000 }));
    t.find("k1", "probe", 3).session!.add(ex({ kind: "probe", action: "pass" }));
    t.find("k1", "side", 3).session!.add(ex({ kind: "side", action: "cliff", usage: { input: 7, cacheRead: 0, cacheWrite: 0, output: 1 } }));
    expect(s.view()).toMatchObject({ requests: 1, cliffs: 1, probes: 1, sideCalls: 1, context: [1000], cliffAt: [0], usage: { input: 7, output: 1 } });
    expect([t.probes, t.sideCalls]).toEqual([2, 2]);
  });

  it("is bounded: past its size the session idle longest goes", () => {
    const t = new Sessions(nodeSha256, 3);
    for (const k of ["a", "b", "c"]) t.find(k, "turn", 1);
    t.find("a", "turn", 2); // a is now the newest
    t.find("d", "turn", 3);
    expect(t.size).toBe(3);
    expect(t.byId(t.idOf("b"))).toBeUndefined();
    expect(t.list().map((s) => s.id)).toEqual(["d", "a", "c"].map((k) => t.idOf(k)));
  });
});

describe("last cliffs over all sessions", () => {
  it("stay within their bound: the sessions idle longest lose theirs first, the newest keeps its own", () => {
    const cliff = (n: number) => ({ time: "", messagesIn: 1, messagesOut: 1, tokensIn: 1, tokensOut: 1, summary: "s".repeat(n), dropped: [] });
    const t = new Sessions(nodeSha256, 10, 3000);
    const [a, b, c] = ["a", "b", "c"].map((k) => t.find(k, "turn", 1).session!);
    t.setLastCliff(a, cliff(600));
    t.setLastCliff(b, cliff(600));
    expect([a, b].map((s) => s.lastCliff !== null)).toEqual([true, true]);
    t.setLastCliff(c, cliff(600)); // 3 × 1200 bytes > 3000: a, idle longest, loses its own
    expect([a, b, c].map((s) => s.lastCliff !== null)).toEqual([false, true, true]);
    t.setLastCliff(c, cliff(1400)); // replacing c's own counts only the difference
    expect([b, c].map((s) => s.lastCliff !== null)).toEqual([false, true]);
    expect(t.bytes()).toBeLessThan(3 * 600 + 3000 + 100);
  });
});

describe("the ledger of a cliff", () => {
  const sonnet = DEFAULT_PRICES["claude-sonnet-4"];

  it("sheds against the rewrite: negative until the shed tokens outweigh the cache write, then positive", () => {
    const l = new Ledger();
    l.add(true, 50_000, { input: 100, cacheRead: 0, cacheWrite: 20_000, output: 50 }, sonnet, 1);
    const rewrite = (100 * (3 - 0.3) + 20_000 * (3.75 - 0.3)) / 1e6;
    expect(l.bills[0]).toMatchObject({ requests: 1, shed: 50_000, rewrote: 20_100, readBack: 0 });
    expect(l.bills[0].netDollars).toBeCloseTo((50_000 * 0.3) / 1e6 - rewrite, 12);
    for (const shed of [52_000, 54_000, 56_000]) l.add(false, shed, { input: 50, cacheRead: 20_000, cacheWrite: 300, output: 40 }, sonnet, 2);
    expect(l.bills[0]).toMatchObject({ requests: 4, shed: 212_000, readBack: 60_000 });
    expect(l.bills[0].netDollars!).toBeCloseTo(0.0636 - rewrite, 12);
    expect(l.bills[0].netDollars!).toBeLessThan(0);
    l.add(false, 58_000, { input: 50, cacheRead: 20_000, cacheWrite: 0, output: 40 }, sonnet, 3);
    expect(l.bills[0].netDollars!).toBeCloseTo(0.081 - rewrite, 12);
    expect(l.bills[0].netDollars!).toBeGreaterThan(0);
    // A request that sent everything is outside the cliff's span.
    l.add(false, 0, { input: 9, cacheRead: 9, cacheWrite: 9, output: 9 }, sonnet, 4);
    expect(l.bills[0].requests).toBe(5);
    l.add(true, 10_000, { input: 0, cacheRead: 0, cacheWrite: 30_000, output: 1 }, sonnet, 5);
    expect(l.bills).toHaveLength(2);
    expect(l.total.cliffs).toBe(2);
    expect(l.total.shed).toBe(280_000);
    expect(l.total.netDollars).toBeCloseTo(l.bills[0].netDollars! + l.bills[1].netDollars!, 12);
  });

  it("each bill counts the recalls of its span, a request that went out whole after a refused recall round's too", () => {
    const l = new Ledger();
    l.add(false, 0, null, sonnet, 1, { calls: 9, rounds: 9, tokens: 9 });
    expect(l.bills).toEqual([]);
    l.add(true, 1000, null, sonnet, 2);
    expect(l.bills[0].recalls).toEqual({ calls: 0, rounds: 0, tokens: 0 });
    l.add(false, 1000, null, sonnet, 3, { calls: 2, rounds: 1, tokens: 700 });
    l.add(false, 0, null, sonnet, 4, { calls: 1, rounds: 1, tokens: 300 });
    expect(l.bills[0]).toMatchObject({ requests: 2, shed: 2000, recalls: { calls: 3, rounds: 2, tokens: 1000 } });
    l.add(true, 1000, null, sonnet, 5, { calls: 1, rounds: 1, tokens: 50 });
    expect(l.bills.map((b) => b.recalls.calls)).toEqual([3, 1]);
  });

  it("no price or no usage: tokens counted, no dollars; old bills leave the list but stay in the totals", () => {
    const l = new Ledger(2);
    l.add(true, 1000, null, sonnet, 1);
    l.add(true, 1000, { input: 1, cacheRead: 0, cacheWrite: 5, output: 1 }, null, 2);
    expect(l.bills.map((b) => b.netDollars)).toEqual([null, null]);
    expect(l.total.priced).toBe(0);
    const t = new Sessions(nodeSha256);
    const s = t.find("k", "turn", 1).session!;
    s.add(ex({ action: "cliff", tokensIn: 5000, tokensOut: 1000, usage: { input: 1, cacheRead: 0, cacheWrite: 5, output: 1 }, price: null }));
    expect((s.view().ledger as any).netDollars).toBeNull();
    l.add(true, 1000, { input: 1, cacheRead: 0, cacheWrite: 5, output: 1 }, sonnet, 3);
    expect(l.bills).toHaveLength(2);
    expect(l.total).toMatchObject({ cliffs: 3, shed: 3000, rewrote: 12 });
  });
});

describe("the price table", () => {
  it("finds a model by the longest entry it starts with; a config's entries add to it or replace it", () => {
    const p = new Prices();
    expect(p.of("claude-sonnet-4-5-20250929")).toEqual(DEFAULT_PRICES["claude-sonnet-4"]);
    expect(p.of("claude-opus-4-5-20251101")).toEqual(DEFAULT_PRICES["claude-opus-4-5"]);
    expect(p.of("claude-opus-4-1-20250805")).toEqual(DEFAULT_PRICES["claude-opus-4"]);
    expect(p.of("gpt-5-mini-2025-08-07")).toEqual(DEFAULT_PRICES["gpt-5-mini"]);
    expect(p.of("gpt-5.1-codex")).toEqual(DEFAULT_PRICES["gpt-5"]);
    expect(p.of("llama-3-local")).toBeNull();
    const mine = new Prices(checkPrices({ "llama-3": { input: 0.1, cacheRead: 0, cacheWrite: 0.1, output: 0.2 }, "claude-sonnet-4": { input: 1, cacheRead: 1, cacheWrite: 1, output: 1 } }));
    expect(mine.of("llama-3-local")).toEqual({ input: 0.1, cacheRead: 0, cacheWrite: 0.1, output: 0.2 });
    expect(mine.of("claude-sonnet-4-5")!.input).toBe(1);
    expect(Prices.dollars({ input: 1e6, cacheRead: 1e6, cacheWrite: 1e6, output: 1e6 }, DEFAULT_PRICES["claude-haiku-4-5"])).toBeCloseTo(1 + 0.1 + 1.25 + 5, 12);
  });

  it("a bad price entry is refused with a message that names it", () => {
    expect(() => checkPrices([])).toThrow(/prices must be an object/);
    expect(() => checkPrices({ m: { input: 1, cacheRead: 1, cacheWrite: 1 } })).toThrow(/prices\.m\.output must be a number ≥ 0/);
    expect(() => checkPrices({ m: { input: -1, cacheRead: 1, cacheWrite: 1, output: 1 } })).toThrow(/prices\.m\.input/);
  });
});

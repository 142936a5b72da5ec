import { describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { chainHashes, Engine, estimateTokens, messageDigest, PrefixStore, sha256Hex, SUMMARY_HEADER, type PrepareContext } from "../../core/index.js";
import { aBody, aSession } from "../helpers/sessions.js";

const gold = JSON.parse(readFileSync(new URL("../fixtures/reference-gold.json", import.meta.url), "utf8"));
const outMsgs = (ctx: PrepareContext): any[] => ctx.outgoingBody().messages as any[];
const summaryOf = (ctx: PrepareContext): string => outMsgs(ctx)[ctx.baseHead].content;
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe("sha256", () => {
  it("matches the NIST vectors", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect(sha256Hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")).toBe(
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    );
    expect(sha256Hex("a".repeat(1_000_000))).toBe("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  });

  it("agrees with node:crypto on random inputs, including non-ASCII and every length around block edges", () => {
    for (let len = 0; len < 200; len++) {
      const s = randomBytes(len).toString("latin1") + (len % 3 === 0 ? "😀é日" : "");
      expect(sha256Hex(s)).toBe(createHash("sha256").update(s, "utf8").digest("hex"));
    }
  });
});

describe("digests and chain", () => {
  it("reproduces digest0 and chain4", () => {
    const s = aSession(4);
    expect(messageDigest(s[0], "anthropic")).toBe(gold.digest0);
    expect(chainHashes(s.map((m) => messageDigest(m, "anthropic")))).toEqual(gold.chain4);
  });

  it("ignores cache_control; string and text-block content digest the same; so do tool_result forms", () => {
    const a = { role: "user", content: [{ type: "text", text: "hi", cache_control: { type: "ephemeral" } }] };
    expect(messageDigest(a, "anthropic")).toBe(messageDigest({ role: "user", content: "hi" }, "anthropic"));
    const r1 = { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "ok" }] };
    const r2 = { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "ok" }] }] };
    expect(messageDigest(r1, "anthropic")).toBe(messageDigest(r2, "anthropic"));
    const other = { role: "user", content: [{ type: "custom", x: 1, cache_control: { type: "ephemeral" } }] };
    expect(messageDigest(other, "anthropic")).toBe(messageDigest({ role: "user", content: [{ type: "custom", x: 1 }] }, "anthropic"));
  });

  it("identical tool calls digest the same, different ones differ; tool and user roles differ; ids and status never count", () => {
    const call = (cmd: string): unknown => ({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: cmd } }] });
    expect(messageDigest(call("ls"), "openai-chat")).toBe(messageDigest(call("ls"), "openai-chat"));
    expect(messageDigest(call("ls"), "openai-chat")).not.toBe(messageDigest(call("pwd"), "openai-chat"));
    expect(messageDigest({ role: "tool", content: "x" }, "openai-chat")).not.toBe(messageDigest({ role: "user", content: "x" }, "openai-chat"));
    const item = { type: "function_call", call_id: "c", name: "f", arguments: "{}" };
    expect(messageDigest({ ...item, id: "fc_1", status: "completed" }, "openai-responses")).toBe(messageDigest({ ...item, id: "fc_2" }, "openai-responses"));
    const reasoning = (enc: string): unknown => ({ type: "reasoning", id: "r", summary: [], encrypted_content: enc });
    expect(messageDigest(reasoning("a"), "openai-responses")).not.toBe(messageDigest(reasoning("b"), "openai-responses"));
  });

  it("has the prefix property", () => {
    const s = aSession(6);
    const full = chainHashes(s.map((m) => messageDigest(m, "anthropic")));
    const part = chainHashes(s.slice(0, 5).map((m) => messageDigest(m, "anthropic")));
    expect(full.slice(0, 5)).toEqual(part);
  });
});

describe("prefix store", () => {
  const entry = (chars: number): any => ({ headLen: 1, summary: { role: "user", content: "x".repeat(chars) }, cut: 3, reach: 4, policy: "p", dialect: "anthropic" });
  const sizeOf = (chars: number): number => JSON.stringify({ role: "user", content: "x".repeat(chars) }).replace(/":/g, '": ').replace(/,"/g, ', "').length;

  it("admits an exact fit, refuses one byte over without evicting, refuses zero capacity", () => {
    const s = new PrefixStore(10, sizeOf(100));
    expect(s.put("a", entry(100))).toBe(true);
    expect(s.put("b", entry(101))).toBe(false);
    expect(s.has("a")).toBe(true);
    expect(new PrefixStore(0, 100).put("a", entry(1))).toBe(false);
    expect(new PrefixStore(10, 0).put("a", entry(1))).toBe(false);
  });

  it("evicts least recently used entries by count and by bytes; get refreshes recency", () => {
    const s = new PrefixStore(2, 1e9);
    s.put("a", entry(1));
    s.put("b", entry(1));
    s.get("a");
    s.put("c", entry(1));
    expect([s.has("a"), s.has("b"), s.has("c")]).toEqual([true, false, true]);
    const bytes = new PrefixStore(10, sizeOf(10) * 2);
    bytes.put("a", entry(10));
    bytes.put("b", entry(10));
    bytes.put("c", entry(10));
    expect([bytes.has("a"), bytes.size, bytes.totalBytes]).toEqual([false, 2, sizeOf(10) * 2]);
    bytes.put("c", entry(10));
    expect(bytes.totalBytes).toBe(sizeOf(10) * 2);
  });

  it("measures UTF-8 bytes; 200 entries of 50k chars fit the default budget", () => {
    const s = new PrefixStore(10, 1e6);
    s.put("e", { ...entry(0), summary: "😀" });
    expect(s.totalBytes).toBe(6);
    const def = new Engine().store;
    for (let i = 0; i < 200; i++) def.put(`k${i}`, entry(50_000));
    expect(def.size).toBe(200);
  });

  it("an engine keeps an empty store it was handed and builds its own from config", () => {
    const shared = new PrefixStore();
    expect(new Engine({}, { store: shared }).store).toBe(shared);
    const own = new Engine({ storeMaxEntries: 7, storeMaxBytes: 99 }).store;
    expect([own.maxEntries, own.maxBytes]).toEqual([7, 99]);
  });
});

describe("engine", () => {
  it("reproduces the gold engine values (the reference profile)", () => {
    const ctx = new Engine({ profile: "reference", thresholdTokens: 2000, keepRecent: 1 }).prepare(aBody(aSession(10)), "anthropic");
    const g = gold.engine;
    expect([ctx.compacted, ctx.modified, outMsgs(ctx).length, ctx.estTokensIn, ctx.estTokensOut, ctx.baseCut, ctx.baseHead]).toEqual([
      g.compacted, g.modified, g.n_out, g.est_in, g.est_out, g.base_cut, g.base_head,
    ]);
    expect(summaryOf(ctx)).toBe(g.summary);
    expect(ctx.estTokensOut).toBe(estimateTokens(ctx.outgoingBody()));
    expect(outMsgs(ctx).slice(2)).toEqual(aSession(10).slice(15));
  });

  it("below the threshold nothing is modified and the same body object goes out", () => {
    const body = aBody(aSession(3));
    const ctx = new Engine({ thresholdTokens: 100000 }).prepare(body, "anthropic");
    expect(ctx.modified).toBe(false);
    expect(ctx.outgoingBody()).toBe(body);
  });

  it("compacts and stores; a follow-up is substituted from the store; growing again stores a second cliff", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const s = aSession(30);
    const first = e.prepare(aBody(s.slice(0, 21)), "anthropic");
    expect([first.compacted, e.store.size]).toEqual([true, 1]);
    expect(first.estTokensOut).toBeLessThan(first.estTokensIn);
    const follow = e.prepare(aBody(s.slice(0, 23)), "anthropic");
    expect(follow.matched).toBe(true);
    expect(outMsgs(follow).slice(2)).toEqual(s.slice(0, 23).slice(follow.baseCut));
    let later = follow;
    for (let n = 25; n <= 61 && e.store.size < 2; n += 2) later = e.prepare(aBody(s.slice(0, n)), "anthropic");
    expect(e.store.size).toBe(2);
    expect(outMsgs(later).filter((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_HEADER))).toHaveLength(1);
    const deeper = e.prepare(aBody(s.slice(0, later.messages.length + 2)), "anthropic");
    expect([deeper.matched, deeper.baseCut >= later.baseCut]).toEqual([true, true]);
  });

  it("diverging branches share a stored prefix; a rewritten history does not match", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const s = aSession(12);
    e.prepare(aBody(s.slice(0, 21)), "anthropic");
    const branchA = [...s.slice(0, 21), { role: "assistant", content: "branch A" }];
    const branchB = [...s.slice(0, 21), { role: "assistant", content: "branch B" }];
    expect(e.prepare(aBody(branchA), "anthropic").matched).toBe(true);
    expect(e.prepare(aBody(branchB), "anthropic").matched).toBe(true);
    const rewritten = clone(s.slice(0, 23));
    (rewritten[0] as any).content = "A different task entirely.";
    expect(e.prepare(aBody(rewritten), "anthropic").matched).toBe(false);
  });

  it("a cached cliff never replaces a request that fits", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const s = aSession(12);
    e.prepare(aBody(s.slice(0, 21)), "anthropic");
    const small = s.slice(0, 21).map((m: any) => (Array.isArray(m.content) && m.content[0].type === "tool_result" ? { ...m, content: [{ ...m.content[0], content: "short" }] } : m));
    const ctx = e.prepare(aBody(small), "anthropic");
    expect(ctx.modified).toBe(false);
  });

  it("a lost store still gives a bounded last-cycle summary", () => {
    const s = aSession(40);
    const ctx = new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(aBody(s), "anthropic");
    const text = summaryOf(ctx);
    expect(text).not.toContain("Step 2:");
    expect(text).not.toContain("Step 10:");
    expect(text.length).toBeLessThan(3 * Math.max(JSON.stringify(outMsgs(ctx).slice(2)).length, 1000));
    expect(ctx.estTokensOut).toBeLessThanOrEqual(2 * 2000);
  });

  it("growing request by request gives byte-identical bodies to a cold replay at every step", () => {
    const s = aSession(30);
    const warm = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    let matches = 0;
    for (let n = 2; n <= s.length; n++) {
      const w = warm.prepare(aBody(s.slice(0, n)), "anthropic");
      if (w.matched) matches++;
      const cold = new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(clone(aBody(s.slice(0, n))), "anthropic");
      expect(JSON.stringify(w.outgoingBody()), `step ${n}`).toBe(JSON.stringify(cold.outgoingBody()));
    }
    expect(matches).toBeGreaterThan(20);
  });

  it("warm and cold agree across threshold boundaries for every prefix length, in any request order", () => {
    const s = aSession(12);
    for (const threshold of [1105, 1106, 1107]) {
      for (const order of ["grow", "shrink", "shuffle"]) {
        const warm = new Engine({ thresholdTokens: threshold, keepRecent: 1 });
        const lengths = [...Array(s.length - 1).keys()].map((i) => i + 2);
        if (order === "shrink") lengths.reverse();
        if (order === "shuffle") lengths.sort((a, b) => ((a * 7919) % 13) - ((b * 7919) % 13));
        for (const n of lengths) {
          const w = warm.prepare(aBody(s.slice(0, n)), "anthropic");
          const c = new Engine({ thresholdTokens: threshold, keepRecent: 1 }).prepare(clone(aBody(s.slice(0, n))), "anthropic");
          expect(JSON.stringify(w.outgoingBody()), `${threshold} ${order} ${n}`).toBe(JSON.stringify(c.outgoingBody()));
        }
      }
    }
  });

  it("warm and cold agree after in-place redaction, and cached summaries are cloned per request", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const s = clone(aSession(14));
    e.prepare(aBody(s.slice(0, 21)), "anthropic");
    (s[3] as any).content[0].text = "REDACTED";
    const warm = e.prepare(aBody(s.slice(0, 25)), "anthropic");
    const cold = new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(clone(aBody(s.slice(0, 25))), "anthropic");
    expect(JSON.stringify(warm.outgoingBody())).toBe(JSON.stringify(cold.outgoingBody()));
    const e2 = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const t = aSession(14);
    e2.prepare(aBody(t.slice(0, 21)), "anthropic");
    const one = e2.prepare(aBody(t.slice(0, 23)), "anthropic");
    outMsgs(one)[one.baseHead].content = "POISON";
    const two = e2.prepare(aBody(t.slice(0, 23)), "anthropic");
    expect(summaryOf(two)).not.toBe("POISON");
  });

  it("store reuse is isolated by config and by the request's fixed cost", () => {
    const store = new PrefixStore();
    const s = aSession(12);
    new Engine({ thresholdTokens: 2000, keepRecent: 1 }, { store }).prepare(aBody(s.slice(0, 21)), "anthropic");
    expect(new Engine({ thresholdTokens: 2000, keepRecent: 2 }, { store }).prepare(aBody(s.slice(0, 23)), "anthropic").matched).toBe(false);
    expect(new Engine({ thresholdTokens: 2000, keepRecent: 1 }, { store }).prepare({ ...aBody(s.slice(0, 23)), system: "Other." }, "anthropic").matched).toBe(false);
    expect(new Engine({ thresholdTokens: 2000, keepRecent: 1 }, { store }).prepare(aBody(s.slice(0, 23)), "anthropic").matched).toBe(true);
  });

  it("reactive compacts regardless of the threshold and is exhausted after at most 4 steps", () => {
    const e = new Engine({ thresholdTokens: 1_000_000, keepRecent: 2 });
    const ctx = e.prepare(aBody(aSession(10)), "anthropic");
    expect(ctx.modified).toBe(false);
    let steps = 0;
    while (e.reactive(ctx)) steps++;
    expect(steps).toBeGreaterThanOrEqual(1);
    expect(steps).toBeLessThanOrEqual(4);
    expect(ctx.modified).toBe(true);
    expect(e.reactive(ctx)).toBe(false);
    expect(e.reactive(ctx)).toBe(false);
  });
});

function session(turns: number, text: number, result: number, think = 0): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "task" }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [...(think ? [{ type: "thinking", thinking: `pondering ${i} `.repeat(think) }] : []), { type: "text", text: `Step ${i} `.repeat(text) }, { type: "tool_use", id: `t${i}`, name: "bash", input: { c: i } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `ok ${i} ` + "r".repeat(result) }] });
  }
  return msgs;
}

describe("escalation", () => {
  it("climbs to rung ≥ 1 when the kept turns alone are over, and fits", () => {
    const ctx = new Engine({ thresholdTokens: 4000, keepRecent: 3 }).prepare({ messages: session(8, 20, 6000) }, "anthropic");
    expect(ctx.rung).toBeGreaterThanOrEqual(1);
    expect(ctx.estTokensOut).toBeLessThanOrEqual(4000);
    expect(outMsgs(ctx).filter((m) => m.role === "assistant").length).toBeLessThan(3);
    expect(ctx.overBudget).toBe(false);
  });

  it("rung 1 compacts when there are only keepRecent turns", () => {
    const ctx = new Engine({ thresholdTokens: 4000, keepRecent: 3 }).prepare({ messages: session(3, 20, 6000) }, "anthropic");
    expect([ctx.rung, ctx.modified, ctx.overBudget]).toEqual([1, true, false]);
    expect(outMsgs(ctx).filter((m) => m.role === "assistant")).toHaveLength(1);
  });

  it("a single giant live turn does not crash: a soft send, over budget", () => {
    const msgs = [{ role: "user", content: "task" }, { role: "assistant", content: "G".repeat(80_000) }];
    const ctx = new Engine({ thresholdTokens: 1000, keepRecent: 1 }).prepare({ messages: msgs }, "anthropic");
    expect(ctx.overBudget).toBe(true);
    expect(ctx.rung).toBeLessThanOrEqual(2);
  });

  it("no escalation without assistant turns", () => {
    const ctx = new Engine({ thresholdTokens: 100 }).prepare({ messages: [{ role: "user", content: "U".repeat(5000) }] }, "anthropic");
    expect([ctx.modified, ctx.rung, ctx.overBudget]).toEqual([false, 0, true]);
  });

  it("rung 2 caps thoughts and drops thinking even with keepRecent already 1", () => {
    const ctx = new Engine({ profile: "reference", thresholdTokens: 2000, keepRecent: 1 }).prepare({ messages: session(10, 570, 10, 60) }, "anthropic");
    expect([ctx.rung, ctx.overBudget]).toEqual([2, false]);
    expect(summaryOf(ctx)).not.toContain("thinking:");
    expect(summaryOf(ctx)).toMatch(/assistant: (Step 8 ){42}Step 8\.\.\.\n/);
  });

  it("strict reaches rung 3 with the newest parts, never stores it; without strict the send is soft; shadow changes nothing", () => {
    const system = "S".repeat(3200);
    const msgs = session(12, 40, 10);
    const strict = new Engine({ thresholdTokens: 1000, keepRecent: 1, strict: true });
    const ctx = strict.prepare({ system, messages: msgs }, "anthropic");
    expect([ctx.rung, ctx.overBudget]).toEqual([3, false]);
    expect(ctx.estTokensOut).toBeLessThanOrEqual(1000);
    expect(ctx.estTokensOut).toBe(estimateTokens(ctx.outgoingBody()));
    expect(summaryOf(ctx).endsWith("result: ok 10 rrrrrrrrrr")).toBe(true);
    expect(summaryOf(ctx)).not.toContain("Step 9 ");
    const stored = [...Array(msgs.length).keys()].length && strict.store.size;
    const sibling = strict.prepare({ system, messages: msgs.slice(0, -2) }, "anthropic");
    const cold = new Engine({ thresholdTokens: 1000, keepRecent: 1, strict: true }).prepare({ system, messages: msgs.slice(0, -2) }, "anthropic");
    expect(JSON.stringify(sibling.outgoingBody())).toBe(JSON.stringify(cold.outgoingBody()));
    expect(strict.store.size).toBeGreaterThanOrEqual(stored);
    const loose = new Engine({ thresholdTokens: 1000, keepRecent: 1 }).prepare({ system, messages: msgs }, "anthropic");
    expect([loose.rung, loose.overBudget]).toEqual([2, true]);
    const body = { system, messages: msgs };
    const shadow = new Engine({ thresholdTokens: 1000, keepRecent: 1, strict: true, shadow: true }).prepare(body, "anthropic");
    expect(shadow.rung).toBeLessThanOrEqual(2);
    expect(shadow.outgoingBody()).toBe(body);
  });

  it("overBudget is false under the threshold", () => {
    expect(new Engine({ thresholdTokens: 1e6, strict: true }).prepare({ messages: session(3, 10, 10) }, "anthropic").overBudget).toBe(false);
  });

  it("keepRecent 0 only cuts where a turn ends", () => {
    const s = aSession(10);
    const withoutResult = s.slice(0, 20); // ends on an assistant tool call with no result yet
    const ctx = new Engine({ thresholdTokens: 2000, keepRecent: 0 }).prepare(aBody(withoutResult), "anthropic");
    if (ctx.modified) expect(ctx.baseCut === withoutResult.length || (withoutResult[ctx.baseCut] as any).role === "assistant").toBe(true);
    const complete = new Engine({ thresholdTokens: 2000, keepRecent: 0 }).prepare(aBody(s), "anthropic");
    expect(complete.modified).toBe(true);
    expect(complete.baseCut === s.length || (s[complete.baseCut] as any).role === "assistant").toBe(true);
  });
});

describe("summary fingerprint", () => {
  it("is the first 8 hex digits of the sent summary's SHA-256, whether compacted now, reused from the store or cut to fit", () => {
    const fp = (ctx: PrepareContext) => sha256Hex(summaryOf(ctx)).slice(0, 8);
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    const s = aSession(14);
    const made = e.prepare(aBody(s.slice(0, 21)), "anthropic");
    expect(made.compacted).toBe(true);
    expect(made.summaryFp).toBe(fp(made));
    const reused = e.prepare(aBody(s.slice(0, 23)), "anthropic");
    expect(reused.matched).toBe(true);
    expect(reused.summaryFp).toBe(fp(reused));
    const unmodified = e.prepare(aBody(s.slice(0, 3)), "anthropic");
    expect(unmodified.summaryFp).toBe("");
    const strict = new Engine({ thresholdTokens: 1000, keepRecent: 1, strict: true }).prepare({ system: "S".repeat(3200), messages: session(12, 40, 10) }, "anthropic");
    expect(strict.rung).toBe(3);
    expect(strict.summaryFp).toBe(fp(strict));
  });
});

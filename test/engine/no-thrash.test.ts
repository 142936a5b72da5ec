import { describe, expect, it } from "vitest";
import { Engine, PrefixStore, SUMMARY_HEADER, type Config, type PrepareContext } from "../../core/index.js";
import { aSession } from "../helpers/sessions.js";

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const bytes = (ctx: PrepareContext): string => JSON.stringify(ctx.outgoingBody());
/** A system prompt of about 2,500 estimated tokens: the head alone is over a 2,000-token threshold. */
const BIG_SYSTEM = "You are a coding agent. Follow the house rules.\n".repeat(208);
const body = (messages: unknown[], system = BIG_SYSTEM): Record<string, unknown> => ({ model: "m", max_tokens: 64, system, messages });

/** The summary a request sends ("" when none): what the prompt cache sees change. */
function summaryOf(ctx: PrepareContext): string {
  if (!ctx.modified) return "";
  const m = ctx.substituted[ctx.baseHead] as { content: unknown };
  return typeof m.content === "string" && m.content.startsWith(SUMMARY_HEADER) ? m.content : JSON.stringify(m.content);
}

/** One session grown request by request (two messages each) through `engine`. */
function grow(cfg: Partial<Config>, turns = 40, engine = new Engine(cfg)): { ctxs: PrepareContext[]; cliffs: number; summaries: number; growth: number } {
  const s = aSession(turns);
  const ctxs: PrepareContext[] = [];
  for (let n = 3; n <= s.length; n += 2) ctxs.push(engine.prepare(body(s.slice(0, n)), "anthropic"));
  let summaries = 0;
  for (let i = 0; i < ctxs.length; i++) if (summaryOf(ctxs[i]) !== "" && summaryOf(ctxs[i]) !== (i > 0 ? summaryOf(ctxs[i - 1]) : "")) summaries++;
  return { ctxs, cliffs: ctxs.filter((c) => c.compacted).length, summaries, growth: ctxs[ctxs.length - 1].estTokensIn - ctxs[0].estTokensIn };
}

describe("no thrash: the minimum gain between cliffs", () => {
  it("without it, a session whose head alone is over the threshold cliffs on nearly every request", () => {
    const r = grow({ thresholdTokens: 2000, keepRecent: 1 });
    expect(r.ctxs[0].floor()).toBeNull();
    expect(r.cliffs).toBeGreaterThan(r.ctxs.length - 5);
    expect(r.summaries).toBeGreaterThan(r.ctxs.length - 5);
  });

  it("with it, that session cliffs at most once per minimum gain, and the summary sent changes only at a cliff", () => {
    const minGain = 2000;
    const r = grow({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: minGain });
    expect(r.cliffs).toBeGreaterThanOrEqual(2);
    expect(r.cliffs).toBeLessThanOrEqual(1 + Math.ceil(r.growth / minGain));
    expect(r.summaries).toBeLessThanOrEqual(r.cliffs);
    for (let i = 1; i < r.ctxs.length; i++) {
      if (!r.ctxs[i].compacted && summaryOf(r.ctxs[i - 1]) !== "") expect(summaryOf(r.ctxs[i]), `request ${i}`).toBe(summaryOf(r.ctxs[i - 1]));
    }
    // Between cliffs the body is over the threshold and sent as the last cliff left it, plus what came since.
    expect(r.ctxs.filter((c) => !c.compacted && c.matched && c.overBudget).length).toBeGreaterThan(5);
  });

  it("a cliff waits until the context has grown by the gain beyond what the last cliff left", () => {
    const minGain = 1500;
    const r = grow({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: minGain });
    let floor = -1;
    for (const c of r.ctxs) {
      if (c.compacted && floor >= 0) expect(c.estTokensIn).toBeGreaterThan(0);
      if (!c.compacted && floor >= 0) expect(c.estTokensOut - floor).toBeLessThan(minGain + 800); // a request adds at most one ~750-token pair
      if (c.compacted) floor = c.floor()!.tokens;
    }
    expect(floor).toBeGreaterThan(2000);
  });

  it("warm growth gives byte-identical bodies to a cold replay, and two engines taking turns give the bytes of one", () => {
    const cfg = { thresholdTokens: 2000, keepRecent: 1, minGainTokens: 1200 };
    const s = aSession(36);
    const warm = new Engine(cfg);
    const replicas = [new Engine(cfg), new Engine(cfg)];
    let reused = 0;
    for (let n = 3; n <= s.length; n += 2) {
      const w = warm.prepare(body(s.slice(0, n)), "anthropic");
      if (w.matched && !w.compacted) reused++;
      const cold = new Engine(cfg).prepare(clone(body(s.slice(0, n))), "anthropic");
      const replica = replicas[(n >> 1) % 2].prepare(clone(body(s.slice(0, n))), "anthropic");
      expect(bytes(w), `request of ${n} messages`).toBe(bytes(cold));
      expect(bytes(replica), `replica, ${n} messages`).toBe(bytes(w));
    }
    expect(reused).toBeGreaterThan(8);
  });

  it("warm and cold agree in any request order and for a head under the threshold too", () => {
    const s = aSession(16);
    for (const [system, threshold] of [["You are a coding agent.", 1500], [BIG_SYSTEM, 2000]] as const) {
      for (const order of ["grow", "shrink", "shuffle"]) {
        const cfg = { thresholdTokens: threshold, keepRecent: 1, minGainTokens: 700 };
        const warm = new Engine(cfg);
        const lengths = [...Array(s.length - 1).keys()].map((i) => i + 2);
        if (order === "shrink") lengths.reverse();
        if (order === "shuffle") lengths.sort((a, b) => ((a * 7919) % 17) - ((b * 7919) % 17));
        for (const n of lengths) {
          const w = warm.prepare(body(s.slice(0, n), system), "anthropic");
          const c = new Engine(cfg).prepare(clone(body(s.slice(0, n), system)), "anthropic");
          expect(bytes(w), `${threshold} ${order} ${n}`).toBe(bytes(c));
        }
      }
    }
  });

  it("a gain of 0 is the reference's rule: the same bodies as no gain at all", () => {
    const a = grow({ thresholdTokens: 2000, keepRecent: 1 });
    const b = grow({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: 0 });
    expect(b.ctxs.map(bytes)).toEqual(a.ctxs.map(bytes));
  });

  it("the reactive path is never held back", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: 1_000_000 });
    const s = aSession(30);
    e.prepare(body(s.slice(0, 41)), "anthropic");
    const held = e.prepare(body(s.slice(0, 45)), "anthropic");
    expect([held.compacted, held.matched]).toEqual([false, true]);
    const before = bytes(held);
    expect(e.reactive(held)).toBe(true);
    expect(bytes(held)).not.toBe(before);
    expect(held.estTokensOut).toBeLessThan(e.prepare(body(s.slice(0, 45)), "anthropic").estTokensOut);
  });

  it("the floor is what stays after the cliff: head (system and messages before the summary), summary and tail", () => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: 200 });
    const ctx = e.prepare(body(aSession(20)), "anthropic");
    const f = ctx.floor()!;
    expect(f.head + f.summary + f.tail).toBe(f.tokens);
    expect(f.head).toBeGreaterThanOrEqual(Math.floor(BIG_SYSTEM.length / 4));
    expect(f.summary).toBeGreaterThan(0);
    expect(f.tokens).toBeLessThanOrEqual(ctx.estTokensOut);
    const small = new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(body(aSession(20), "Be brief."), "anthropic").floor()!;
    expect(small.head).toBeLessThan(50);
  });

  it("escalation chains are stored only with a gain, under their own keys", () => {
    const store = new PrefixStore();
    const s = aSession(20);
    new Engine({ thresholdTokens: 2000, keepRecent: 3 }, { store }).prepare(body(s), "anthropic");
    const plain = store.size;
    const store2 = new PrefixStore();
    new Engine({ thresholdTokens: 2000, keepRecent: 3, minGainTokens: 500 }, { store: store2 }).prepare(body(s), "anthropic");
    expect(plain).toBe(1);
    expect(store2.size).toBeGreaterThan(1);
  });
});

/**
 * The proxy's threshold by model: the default rule (below the long-context tier, else half the
 * window capped at 200,000) with the reason status gives; an explicit threshold past a tier warned
 * once; `modelThresholds` globs, first match wins; and the opt-in idle cliff on a fake clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { parseModelThresholds } from "../../core/models/index.js";
import { modelLines } from "../../cli/service/status.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(() => mock.close());

/** A tool-using Anthropic history of `turns` turns, each result `size` characters (about size/4 tokens a turn). */
function history(turns: number, size = 2000, task = "Fix the build."): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: task }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `step ${i}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `make ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `${i} ` + "x".repeat(size) }] });
  }
  return msgs;
}

async function withProxy(o: Parameters<typeof startProxy>[0], f: (p: RunningProxy, logs: string[]) => Promise<void>): Promise<void> {
  const logs: string[] = [];
  const p = await startProxy({ port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1", chatgpt: mock.url }, log: (l) => logs.push(l), ...o });
  try {
    await f(p, logs);
  } finally {
    await p.close();
  }
}

const post = async (p: RunningProxy, body: unknown, headers: Record<string, string> = {}): Promise<string> => {
  const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", ...headers }, body: JSON.stringify(body) });
  await r.text();
  return mock.received.at(-1)!.body.toString();
};
const chat = async (p: RunningProxy, model: string): Promise<void> => {
  const r = await fetch(p.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }) });
  await r.text();
};
const status = async (p: RunningProxy): Promise<Record<string, any>> => (await (await fetch(p.url + "/_cliff/status")).json()) as Record<string, any>;
const BETA = { "anthropic-beta": "context-1m-2025-08-07" };
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 30));

describe("the default threshold by model", () => {
  it("sits below the tier, or at half the window capped at 200,000, and status says why", async () => {
    await withProxy({ config: resolveConfig({ keepRecent: 1 }), defaultThreshold: true, minGainShare: 0.1 }, async (p) => {
      await post(p, { model: "claude-sonnet-4-5", messages: history(2) }, BETA);
      await post(p, { model: "claude-opus-4-5-20251101", messages: history(2) });
      for (const m of ["gpt-4.1", "gemini-2.5-pro", "gpt-6-sol", "qwen-mystery"]) await chat(p, m);
      const w = (await status(p)).windows;
      expect(w["claude-sonnet-4-5"]).toMatchObject({ window: 1_000_000, source: "anthropic-beta", thresholdTokens: 160_000, reason: "tier", tier: 200_000 });
      expect(w["claude-opus-4-5"]).toMatchObject({ window: 200_000, thresholdTokens: 100_000, reason: "share" });
      expect(w["gpt-4.1"]).toMatchObject({ thresholdTokens: 200_000, reason: "cap" });
      expect(w["gemini-2.5-pro"]).toMatchObject({ thresholdTokens: 160_000, reason: "tier" });
      expect(w["gpt-6-sol"]).toMatchObject({ window: 922_000, thresholdTokens: 200_000, reason: "cap", tier: 272_000 });
      // A model the table does not know is keyed "other" (its name is client text).
      expect(w.other).toMatchObject({ window: 128_000, source: "default", thresholdTokens: 64_000, reason: "share" });
      const s = await status(p);
      expect(s.thresholdRule).toBe("default");
      expect(s.thresholdText).toMatch(/below its long-context price tier .* half its window capped at 200,000/);
      const lines = modelLines(s);
      expect(lines).toContain("model claude-sonnet-4-5: threshold 160,000 tokens (tier: below its long-context price tier at 200,000 tokens; window 1,000,000 from the 1M beta header)");
      expect(lines).toContain("model gpt-4.1: threshold 200,000 tokens (cap: half its 1,047,576-token window, capped at 200,000; window 1,047,576 from the model table)");
      expect(lines.some((l) => l.startsWith("WARNING"))).toBe(false);
    });
  });

  it("decides each request against its model's default", async () => {
    // A 4,000-token window: half is 2,000 for every model; the request of about 2,500 tokens cliffs.
    await withProxy({ config: resolveConfig({ keepRecent: 1 }), defaultThreshold: true, contextWindow: 4000 }, async (p) => {
      expect(await post(p, { model: "claude-sonnet-4-5", messages: history(5) })).toContain(SUMMARY_HEADER);
    });
  });
});

describe("an explicit threshold past a model's tier", () => {
  it("is used as given, and status and the log warn once per model", async () => {
    await withProxy({ config: resolveConfig({ keepRecent: 1, thresholdTokens: 190_000 }), minGainShare: 0.1 }, async (p, logs) => {
      await post(p, { model: "claude-sonnet-4-5", messages: history(2) }, BETA);
      await post(p, { model: "claude-sonnet-4-5", messages: history(3) }, BETA);
      await post(p, { model: "claude-opus-4-5-20251101", messages: history(2) });
      const w = (await status(p)).windows;
      expect(w["claude-sonnet-4-5"]).toMatchObject({ thresholdTokens: 190_000, reason: "explicit" });
      expect(w["claude-sonnet-4-5"].warning).toMatch(/the threshold 190,000 for claude-sonnet-4-5 lets requests past its long-context price tier at 200,000/);
      expect(w["claude-opus-4-5"].warning).toBeUndefined();
      expect(logs.filter((l) => / WARNING the threshold 190,000 for claude-sonnet-4-5 /.test(l))).toHaveLength(1);
      expect(modelLines(await status(p)).filter((l) => l.startsWith("WARNING: the threshold 190,000"))).toHaveLength(1);
    });
  });

  it("a share of the window warns too; one below the tier does not", async () => {
    await withProxy({ config: resolveConfig({ keepRecent: 1 }), thresholdShare: 0.5, minGainShare: 0.1 }, async (p, logs) => {
      await post(p, { model: "claude-sonnet-4-5", messages: history(2) }, BETA);
      await chat(p, "gpt-4.1");
      expect(logs.filter((l) => / WARNING the threshold 500,000 for claude-sonnet-4-5 /.test(l))).toHaveLength(1);
      expect((await status(p)).windows["gpt-4.1"].warning).toBeUndefined();
    });
  });
});

describe("modelThresholds in the proxy", () => {
  it("the first glob that matches wins; models no glob matches keep the other rule", async () => {
    const modelThresholds = parseModelThresholds("claude-opus-*=120000,claude-*=2%,gpt-4.1*=150000");
    await withProxy({ config: resolveConfig({ keepRecent: 1 }), defaultThreshold: true, modelThresholds, minGainShare: 0.1 }, async (p) => {
      // 2% of 200k is 4,000: the sonnet request of about 5,000 tokens cliffs; the opus one (120,000) does not.
      expect(await post(p, { model: "claude-sonnet-4-5", messages: history(10) })).toContain(SUMMARY_HEADER);
      expect(await post(p, { model: "claude-opus-4-5", messages: history(10) })).not.toContain(SUMMARY_HEADER);
      await chat(p, "gpt-4.1-mini");
      await chat(p, "gemini-2.5-pro");
      const w = (await status(p)).windows;
      expect(w["claude-opus-4-5"]).toMatchObject({ thresholdTokens: 120_000, reason: "explicit", glob: "claude-opus-*" });
      expect(w["claude-sonnet-4-5"]).toMatchObject({ thresholdTokens: 4_000, reason: "explicit", glob: "claude-*" });
      expect(w["gpt-4.1-mini"]).toMatchObject({ thresholdTokens: 150_000, glob: "gpt-4.1*" });
      expect(w["gemini-2.5-pro"]).toMatchObject({ thresholdTokens: 160_000, reason: "tier" });
      expect((await status(p)).thresholdText).toMatch(/modelThresholds claude-opus-\*=120000,claude-\*=2%,gpt-4.1\*=150000 first/);
    });
  });
});

describe("the idle cliff on a fake clock", () => {
  // A 10,000-token threshold, the floor at half of it: about 500 tokens a turn.
  const config = resolveConfig({ keepRecent: 1, thresholdTokens: 10_000, minGainTokens: 1_000 });
  const MIN = 60_000;

  async function replay(o: Partial<Parameters<typeof startProxy>[0]>, gaps: Record<number, number>, turns: number, task: string): Promise<{ cliffs: number[]; logs: string[] }> {
    let clock = 1_000_000;
    const cliffs: number[] = [];
    let logs: string[] = [];
    await withProxy({ config, now: () => clock, ...o }, async (p, l) => {
      logs = l;
      for (let t = 1; t <= turns; t++) {
        clock += gaps[t] ?? 10_000;
        const sent = await post(p, { model: "claude-sonnet-4-5", messages: history(t, 2000, task) });
        await settle();
        if (/cliff/.test(logs.filter((x) => / anthropic /.test(x)).at(-1) ?? "") && sent.includes(SUMMARY_HEADER)) cliffs.push(t);
      }
    });
    return { cliffs, logs };
  }

  it("cliffs the first request after a gap once the floor and the gain allow, never otherwise", async () => {
    // Turn 6 (~3,000 tokens) comes after 6 minutes but under the floor (5,000); turn 12 (~6,000) after 6 minutes: cliffed.
    const { cliffs, logs } = await replay({ idleCliffMs: 5 * MIN }, { 6: 6 * MIN, 12: 6 * MIN, 14: 6 * MIN }, 15, "idle one");
    expect(cliffs).toEqual([12]);
    expect(logs.filter((l) => / cliff \(idle\) /.test(l))).toHaveLength(1);
  });

  it("a second gap soon after a cliff waits for the minimum gain past what it left", async () => {
    const { cliffs } = await replay({ idleCliffMs: 5 * MIN, idleCliffFloor: 0.2 }, { 12: 6 * MIN, 13: 6 * MIN, 16: 6 * MIN }, 16, "idle two");
    expect(cliffs[0]).toBe(12);
    expect(cliffs).not.toContain(13);
    expect(cliffs).toContain(16);
  });

  it("never without the key, and never without a gap", async () => {
    expect((await replay({}, { 12: 6 * MIN }, 15, "idle three")).cliffs).toEqual([]);
    expect((await replay({ idleCliffMs: 5 * MIN }, {}, 15, "idle four")).cliffs).toEqual([]);
  });

  it("a session cliffed after a gap goes on from that cliff below the threshold", async () => {
    let clock = 0;
    await withProxy({ config, now: () => clock, idleCliffMs: 5 * MIN }, async (p) => {
      for (let t = 1; t <= 12; t++) {
        clock += t === 12 ? 6 * MIN : 10_000;
        await post(p, { model: "claude-sonnet-4-5", messages: history(t, 2000, "idle five") });
        await settle();
      }
      clock += 10_000;
      const next = await post(p, { model: "claude-sonnet-4-5", messages: history(13, 2000, "idle five") });
      expect(next).toContain(SUMMARY_HEADER);
    });
  });
});

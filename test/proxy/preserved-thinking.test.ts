/**
 * Preserved thinking through the proxy, against a mock upstream that runs the documented prefix
 * check. A cliff keeps the tail verbatim, thinking blocks included, but their prefix changed: on a
 * model that runs the check, every request the proxy changed asks the API to drop such blocks
 * (`drop_block` with its beta) instead of refusing the request; with thinking off or absent the
 * proxy removes the blocks from the kept turns itself. Unchanged requests go out byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER, type Config } from "../../core/index.js";
import { startProxy, type ProxyOptions, type RunningProxy } from "../../proxy/index.js";
import { assistantOf, BETA, preservedThinkingMock, type Exchange, type PreservedThinkingMock } from "../helpers/preserved-thinking.js";

let mock: PreservedThinkingMock;
beforeAll(async () => {
  mock = await preservedThinkingMock();
});
afterAll(async () => {
  await mock.close();
});

const CFG: Partial<Config> = { thresholdTokens: 3000, minGainTokens: 300, keepRecent: 2 };
const SYSTEM = [{ type: "text", text: "You are Claude Code. " + "House rules. ".repeat(40), cache_control: { type: "ephemeral" } }];
const TOOLS = [{ name: "Bash", description: "Runs a command.", input_schema: { type: "object", properties: { command: { type: "string" } } } }];

const start = (cfg: Partial<Config> = CFG, more: Partial<ProxyOptions> = {}): Promise<RunningProxy> =>
  startProxy({ config: resolveConfig(cfg), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined, ...more });

interface Sent {
  /** The body as the client sent it. */
  client: string;
  headers: Record<string, string>;
  status: number;
  answer: string;
}

/**
 * A Claude Code-like client: its history grows by the model's turn (as returned) and a large tool
 * result each request. `proxyFor(k)` picks the proxy of request k.
 */
async function session(proxyFor: (k: number) => RunningProxy, o: { requests: number; model?: string; thinking?: unknown; betas?: string[]; stream?: boolean }): Promise<Sent[]> {
  const history: Record<string, unknown>[] = [{ role: "user", content: [{ type: "text", text: "Fix the parser in repo widgets." }] }];
  const out: Sent[] = [];
  for (let k = 0; k < o.requests; k++) {
    const messages = history.map((m, i) => (i === history.length - 1 ? withBreakpoint(m) : m));
    const body = { model: o.model ?? "claude-fable-5-1", max_tokens: 32000, system: SYSTEM, tools: TOOLS, messages, ...(o.thinking === undefined ? {} : { thinking: o.thinking }), stream: o.stream ?? true };
    const client = JSON.stringify(body);
    const headers: Record<string, string> = { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "x-claude-code-session-id": "pt-session", ...(o.betas !== undefined ? { "anthropic-beta": o.betas.join(",") } : {}) };
    const r = await fetch(proxyFor(k).url + "/v1/messages", { method: "POST", headers, body: client });
    const answer = await r.text();
    out.push({ client, headers, status: r.status, answer });
    if (r.status !== 200) break;
    const turn = assistantOf(answer);
    history.push(turn);
    const call = turn.content.find((b) => (b as { type: string }).type === "tool_use") as { id: string } | undefined;
    history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call?.id ?? "none", content: `output ${k}\n` + "log line of the build output\n".repeat(40) }] });
  }
  return out;
}

/** Claude Code's cache breakpoint on the newest message's last block. */
function withBreakpoint(m: Record<string, unknown>): Record<string, unknown> {
  const content = m.content as Record<string, unknown>[];
  return { ...m, content: content.map((b, i) => (i === content.length - 1 ? { ...b, cache_control: { type: "ephemeral" } } : b)) };
}

const compacted = (x: Exchange): boolean => x.raw.includes(SUMMARY_HEADER.slice(0, 20));

async function run(proxyFor: (k: number) => RunningProxy, o: Parameters<typeof session>[1]): Promise<{ sent: Sent[]; got: Exchange[] }> {
  const from = mock.exchanges.length;
  const sent = await session(proxyFor, o);
  return { sent, got: mock.exchanges.slice(from) };
}

describe("preserved thinking", () => {
  it("without the handling, the first compacted request is refused as bound to a different conversation", async () => {
    const p = await start(CFG, { preservedThinking: false, fallback: false });
    const { sent, got } = await run(() => p, { requests: 30, thinking: { type: "adaptive" } });
    await p.close();
    const first = got.findIndex(compacted);
    expect(first).toBeGreaterThan(0);
    expect(got[first].status).toBe(400);
    expect(sent[sent.length - 1].status).toBe(400);
    expect(sent[sent.length - 1].answer).toContain("bound to a different conversation");
  });

  for (const [name, thinking] of [["adaptive", { type: "adaptive" }], ["enabled", { type: "enabled", budget_tokens: 4000 }]] as const) {
    it(`with it (thinking ${name}), every request of a 3-cliff session is accepted; blocks drop only where a cliff is sent`, async () => {
      const p = await start();
      const { sent, got } = await run(() => p, { requests: 40, thinking, betas: ["interleaved-thinking-2025-05-14"] });
      const status = (await (await fetch(p.url + "/_cliff/status")).json()) as any;
      await p.close();
      expect(sent.every((s) => s.status === 200)).toBe(true);
      expect(got).toHaveLength(40);
      expect(status.cliffs).toBeGreaterThanOrEqual(3);
      let dropped = 0;
      for (let k = 0; k < got.length; k++) {
        const x = got[k];
        if (!compacted(x)) {
          // No cliff: the client's bytes and headers, untouched.
          expect(x.raw, `request ${k}`).toBe(sent[k].client);
          expect(x.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
          expect(x.dropped).toEqual([]);
          continue;
        }
        expect((x.body.thinking as any).type).toBe(name);
        expect((x.body.thinking as any).block_binding).toEqual({ prefix_mismatch_behavior: "drop_block" });
        if (name === "enabled") expect((x.body.thinking as any).budget_tokens).toBe(4000);
        expect(String(x.headers["anthropic-beta"]).split(",")).toEqual(["interleaved-thinking-2025-05-14", BETA]);
        dropped += x.dropped.length;
      }
      expect(dropped).toBeGreaterThan(0);
      expect(status.sessions[0].thinkingDropped).toBe(dropped);
    });
  }

  it("a client that set the field itself is respected, and its beta kept once: the refusal it chose falls back to its own request", async () => {
    const p = await start();
    const { sent, got } = await run(() => p, { requests: 24, thinking: { type: "adaptive", block_binding: { prefix_mismatch_behavior: "error" } }, betas: [BETA] });
    await p.close();
    const first = got.findIndex(compacted);
    expect(first).toBeGreaterThan(0);
    expect((got[first].body.thinking as any).block_binding).toEqual({ prefix_mismatch_behavior: "error" });
    expect(got[first].headers["anthropic-beta"]).toBe(BETA);
    expect(got[first].status).toBe(400);
    // The proxy's fallback: the client's own bytes, accepted.
    expect(got[first + 1].raw).toBe(sent[first].client);
    expect(got[first + 1].status).toBe(200);
    expect(sent.every((s) => s.status === 200)).toBe(true);
  });

  for (const [name, thinking] of [["disabled", { type: "disabled" }], ["absent", undefined]] as const) {
    it(`thinking ${name}: the proxy removes thinking blocks from the kept turns and adds no thinking object`, async () => {
      const p = await start();
      const { sent, got } = await run(() => p, { requests: 30, thinking });
      await p.close();
      expect(sent.every((s) => s.status === 200)).toBe(true);
      const cliffs = got.filter(compacted);
      expect(cliffs.length).toBeGreaterThan(2);
      for (const x of cliffs) {
        expect(x.body.thinking).toEqual(thinking);
        expect(x.headers["anthropic-beta"]).toBeUndefined();
        const msgs = x.body.messages as { content: unknown }[];
        const at = msgs.findIndex((m) => JSON.stringify(m.content).includes(SUMMARY_HEADER.slice(0, 20)));
        expect(JSON.stringify(msgs.slice(at + 1))).not.toContain('"type":"thinking"');
        expect(x.invalid).toEqual([]);
      }
    });
  }

  it("a model that does not run the check gets the client's body untouched but for the cliff", async () => {
    const p = await start();
    const { got } = await run(() => p, { requests: 24, model: "claude-sonnet-4-5", thinking: { type: "enabled", budget_tokens: 2048 } });
    await p.close();
    const cliffs = got.filter(compacted);
    expect(cliffs.length).toBeGreaterThan(0);
    for (const x of cliffs) {
      expect(x.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
      expect(x.headers["anthropic-beta"]).toBeUndefined();
    }
  });

  it("warm equals cold and two replicas send the same bytes", async () => {
    const one = await start();
    const a = await run(() => one, { requests: 30, thinking: { type: "adaptive" } });
    await one.close();
    const replicas = [await start(), await start()];
    const b = await run((k) => replicas[k % 2], { requests: 30, thinking: { type: "adaptive" } });
    for (const r of replicas) await r.close();
    expect(b.got.map((x) => x.raw)).toEqual(a.got.map((x) => x.raw));
    for (let k = 0; k < a.got.length; k++) {
      const cold = await start();
      const r = await fetch(cold.url + "/v1/messages", { method: "POST", headers: a.sent[k].headers, body: a.sent[k].client });
      await r.arrayBuffer();
      await cold.close();
      expect(mock.exchanges[mock.exchanges.length - 1].raw, `request ${k}`).toBe(a.got[k].raw);
    }
  });
});

/**
 * The proxy with the official SDKs as clients and a mock model API on 127.0.0.1 as the upstream:
 * streaming and not, for the three APIs; a session grown across the threshold; a context-length
 * refusal answered by one compacted retry; faults of ours forwarded untouched; the upstream down;
 * an oversize body; and no header ever in a log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import fc from "fast-check";
import { Engine, resolveConfig, SUMMARY_HEADER, type Config } from "../../core/index.js";
import { nodeSha256, startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { anthropicSession } from "../helpers/arbitraries.js";

const CFG: Config = resolveConfig({ profile: "reference", thresholdTokens: 2000, keepRecent: 1 });

/** A fetch that records what the SDK sent and what it got back. */
function recordingFetch() {
  const sent: string[] = [];
  const got: Buffer[] = [];
  const f = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(typeof init?.body === "string" ? init.body : "");
    const res = await fetch(url, init);
    got.push(Buffer.from(await res.clone().arrayBuffer()));
    return res;
  };
  return { sent, got, fetch: f as typeof fetch };
}

let mock: MockUpstream;
let proxy: RunningProxy;
const logs: string[] = [];

beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: CFG, port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l) });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

const last = () => mock.received[mock.received.length - 1];

describe("the three APIs through the proxy, streaming and not", () => {
  it("Anthropic Messages (with ?beta=true as Claude Code sends it)", async () => {
    const rec = recordingFetch();
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: proxy.url, fetch: rec.fetch });
    const plain = await client.messages.create({ model: "mock", max_tokens: 64, messages: [{ role: "user", content: "hello" }] });
    expect(plain.content[0]).toMatchObject({ type: "text", text: "mock answer to /v1/messages" });
    expect(last().body.toString()).toBe(rec.sent[0]);
    expect(String(last().headers["x-api-key"] ?? last().headers.authorization)).toContain("sk-ant-test");
    const stream = await client.messages.create({ model: "mock", max_tokens: 64, stream: true, messages: [{ role: "user", content: "hello" }] });
    let text = "";
    for await (const ev of stream) if (ev.type === "content_block_delta" && ev.delta.type === "text_delta") text += ev.delta.text;
    expect(text).toBe("mock answer to /v1/messages");
    expect(rec.got[1].equals(mock.answered[mock.answered.length - 1])).toBe(true);
    const beta = await fetch(proxy.url + "/v1/messages?beta=true", { method: "POST", headers: { "x-api-key": "k", "content-type": "application/json" }, body: '{"model":"m","messages":[{"role":"user","content":"x"}]}' });
    expect(beta.status).toBe(200);
    expect(last().path).toBe("/v1/messages?beta=true");
  });

  it("OpenAI Chat Completions", async () => {
    const rec = recordingFetch();
    const client = new OpenAI({ apiKey: "sk-test", baseURL: proxy.url + "/v1", fetch: rec.fetch });
    const plain = await client.chat.completions.create({ model: "mock", messages: [{ role: "user", content: "hello" }] });
    expect(plain.choices[0].message.content).toBe("mock answer to /v1/chat/completions");
    expect(last().body.toString()).toBe(rec.sent[0]);
    expect(last().headers.authorization).toBe("Bearer sk-test");
    const stream = await client.chat.completions.create({ model: "mock", stream: true, messages: [{ role: "user", content: "hello" }] });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
    expect(text).toBe("mock answer to /v1/chat/completions");
    expect(rec.got[1].equals(mock.answered[mock.answered.length - 1])).toBe(true);
  });

  it("OpenAI Responses", async () => {
    const rec = recordingFetch();
    const client = new OpenAI({ apiKey: "sk-test", baseURL: proxy.url + "/v1", fetch: rec.fetch });
    const plain = await client.responses.create({ model: "mock", input: [{ role: "user", content: "hello" }] });
    expect(plain.output_text).toBe("mock answer to /v1/responses");
    const stream = await client.responses.create({ model: "mock", stream: true, input: [{ role: "user", content: "hello" }] });
    let text = "";
    for await (const ev of stream) if (ev.type === "response.output_text.delta") text += ev.delta;
    expect(text).toBe("mock answer to /v1/responses");
    expect(rec.got[1].equals(mock.answered[mock.answered.length - 1])).toBe(true);
  });

  it("other paths go through untouched to the upstream their path or auth header belongs to", async () => {
    const count = await fetch(proxy.url + "/v1/messages/count_tokens", { method: "POST", headers: { "x-api-key": "k", "content-type": "application/json" }, body: '{"big": 12345678901234567890}' });
    expect(count.status).toBe(200);
    expect(last().body.toString()).toBe('{"big": 12345678901234567890}');
    const models = await fetch(proxy.url + "/v1/models", { headers: { authorization: "Bearer sk-x" } });
    expect(models.status).toBe(404);
    expect(last().path).toBe("/v1/models");
    expect(last().headers.authorization).toBe("Bearer sk-x");
  });
});

/** A tool-using Anthropic session, one more turn per request. */
function grownSession(turns: number): Anthropic.MessageParam[] {
  const msgs: Anthropic.MessageParam[] = [{ role: "user", content: "Fix the failing build in repo widgets." }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}: running the tests.` }, { type: "tool_use", id: `toolu_${i}`, name: "bash", input: { command: `npm test -- ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: i % 2 ? `ok ${i}` : `FAIL ${i}\n`.repeat(120) }] });
  }
  return msgs;
}

describe("a session grown across the threshold", () => {
  it("the upstream receives exactly what Engine.prepare sends, warm equals cold, and the client gets the upstream's bytes", async () => {
    const rec = recordingFetch();
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: proxy.url, fetch: rec.fetch });
    const reference = new Engine(CFG);
    let compacted = 0;
    for (let turns = 1; turns <= 24; turns++) {
      const before = mock.received.length;
      await client.messages.create({ model: "mock", max_tokens: 64, messages: grownSession(turns) });
      const sent = rec.sent[rec.sent.length - 1];
      const warm = reference.prepare(JSON.parse(sent), "anthropic");
      const cold = new Engine(CFG).prepare(JSON.parse(sent), "anthropic");
      const expected = warm.modified ? JSON.stringify(warm.outgoingBody()) : sent;
      expect(JSON.stringify(cold.outgoingBody())).toBe(JSON.stringify(warm.outgoingBody()));
      expect(mock.received[before].body.toString()).toBe(expected);
      expect(rec.got[rec.got.length - 1].equals(mock.answered[before])).toBe(true);
      if (warm.modified) {
        compacted++;
        expect(expected).toContain(SUMMARY_HEADER);
      }
    }
    expect(compacted).toBeGreaterThan(5);
    expect(proxy.stats.cliffs + proxy.stats.reuses).toBeGreaterThan(5);
  });
});

describe("faults", () => {
  it("a context-length refusal is answered by one compacted retry", async () => {
    const p = await startProxy({ config: resolveConfig({ thresholdTokens: 100_000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url } });
    const limit = 4000;
    mock.override = (r) => (r.body.length > limit ? { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" } }) } : undefined);
    try {
      const before = mock.received.length;
      const client = new Anthropic({ apiKey: "k", baseURL: p.url, maxRetries: 0 });
      const answer = await client.messages.create({ model: "mock", max_tokens: 64, messages: grownSession(12) });
      expect(answer.content[0]).toMatchObject({ text: "mock answer to /v1/messages" });
      const seen = mock.received.slice(before);
      expect(seen).toHaveLength(2);
      expect(seen[1].body.length).toBeLessThanOrEqual(limit);
      expect(seen[1].body.toString()).toContain(SUMMARY_HEADER);
      expect(p.stats.escalations).toBe(1);
      // Any other error passes through unchanged.
      mock.override = () => ({ status: 400, headers: { "content-type": "application/json" }, body: '{"type":"error","error":{"type":"invalid_request_error","message":"bad model"}}' });
      const raw = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: grownSession(2) }) });
      expect(raw.status).toBe(400);
      expect(await raw.text()).toBe('{"type":"error","error":{"type":"invalid_request_error","message":"bad model"}}');
    } finally {
      mock.override = undefined;
      await p.close();
    }
  });

  it("an engine fault and an unparseable body are forwarded byte for byte", async () => {
    const body = JSON.stringify({ model: "m", messages: grownSession(30) });
    const prepare = proxy.engine.prepare;
    proxy.engine.prepare = () => {
      throw new Error("boom");
    };
    try {
      const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(r.status).toBe(200);
      expect(last().body.toString()).toBe(body);
    } finally {
      proxy.engine.prepare = prepare;
    }
    const broken = '{"model":"m","messages":[{"role":"user","content":"x"}';
    const r2 = await fetch(proxy.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: broken });
    expect(r2.status).toBe(200);
    expect(last().body.toString()).toBe(broken);
    // Each fail-open line says why, and that the request went as received.
    expect(logs.some((l) => / fail-open: could not be decided \(Error: boom\), sent as received /.test(l))).toBe(true);
    expect(logs.some((l) => / fail-open: the body is not valid JSON, sent as received /.test(l))).toBe(true);
  });

  it("upstream down: 502 with a one-line JSON error naming the upstream", async () => {
    const p = await startProxy({ port: 0, upstreams: { anthropic: "http://127.0.0.1:9", openai: "http://127.0.0.1:9" } });
    try {
      const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: '{"model":"m","messages":[{"role":"user","content":"x"}]}' });
      expect(r.status).toBe(502);
      const text = await r.text();
      expect(text.trim().split("\n")).toHaveLength(1);
      expect(JSON.parse(text).error.message).toMatch(/cannot reach the upstream http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)/);
    } finally {
      await p.close();
    }
  });

  it("a body over the compaction limit streams through uncompacted", async () => {
    const p = await startProxy({ config: CFG, port: 0, compactLimitBytes: 10_000, upstreams: { anthropic: mock.url, openai: mock.url } });
    try {
      const body = JSON.stringify({ model: "m", messages: grownSession(40) });
      expect(body.length).toBeGreaterThan(10_000);
      const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(r.status).toBe(200);
      expect(last().body.toString()).toBe(body);
      expect(p.stats.oversize).toBe(1);
    } finally {
      await p.close();
    }
  });

  it("headers and bodies never reach the log or the status", async () => {
    const marker = "MARKER-7f3a9c";
    await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": marker, "anthropic-beta": marker }, body: JSON.stringify({ model: marker, messages: grownSession(20) }) });
    const status = await (await fetch(proxy.url + "/_cliff/status")).text();
    expect(logs.length).toBeGreaterThan(0);
    for (const line of [...logs, status]) expect(line).not.toContain(marker);
    expect(JSON.parse(status).requests).toBeGreaterThan(10);
  });

  it("a WebSocket upgrade attempt gets the upstream's own answer", async () => {
    const r = await new Promise<string>((resolve) => {
      import("node:net").then(({ connect }) => {
        const s = connect(proxy.port, "127.0.0.1", () => s.write("GET /v1/realtime HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\nauthorization: Bearer k\r\n\r\n"));
        let got = "";
        s.on("data", (d) => (got += d.toString()));
        s.on("close", () => resolve(got));
        s.on("end", () => resolve(got));
      });
    });
    expect(r).toMatch(/^HTTP\/1\.1 404/);
    expect(last().path).toBe("/v1/realtime");
  });
});

describe("native hashing", () => {
  it("node:crypto SHA-256 gives the same digests, chains and bodies as the core's own", () => {
    fc.assert(
      fc.property(anthropicSession, fc.integer({ min: 50, max: 800 }), (msgs, threshold) => {
        const cfg = { thresholdTokens: threshold, keepRecent: 1 };
        const mine = new Engine(cfg);
        const native = new Engine(cfg, { sha256: nodeSha256 });
        for (let n = 2; n <= msgs.length; n++) {
          const body = { model: "m", messages: msgs.slice(0, n) };
          const a = mine.prepare(body, "anthropic");
          const b = native.prepare(body, "anthropic");
          expect(JSON.stringify(b.outgoingBody())).toBe(JSON.stringify(a.outgoingBody()));
          expect(b.summaryFp).toBe(a.summaryFp);
        }
        for (const m of msgs) expect(native.digest(m, "anthropic")).toBe(mine.digest(m, "anthropic"));
      }),
      { numRuns: 200 },
    );
  });
});

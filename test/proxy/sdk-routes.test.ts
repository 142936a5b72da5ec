/**
 * The official SDKs through the proxy on every route form a base URL gives (none, /v1, /openai/v1,
 * /backend-api/codex): each long history is compacted and reaches the upstream its route names;
 * and a Codex-shaped Responses request on /backend-api/codex/responses goes to the ChatGPT
 * upstream, compacted, with every header Codex sends.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

let anthropic: MockUpstream;
let openai: MockUpstream;
let chatgpt: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  [anthropic, openai, chatgpt] = await Promise.all([mockUpstream(), mockUpstream(), mockUpstream()]);
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: anthropic.url, openai: openai.url + "/v1", chatgpt: chatgpt.url } });
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([anthropic.close(), openai.close(), chatgpt.close()]);
});

const LONG = (i: number) => `FAIL test ${i}\n`.repeat(150);
const chat = (): OpenAI.ChatCompletionMessageParam[] => {
  const m: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Fix the failing tests." }];
  for (let i = 0; i < 8; i++) {
    m.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ cmd: `npm test ${i}` }) } }] });
    m.push({ role: "tool", tool_call_id: `c${i}`, content: LONG(i) });
  }
  return m;
};
const responsesInput = (): OpenAI.Responses.ResponseInputItem[] => {
  const m: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: "Fix the failing tests." }];
  for (let i = 0; i < 8; i++) {
    m.push({ type: "function_call", call_id: `c${i}`, name: "shell", arguments: JSON.stringify({ command: ["npm", "test", String(i)] }) });
    m.push({ type: "function_call_output", call_id: `c${i}`, output: LONG(i) });
  }
  return m;
};
const messages = (): Anthropic.MessageParam[] => {
  const m: Anthropic.MessageParam[] = [{ role: "user", content: "Fix the failing tests." }];
  for (let i = 0; i < 8; i++) {
    m.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: `npm test ${i}` } }] });
    m.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: LONG(i) }] });
  }
  return m;
};

function compactedAt(mock: MockUpstream, before: number, path: string): void {
  expect(mock.received.length).toBe(before + 1);
  const r = mock.received[before];
  expect(r.path).toBe(path);
  expect(r.body.toString()).toContain(SUMMARY_HEADER);
}

describe("the OpenAI SDK on every base URL form", () => {
  const forms: [string, string, string][] = [
    ["none", "", "/v1"],
    ["/v1", "/v1", "/v1"],
    ["/openai/v1", "/openai/v1", "/v1/openai/v1"],
  ];
  for (const [name, suffix, upstreamPrefix] of forms) {
    it(`base URL with ${name}: Chat Completions and Responses compacted, sent to the OpenAI upstream`, async () => {
      const client = new OpenAI({ apiKey: "sk-test", baseURL: proxy.url + suffix, maxRetries: 0 });
      let before = openai.received.length;
      const c = await client.chat.completions.create({ model: "gpt-4.1", messages: chat() });
      expect(c.choices[0].message.content).toMatch(/^mock answer to /);
      compactedAt(openai, before, `${upstreamPrefix}/chat/completions`);
      before = openai.received.length;
      const r = await client.responses.create({ model: "gpt-5", input: responsesInput() });
      expect(r.output_text).toMatch(/^mock answer to /);
      compactedAt(openai, before, `${upstreamPrefix}/responses`);
      expect(anthropic.received.length + chatgpt.received.length).toBe(0);
    });
  }

  it("base URL /backend-api/codex: Responses compacted and sent to the ChatGPT upstream", async () => {
    const client = new OpenAI({ apiKey: "eyJhbGciOiJub25lIn0.e30.", baseURL: proxy.url + "/backend-api/codex", maxRetries: 0 });
    const before = chatgpt.received.length;
    const stream = await client.responses.create({ model: "gpt-5-codex", stream: true, input: responsesInput() });
    let text = "";
    for await (const ev of stream) if (ev.type === "response.output_text.delta") text += ev.delta;
    expect(text).toBe("mock answer to /backend-api/codex/responses");
    compactedAt(chatgpt, before, "/backend-api/codex/responses");
  });
});

describe("the Anthropic SDK", () => {
  it("with an API key and with a subscription's OAuth token: compacted, sent to the Anthropic upstream", async () => {
    for (const auth of [{ apiKey: "sk-ant-api03-x" }, { apiKey: null, authToken: "sk-ant-oat01-x", defaultHeaders: { "anthropic-beta": "oauth-2025-04-20" } }]) {
      const client = new Anthropic({ ...auth, baseURL: proxy.url, maxRetries: 0 });
      const before = anthropic.received.length;
      // A model the SDK does not list as deprecated: one it does makes it warn on standard error at every call.
      const m = await client.messages.create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: messages() });
      expect(m.content[0]).toMatchObject({ type: "text" });
      compactedAt(anthropic, before, "/v1/messages");
      const got = anthropic.received[before].headers;
      // (This SDK sends an API key as a bearer token too.)
      expect(String(got["x-api-key"] ?? got.authorization)).toContain("authToken" in auth ? "sk-ant-oat01-x" : "sk-ant-api03-x");
      // count_tokens on the same client passes through untouched.
      const t = await fetch(proxy.url + "/v1/messages/count_tokens", { method: "POST", headers: { authorization: "Bearer sk-ant-oat01-x", "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: messages() }) });
      expect(t.status).toBe(200);
      expect(anthropic.received.at(-1)!.body.toString()).toBe(JSON.stringify({ model: "m", messages: messages() }));
    }
  });
});

describe("Codex signed in with ChatGPT", () => {
  it("a Responses body on /backend-api/codex/responses: compacted, to the ChatGPT upstream, with every header", async () => {
    const headers: Record<string, string> = {
      authorization: "Bearer eyJhbGciOiJub25lIn0.eyJodHRwczovL2FwaS5vcGVuYWkuY29tL2F1dGgiOnt9fQ.",
      "chatgpt-account-id": "acct-1234",
      originator: "codex_cli_rs",
      "openai-beta": "responses=experimental",
      session_id: "0199a1b2-0000-7000-8000-000000000001",
      conversation_id: "0199a1b2-0000-7000-8000-000000000001",
      version: "0.58.0",
      "user-agent": "codex_cli_rs/0.58.0 (Linux; x86_64) xterm",
      accept: "text/event-stream",
      "x-codex-beta-features": "unified_exec",
      "content-type": "application/json",
    };
    const body = { model: "gpt-5-codex", instructions: "You are Codex.", input: responsesInput(), tools: [], tool_choice: "auto", parallel_tool_calls: false, reasoning: { effort: "medium", summary: "auto" }, store: false, stream: true, include: ["reasoning.encrypted_content"], prompt_cache_key: "0199a1b2" };
    const before = chatgpt.received.length;
    const others = openai.received.length + anthropic.received.length;
    const r = await fetch(proxy.url + "/backend-api/codex/responses", { method: "POST", headers, body: JSON.stringify(body) });
    expect(r.status).toBe(200);
    await r.text();
    compactedAt(chatgpt, before, "/backend-api/codex/responses");
    const got = chatgpt.received[before];
    for (const [k, v] of Object.entries(headers)) expect(got.headers[k], k).toBe(v);
    const sent = JSON.parse(got.body.toString());
    expect(sent.input.length).toBeLessThan(body.input.length);
    for (const k of ["instructions", "store", "stream", "include", "prompt_cache_key", "reasoning"]) expect(sent[k]).toEqual(body[k as keyof typeof body]);
    expect(openai.received.length + anthropic.received.length).toBe(others);
    // Its own summarisation call passes through, counted.
    const compacts = proxy.stats.remoteSummaries;
    await (await fetch(proxy.url + "/backend-api/codex/responses/compact", { method: "POST", headers, body: JSON.stringify({ model: "gpt-5-codex", input: responsesInput() }) })).text();
    expect(chatgpt.received.at(-1)!.path).toBe("/backend-api/codex/responses/compact");
    expect(chatgpt.received.at(-1)!.body.toString()).toBe(JSON.stringify({ model: "gpt-5-codex", input: responsesInput() }));
    expect(proxy.stats.remoteSummaries).toBe(compacts + 1);
  });
});

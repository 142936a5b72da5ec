/**
 * `--answer-compaction` through `serve`: a client's own compaction request (Claude Code's summary
 * request, Codex's compaction turn) is answered by the proxy in its API's shape, streamed or not,
 * read by the official SDKs, with the cliff's summary of that history; the upstream is never asked,
 * no output tokens are billed, and the log, status, session, metrics and events name it `answered`
 * with the tokens the summary call would have sent. Requests that ask the provider to compact pass
 * untouched; with the switch off, client summary requests do too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { Engine, resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { compactionAnswerText, isOpenAIHost, OWN_COMPACTION } from "../../proxy/decision/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import {
  anthropicCompactionRequest, claudeCodeSummaryRequest, codexCompactionTurn, codexTurnMetadata, compactionTriggerRequest,
} from "../helpers/compaction-requests.js";

let mock: MockUpstream;
let on: RunningProxy;
let off: RunningProxy;
const logs: string[] = [];
const CONFIG = { thresholdTokens: 2000, keepRecent: 1 };
const TOKEN = "answer-compaction-test-token-0123456789";

beforeAll(async () => {
  mock = await mockUpstream();
  const upstreams = { anthropic: mock.url, openai: mock.url + "/v1", chatgpt: mock.url };
  // The mock runs no remote compaction: the user says so (an upstream is taken as OpenAI's otherwise).
  on = await startProxy({ config: resolveConfig(CONFIG), port: 0, upstreams, log: (l) => logs.push(l), answerCompaction: true, remoteCompaction: false, adminToken: TOKEN });
  off = await startProxy({ config: resolveConfig(CONFIG), port: 0, upstreams, log: () => undefined });
});
afterAll(async () => {
  await on.close();
  await off.close();
  await mock.close();
});

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 30));
const anthropicClient = (p: RunningProxy, headers: Record<string, string> = {}): Anthropic => new Anthropic({ apiKey: "sk-ant-test", baseURL: p.url, maxRetries: 0, defaultHeaders: { "x-claude-code-session-id": "answer-cc", ...headers } });
const openaiClient = (p: RunningProxy, base = "/v1", headers: Record<string, string> = {}): OpenAI => new OpenAI({ apiKey: "sk-test", baseURL: p.url + base, maxRetries: 0, defaultHeaders: headers });

describe("answered by the proxy", () => {
  it("Claude Code's summary request, streamed: the SDK reads one text holding a <summary> block of the cliff's summary, the task first; nothing reaches the upstream", async () => {
    const from = mock.received.length;
    const lines = logs.length;
    const body = claudeCodeSummaryRequest(12) as any;
    const stream = anthropicClient(on).messages.stream({ ...body, stream: undefined });
    const message = await stream.finalMessage();
    await settle();
    expect(mock.received.length).toBe(from);
    expect(message.role).toBe("assistant");
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.output_tokens).toBe(0);
    const text = (message.content[0] as { text: string }).text;
    expect(text.startsWith("<summary>\nThe task, as the user gave it:\nFix the failing test in repo X.")).toBe(true);
    expect(text).toContain(SUMMARY_HEADER);
    expect(text).toContain("pytest tests/test_11.py");
    expect(text.endsWith("</summary>")).toBe(true);
    // The instruction itself is not summarised.
    expect(text).not.toContain("Respond with TEXT ONLY");
    const line = logs.slice(lines).join("\n");
    expect(line).toMatch(/anthropic \d+→0 msgs [\d,]+→0 tok answered \(a compaction request: claude-code\)/);
  });

  it("Claude Code's summary request, not streamed: one JSON message", async () => {
    const from = mock.received.length;
    const body = claudeCodeSummaryRequest(12) as any;
    const message = await anthropicClient(on).messages.create({ ...body, stream: false });
    await settle();
    expect(mock.received.length).toBe(from);
    expect((message.content[0] as { text: string }).text).toContain(SUMMARY_HEADER);
    expect(message.usage).toMatchObject({ input_tokens: 0, output_tokens: 0 });
  });

  for (const stream of [true, false]) {
    it(`Codex's compaction turn (${stream ? "streamed" : "not streamed"}), by its turn metadata: the Responses SDK reads the summary as output_text`, async () => {
      const from = mock.received.length;
      const body = codexCompactionTurn(12, "Summarise, my way.") as any;
      const client = openaiClient(on, "/v1", codexTurnMetadata("compaction"));
      let text: string;
      if (stream) {
        const events: string[] = [];
        const s = await client.responses.create({ ...body, stream: true });
        let final: any = null;
        for await (const e of s as any) {
          events.push(e.type);
          if (e.type === "response.completed") final = e.response;
        }
        expect(events).toEqual(["response.created", "response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"]);
        text = final.output[0].content[0].text;
        expect(final.usage.output_tokens).toBe(0);
      } else {
        const r = await client.responses.create({ ...body, stream: false });
        text = r.output_text;
        expect(r.usage?.output_tokens).toBe(0);
      }
      await settle();
      expect(mock.received.length).toBe(from);
      expect(text.startsWith(SUMMARY_HEADER)).toBe(true);
      expect(text).toContain("pytest tests/test_11.py");
      expect(text).not.toContain("Summarise, my way.");
    });
  }

  it("Codex's compaction turn on the ChatGPT backend's path, by its prompt alone", async () => {
    const from = mock.received.length;
    const r = await openaiClient(on, "/backend-api/codex").responses.create({ ...(codexCompactionTurn(12) as any), stream: false });
    await settle();
    expect(mock.received.length).toBe(from);
    expect(r.output_text.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(r.output_text).not.toContain("CONTEXT CHECKPOINT");
  });

  it("status, the session, metrics and events count each answered request with the tokens the summary call would have sent", async () => {
    const events = await fetch(on.url + "/_cliff/events", { headers: { authorization: `Bearer ${TOKEN}` } });
    const reader = events.body!.getReader();
    const body = JSON.stringify(claudeCodeSummaryRequest(14));
    const before = (await (await fetch(on.url + "/_cliff/status")).json()) as any;
    await fetch(on.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": "answer-status" }, body }).then((r) => r.text());
    await settle();
    const status = (await (await fetch(on.url + "/_cliff/status")).json()) as any;
    expect(status.answered).toBe(before.answered + 1);
    expect(status.answeredTokens - before.answeredTokens).toBeGreaterThan(body.length / 5);
    expect(status.sessions.find((s: any) => s.answered > 0)).toBeDefined();
    const metrics = await (await fetch(on.url + "/_cliff/metrics")).text();
    expect(metrics).toMatch(/cliffcompaction_compactions_answered_total\{api="anthropic"\} [3-9]/);
    expect(metrics).toMatch(/cliffcompaction_compactions_answered_tokens_total\{api="anthropic"\} [1-9]\d{3,}/);
    let seen = "";
    const deadline = Date.now() + 2000;
    while (!seen.includes('"action":"answered"') && Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<{ value: undefined }>((r) => setTimeout(() => r({ value: undefined }), 300))]);
      if (chunk.value !== undefined) seen += new TextDecoder().decode(chunk.value);
    }
    await reader.cancel();
    expect(seen).toContain('"action":"answered"');
  });
});

describe("a compaction_trigger bound for an upstream the user says cannot run remote compaction (Codex remote compaction v2)", () => {
  for (const stream of [true, false]) {
    it(`answered (${stream ? "streamed" : "not streamed"}) with exactly one compaction item of ours; sent back later, the upstream gets its summary as a user message`, async () => {
      const from = mock.received.length;
      const body = { ...compactionTriggerRequest(12), stream } as any;
      const r = await fetch(on.url + "/v1/responses", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k", ...codexTurnMetadata("compaction") }, body: JSON.stringify(body) });
      const answer = await r.text();
      await settle();
      expect(mock.received.length).toBe(from);
      let output: any[];
      if (stream) {
        const events = answer.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
        expect(events.map((e) => e.type)).toEqual(["response.created", "response.output_item.added", "response.output_item.done", "response.completed"]);
        output = events[events.length - 1].response.output;
      } else output = JSON.parse(answer).output;
      expect(output.length).toBe(1);
      expect(output[0].type).toBe("compaction");
      expect(typeof output[0].encrypted_content).toBe("string");
      // Codex keeps the item and sends it back after the history it kept: the upstream reads the summary.
      const later = { model: "gpt-5.6-sol", input: [body.input[0], { type: "compaction", id: output[0].id, encrypted_content: output[0].encrypted_content }, { type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] }] };
      const again = await fetch(on.url + "/v1/responses", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify(later) });
      await again.text();
      await settle();
      expect(mock.received.length).toBe(from + 1);
      const got = JSON.parse(mock.received[from].body.toString("utf8"));
      expect(got.input.length).toBe(3);
      expect(got.input[1].role).toBe("user");
      expect(got.input[1].content[0].text.startsWith(SUMMARY_HEADER)).toBe(true);
      expect(got.input[1].content[0].text).toContain("pytest tests/test_11.py");
      expect(mock.received[from].body.toString("utf8")).not.toContain(OWN_COMPACTION);
    });
  }

  it("bound for OpenAI's own API or ChatGPT's backend it is left to the provider", () => {
    for (const u of ["https://api.openai.com/v1", "https://chatgpt.com/backend-api", "https://eu.api.openai.com"]) expect(isOpenAIHost(new URL(u))).toBe(true);
    for (const u of ["http://127.0.0.1:8080/v1", "https://openai.com.example.net", "https://my-gateway.internal/openai"]) expect(isOpenAIHost(new URL(u))).toBe(false);
    const prepared = new Engine({ thresholdTokens: 2000 }).prepare(compactionTriggerRequest(12), "openai-responses");
    expect(compactionAnswerText(prepared, resolveConfig(CONFIG), true)).toBeNull();
    expect(compactionAnswerText(prepared, resolveConfig(CONFIG), false)).toContain(SUMMARY_HEADER);
  });
});

describe("passed untouched, never cliffed", () => {
  it("Anthropic's compaction field, even with answering on (only the provider can sign its block)", async () => {
    for (const [path, body] of [["/v1/messages", anthropicCompactionRequest(12)]] as const) {
      const from = mock.received.length;
      const sent = JSON.stringify(body);
      const auth: Record<string, string> = path.endsWith("messages") ? { "x-api-key": "k" } : { authorization: "Bearer k" };
      const r = await fetch(on.url + path, { method: "POST", headers: { "content-type": "application/json", ...auth }, body: sent });
      await r.text();
      await settle();
      expect(mock.received.length).toBe(from + 1);
      expect(mock.received[from].body.toString("utf8")).toBe(sent);
    }
  });

  it("with answering off (serve's default), a client's summary request goes to the model as it came", async () => {
    const from = mock.received.length;
    const body = claudeCodeSummaryRequest(12);
    const r = await fetch(off.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify(body) });
    expect(await r.text()).toContain("mock");
    await settle();
    expect(mock.received.length).toBe(from + 1);
    expect(mock.received[from].body.toString("utf8")).toBe(JSON.stringify(body));
  });
});

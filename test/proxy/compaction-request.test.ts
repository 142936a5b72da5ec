/**
 * Through `serve`: a request that asks for a compaction reaches the upstream byte for byte, over
 * the threshold, and its log line names it; the same history without the ask is cliffed. Codex's
 * compaction turn is told by its turn metadata header too, whatever its prompt says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { aSession } from "../helpers/sessions.js";
import {
  anthropicCompactionRequest, claudeCodeSummaryRequest, codexCompactionTurn, codexTurnMetadata, compactionTriggerRequest, responsesHistory,
} from "../helpers/compaction-requests.js";

let mock: MockUpstream;
let proxy: RunningProxy;
const logs: string[] = [];

beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l) });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

async function send(path: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ sent: string; received: string; status: number; log: string }> {
  const sent = JSON.stringify(body);
  const from = mock.received.length;
  const lines = logs.length;
  const auth: Record<string, string> = path.endsWith("/messages") ? { "x-api-key": "k" } : { authorization: "Bearer k" };
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", ...auth, ...headers }, body: sent });
  await r.text();
  await new Promise((done) => setTimeout(done, 20));
  expect(mock.received.length).toBe(from + 1);
  return { sent, received: mock.received[from].body.toString("utf8"), status: r.status, log: logs.slice(lines).join("\n") };
}

describe("a compaction request through serve goes to the upstream as it came", () => {
  const cases: [string, string, Record<string, unknown>, Record<string, string>, string][] = [
    ["Claude Code's summary request", "/v1/messages", claudeCodeSummaryRequest(12), {}, "claude-code"],
    ["Anthropic's compaction field", "/v1/messages", anthropicCompactionRequest(12), { "anthropic-beta": "compact-2026-09-04" }, "anthropic-compaction"],
    ["Codex's compaction turn (its prompt and its header)", "/v1/responses", codexCompactionTurn(12), codexTurnMetadata("compaction"), "codex"],
    ["Codex's compaction turn with a prompt of the user's own (its header alone)", "/v1/responses", codexCompactionTurn(12, "Summarise, my way."), codexTurnMetadata("compaction"), "codex"],
    ["a compaction_trigger", "/v1/responses", compactionTriggerRequest(12), {}, "compaction-trigger"],
  ];
  for (const [name, path, body, headers, by] of cases) {
    it(name, async () => {
      const r = await send(path, body, headers);
      expect(r.status).toBe(200);
      expect(r.received).toBe(r.sent);
      expect(r.log).toContain(`pass (a compaction request: ${by})`);
    });
  }

  it("the same histories without the ask are cliffed (so each case above could fail)", async () => {
    const anthropic = await send("/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 64, messages: aSession(12) });
    expect(anthropic.received).toContain(SUMMARY_HEADER);
    const responses = await send("/v1/responses", { model: "gpt-5.6-sol", input: [...responsesHistory(12), { type: "message", role: "user", content: [{ type: "input_text", text: "Summarise, my way." }] }] }, codexTurnMetadata("turn"));
    expect(responses.received).toContain(SUMMARY_HEADER);
    expect(responses.log).not.toContain("a compaction request");
  });
});

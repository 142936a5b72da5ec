/**
 * Sessions for the web view's tests: a proxy on 127.0.0.1 in front of a mock upstream that reports
 * usage, and agent turns that grow until they cross the threshold, optionally carrying hostile
 * text (markup, a script, a javascript: URL) in every message so it lands in the last cliff.
 */
import { resolveConfig } from "../../core/index.js";
import { startProxy, type ProxyOptions, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type Answer, type MockUpstream } from "./mock-upstream.js";

/** The admin token of every test proxy here: sent as a bearer by `get`, exchanged for the cookie by a browser. */
export const TOKEN = "web-view-test-token";

export const HOSTILE = `<script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> javascript:alert(1)`;

function usageAnswer(): Answer {
  const u = { input_tokens: 120, cache_read_input_tokens: 3000, cache_creation_input_tokens: 400, output_tokens: 50 };
  const events = [
    { type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { ...u, output_tokens: 1 } } },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: u.output_tokens } },
    { type: "message_stop" },
  ];
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("") };
}

export interface WebRig {
  proxy: RunningProxy;
  mock: MockUpstream;
  close(): Promise<void>;
}

export async function webRig(extra: Partial<ProxyOptions> = {}): Promise<WebRig> {
  const mock = await mockUpstream();
  mock.override = (r) => (r.path.startsWith("/v1/messages") ? usageAnswer() : undefined);
  const proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined, keepAliveMs: 200, adminToken: TOKEN, ...extra });
  return { proxy, mock, close: async () => { await proxy.close(); await mock.close(); } };
}

/** An agent's history after `turns` tool steps, each message holding `text`. */
export function history(turns: number, text = ""): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: `Fix the failing build in repo widgets. ${text}` }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i} ${text}` }, { type: "tool_use", id: `toolu_${i}`, name: "bash", input: { command: `npm test -- ${i} ${text}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: i % 2 ? `ok ${i} ${text}` : `FAIL ${i} ${text}\n`.repeat(120) }] });
  }
  return msgs;
}

/** One request of session `id` with `turns` tool steps behind it. */
export async function turn(proxy: RunningProxy, id: string, turns: number, text = ""): Promise<void> {
  const r = await fetch(proxy.url + "/v1/messages", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": id },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: history(turns, text) }),
  });
  await r.arrayBuffer();
}

/** Requests of session `id` from `from` to `to` tool steps. */
export async function grow(proxy: RunningProxy, id: string, from: number, to: number, text = ""): Promise<void> {
  for (let t = from; t <= to; t++) await turn(proxy, id, t, text);
}

/** GET a proxy path as its user does (the token as a bearer). */
export const get = (proxy: RunningProxy, path: string, init: RequestInit = {}): Promise<Response> =>
  fetch(proxy.url + path, { ...init, headers: { authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string> | undefined) } });

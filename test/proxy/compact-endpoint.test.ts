/**
 * `POST /_cliff/v1/compact`, the transform endpoint for a gateway's hook: for each API, every
 * request of a session gives the body and headers the proxy itself sends upstream for it (as the
 * mock upstream received them), warm and cold, with cliffs, reuses and passes among them; a body
 * over the size limit passes with its own bytes; the refusals; the token rule; the calls counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicSession, inDialect } from "../../bench/sessions.js";
import { resolveConfig, type Config } from "../../core/index.js";
import { startProxy, type ProxyOptions, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream, type Received } from "../helpers/mock-upstream.js";
import { THINKING_BINDING_BETA } from "../../proxy/decision/index.js";

const TOKEN = "endpoint-test-token";
const CFG: Partial<Config> = { thresholdTokens: 3000, keepRecent: 2, minGainTokens: 300 };
const APIS = [
  // A model that runs preserved thinking's prefix check, with thinking on: a changed request gets the binding and its beta.
  { api: "anthropic", path: "/v1/messages", body: (m: unknown[]) => ({ model: "claude-sonnet-5-5", max_tokens: 64, thinking: { type: "enabled", budget_tokens: 1024 }, system: "You are a coding agent.", messages: m }) },
  { api: "openai-chat", path: "/v1/chat/completions", body: (m: unknown[]) => ({ model: "gpt-5", messages: [{ role: "system", content: "You are a coding agent." }, ...m] }) },
  { api: "openai-responses", path: "/v1/responses", body: (m: unknown[]) => ({ model: "gpt-5", instructions: "You are a coding agent.", input: m }) },
] as const;
const CLIENT_HEADERS: Record<string, Record<string, string>> = {
  anthropic: { "x-api-key": "k", "anthropic-version": "2023-06-01", "anthropic-beta": "interleaved-thinking-2025-05-14" },
  "openai-chat": { authorization: "Bearer sk-test", "openai-organization": "org-1" },
  "openai-responses": { authorization: "Bearer sk-test" },
};

let mock: MockUpstream;
const proxies: RunningProxy[] = [];
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await mock.close();
});

async function proxy(cfg: Partial<Config> = CFG, more: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  // A gateway cannot answer a recall, so the endpoint never offers the tool: compared with a proxy that does not either.
  const p = await startProxy({ config: resolveConfig({ recallTool: false, ...cfg }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1", gemini: mock.url, codeassist: mock.url }, adminToken: TOKEN, ...more });
  proxies.push(p);
  return p;
}

interface Answer {
  status: number;
  json: any;
  text: string;
}

async function compact(p: RunningProxy, call: unknown, token: string | null = TOKEN): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(token === null ? {} : { authorization: `Bearer ${token}` }) };
  const res = await fetch(p.url + "/_cliff/v1/compact", { method: "POST", headers, body: typeof call === "string" ? call : JSON.stringify(call) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the assertions say so
  }
  return { status: res.status, json, text };
}

/** What the proxy sends upstream for one request, as the mock upstream received it. */
async function through(p: RunningProxy, path: string, body: string, headers: Record<string, string>): Promise<Received> {
  const from = mock.received.length;
  const res = await fetch(p.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  const got = mock.received.slice(from);
  expect(got).toHaveLength(1);
  return got[0];
}

/** A session's requests in the API's shape: the history up to each user turn (or tool result). */
function requests(api: (typeof APIS)[number]): string[] {
  const history = inDialect(anthropicSession(40_000, 5), api.api);
  const out: string[] = [];
  for (let n = 1; n <= history.length; n++) {
    const last = history[n - 1] as { role?: string; type?: string };
    if (last.role === "user" || last.role === "tool" || last.type === "function_call_output") out.push(JSON.stringify(api.body(history.slice(0, n))));
  }
  return out;
}

/** The endpoint's answer applied as a gateway applies it: its body, its headers over the client's. */
function expectSame(answer: Answer, sent: Received, clientHeaders: Record<string, string>, what: string): void {
  expect(answer.status, answer.text).toBe(200);
  expect(Buffer.from(answer.json.body, "utf8").equals(sent.body), `${what}: the endpoint's body is the bytes the proxy sent`).toBe(true);
  const merged: Record<string, string> = { ...clientHeaders, ...answer.json.headers };
  for (const [k, v] of Object.entries(merged)) expect(sent.headers[k], `${what}: header ${k}`).toBe(v);
  for (const k of Object.keys(sent.headers)) if (!(k in merged)) expect(k, `${what}: a header the proxy set and the endpoint did not name`).toMatch(/^(host|content-length|content-type|connection|accept|accept-encoding|accept-language|user-agent|sec-fetch-mode)$/);
}

describe("POST /_cliff/v1/compact", () => {
  for (const api of APIS) {
    it(`${api.api}: every request of a session gives the bytes and headers the proxy sends, warm and cold, with cliffs, reuses and passes`, async () => {
      const [endpoint, sender] = [await proxy(), await proxy()];
      const headers = CLIENT_HEADERS[api.api];
      const actions = new Map<string, number>();
      const list = requests(api);
      expect(list.length).toBeGreaterThan(10);
      for (const [k, body] of list.entries()) {
        const sent = await through(sender, api.path, body, headers);
        const warm = await compact(endpoint, { api: api.api, body, headers });
        expectSame(warm, sent, headers, `request ${k}`);
        // The proxy that forwarded it, asked afterwards: the same answer from a store its own traffic warmed.
        expectSame(await compact(sender, { api: api.api, body, headers }), sent, headers, `request ${k}, the sender`);
        const v = warm.json.verdict;
        expect(v.tokensAfter).toBeLessThanOrEqual(v.tokensBefore);
        expect(v.action === "pass", `request ${k}: a pass is the client's bytes`).toBe(warm.json.body === body);
        if (api.api === "anthropic") expect(warm.json.headers).toEqual(v.action === "pass" ? {} : { "anthropic-beta": `interleaved-thinking-2025-05-14,${THINKING_BINDING_BETA}` });
        actions.set(v.action, (actions.get(v.action) ?? 0) + 1);
        if (k % 5 === 3 || v.action === "cliff") {
          const cold = await compact(await proxy(), { api: api.api, body, headers });
          expectSame(cold, sent, headers, `request ${k}, cold`);
          expect(cold.json.verdict).toEqual(v);
        }
      }
      expect([...actions.keys()].sort()).toEqual(["cliff", "pass", "reuse"]);
      const metrics = await (await fetch(endpoint.url + "/_cliff/metrics")).text();
      for (const [action, n] of actions) expect(metrics).toContain(`cliffcompaction_compact_calls_total{api="${api.api}",action="${action}"} ${n}`);
      // The endpoint's calls are not the proxy's requests: nothing went upstream from it.
      expect(metrics).not.toMatch(/cliffcompaction_requests_total\{/);
    });
  }

  /** A Gemini CLI-shaped session: the history up to each function response, as the Gemini API's request. */
  function geminiRequests(): Record<string, unknown>[] {
    const contents: unknown[] = [{ role: "user", parts: [{ text: "Fix the failing tests." }] }];
    const out: Record<string, unknown>[] = [];
    for (let i = 0; i < 14; i++) {
      contents.push({ role: "model", parts: [{ functionCall: { id: `c${i}`, name: "run_shell_command", args: { command: `make test${i}` } }, thoughtSignature: `sig${i}` }] });
      contents.push({ role: "user", parts: [{ functionResponse: { id: `c${i}`, name: "run_shell_command", response: { output: `test${i} line\n`.repeat(120 + i) } } }] });
      out.push({ contents: [...contents], systemInstruction: { parts: [{ text: "You are Gemini CLI." }] }, tools: [{ functionDeclarations: [{ name: "run_shell_command" }] }] });
    }
    return out;
  }

  const GEMINI_FORMS: { name: string; path: string; headers: Record<string, string>; wrap: (r: unknown) => unknown }[] = [
    { name: "the Gemini API (the model in the path)", path: "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse", headers: { "x-goog-api-key": "k" }, wrap: (r: unknown): unknown => r },
    { name: "Code Assist (the request under `request`)", path: "/v1internal:streamGenerateContent?alt=sse", headers: { authorization: "Bearer ya29.test" }, wrap: (r: unknown): unknown => ({ model: "gemini-3-pro", project: "proj-1", user_prompt_id: "p-1", request: r }) },
  ];

  for (const form of GEMINI_FORMS) {
    it(`gemini, ${form.name}: every request of a session, with its path, gives the bytes the proxy sends`, async () => {
      mock.override = (r) => (r.path.includes("enerateContent") ? { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" }] }) } : undefined);
      try {
        const [endpoint, sender] = [await proxy(), await proxy()];
        const actions = new Set<string>();
        for (const [k, request] of geminiRequests().entries()) {
          const body = JSON.stringify(form.wrap(request));
          const sent = await through(sender, form.path, body, form.headers);
          const answer = await compact(endpoint, { api: "gemini", body, headers: form.headers, path: form.path });
          expectSame(answer, sent, form.headers, `request ${k}`);
          actions.add(answer.json.verdict.action);
        }
        expect(actions.has("cliff")).toBe(true);
      } finally {
        mock.override = undefined;
      }
    });
  }

  it("gemini: a path that is not a generate method, or a path for another api, is refused in the API's error shape", async () => {
    const p = await proxy();
    const body = JSON.stringify(geminiRequests()[3]);
    const notGenerate = await compact(p, { api: "gemini", body, path: "/v1beta/models/gemini-3-pro:countTokens" });
    expect(notGenerate.status).toBe(400);
    expect(notGenerate.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    expect(notGenerate.json.error.message).toMatch(/^cliffcompaction: path .* is not a Gemini or Code Assist generate method/);
    const other = await compact(p, { api: "anthropic", body: JSON.stringify({ messages: [] }), path: "/v1/messages" });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "cliffcompaction: path is read for the gemini api only" } });
  });

  it("says which settings that depend on more than the request it did not apply", async () => {
    const body = requests(APIS[0])[3];
    expect((await compact(await proxy(), { api: "anthropic", body })).json.notApplied).toEqual([]);
    expect((await compact(await proxy({ ...CFG, calibrate: true }), { api: "anthropic", body })).json.notApplied).toEqual(["calibrate"]);
    expect((await compact(await proxy(CFG, { idleCliffMs: 300_000 }), { api: "anthropic", body })).json.notApplied).toEqual(["idleCliff"]);
  });

  it("a body over the proxy's size limit passes with its original bytes, as the proxy forwards it", async () => {
    const p = await proxy(CFG, { compactLimitBytes: 2000 });
    const body = requests(APIS[0]).at(-1)!;
    expect(Buffer.byteLength(body)).toBeGreaterThan(2000);
    const r = await compact(p, { api: "anthropic", body });
    expect(r.status).toBe(200);
    expect(r.json.body === body).toBe(true);
    expect(r.json.headers).toEqual({});
    expect(r.json.verdict).toEqual({ action: "pass", tokensBefore: 0, tokensAfter: 0, rung: 0, reason: "oversize" });
    const sent = await through(p, "/v1/messages", body, CLIENT_HEADERS.anthropic);
    expect(sent.body.toString("utf8")).toBe(body);
  });

  it("refuses an unknown api with a 400 {error:{type,message}}, a bad body in the named API's error shape", async () => {
    const p = await proxy();
    for (const bad of [{ api: "vertex", body: "{}" }, { body: "{}" }, "not json", "[1,2]"]) {
      const r = await compact(p, bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(Object.keys(r.json)).toEqual(["error"]);
      expect(Object.keys(r.json.error).sort()).toEqual(["message", "type"]);
      expect(r.json.error.message).toMatch(/^cliffcompaction: /);
    }
    for (const body of ["{not json", "[]", 42]) {
      const a = await compact(p, { api: "anthropic", body });
      expect(a.status).toBe(400);
      expect(a.json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
      for (const api of ["openai-chat", "openai-responses"]) {
        const o = await compact(p, { api, body });
        expect(o.status).toBe(400);
        expect(o.json).toMatchObject({ error: { type: "invalid_request_error", code: "invalid_request_error", param: null } });
        expect(o.json.type).toBeUndefined();
      }
    }
    const metrics = await (await fetch(p.url + "/_cliff/metrics")).text();
    expect(metrics).toContain('cliffcompaction_compact_calls_total{api="none",action="invalid"} 4');
    expect(metrics).toContain('cliffcompaction_compact_calls_total{api="anthropic",action="invalid"} 3');
  });

  it("strict mode's refusal over budget is the proxy's own answer", async () => {
    const cfg = { thresholdTokens: 300, keepRecent: 20, strict: true };
    const body = requests(APIS[0])[8];
    const direct = await fetch((await proxy(cfg)).url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body });
    const r = await compact(await proxy(cfg), { api: "anthropic", body });
    expect(r.status).toBe(direct.status);
    expect(r.status).toBe(400);
    expect(r.json).toEqual(await direct.json());
  });

  it("needs the owner's token, on loopback too, and reads nothing without it", async () => {
    const p = await proxy();
    const body = requests(APIS[0])[2];
    for (const token of [null, "wrong"]) {
      const r = await compact(p, { api: "anthropic", body }, token);
      expect(r.status).toBe(401);
      expect(r.text).not.toContain("coding agent");
    }
    const browser = await fetch(p.url + "/_cliff/v1/compact", { method: "POST", headers: { authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" }, body: JSON.stringify({ api: "anthropic", body }) });
    expect(browser.status).toBe(403);
    expect((await fetch(p.url + "/_cliff/v1/compact", { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    expect((await compact(p, { api: "anthropic", body })).status).toBe(200);
    expect(await (await fetch(p.url + "/_cliff/metrics")).text()).not.toContain('action="invalid"');
  });
});

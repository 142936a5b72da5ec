/**
 * What the proxy shows of the exchanges it served: sessions grouped by the client's key, the
 * provider's usage in /_cliff/status, the event stream (backlog first, in order; a slow reader's
 * drops counted), the metrics in Prometheus' text format, the last cliff served to loopback only,
 * and a marker written into bodies and headers appearing in none of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { admin, isLoopback } from "../../proxy/http/admin.js";
import { adminAccess } from "../../proxy/http/access.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type Answer, type MockUpstream } from "../helpers/mock-upstream.js";
import { parsePrometheus } from "../helpers/prometheus.js";

const CFG = resolveConfig({ thresholdTokens: 2000, keepRecent: 1 });
const MARKER = "MARKER-5e1f0c";
const TOKEN = "observe-test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

let mock: MockUpstream;
let proxy: RunningProxy;
const logs: string[] = [];
/** Usage each answer reports, so the status can be checked against exactly what was sent. */
const sentUsage = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
let n = 0;

function usageAnswer(): Answer {
  n++;
  const u = { input_tokens: 10 + n, cache_read_input_tokens: 1000 * n, cache_creation_input_tokens: 7 * n, output_tokens: n };
  sentUsage.input += u.input_tokens;
  sentUsage.cacheRead += u.cache_read_input_tokens;
  sentUsage.cacheWrite += u.cache_creation_input_tokens;
  sentUsage.output += u.output_tokens;
  const events = [
    { type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { ...u, output_tokens: 1 } } },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: u.output_tokens } },
    { type: "message_stop" },
  ];
  return { status: 200, headers: { "content-type": "text/event-stream" }, body: events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("") };
}

beforeAll(async () => {
  mock = await mockUpstream();
  mock.override = (r) => (r.path.startsWith("/v1/messages") ? usageAnswer() : undefined);
  proxy = await startProxy({ config: CFG, port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l), keepAliveMs: 50, adminToken: TOKEN });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

function grown(turns: number, secret = ""): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: `Fix the failing build in repo widgets. ${secret}` }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i} ${secret}` }, { type: "tool_use", id: `toolu_${i}`, name: "bash", input: { command: `npm test -- ${i} ${secret}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: i % 2 ? `ok ${i} ${secret}` : `FAIL ${i} ${secret}\n`.repeat(120) }] });
  }
  return msgs;
}

async function post(body: Record<string, unknown>, headers: Record<string, string> = {}, path = "/v1/messages"): Promise<void> {
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", ...headers }, body: JSON.stringify(body) });
  await r.arrayBuffer();
}

const status = async (): Promise<any> => (await fetch(proxy.url + "/_cliff/status")).json();

/** Reads the event stream: the backlog up to `: live`, then `more` live events. */
function readEvents(more = 0): Promise<{ backlog: any[]; live: any[]; comments: string[] }> {
  return new Promise((resolve, reject) => {
    const backlog: any[] = [];
    const later: any[] = [];
    const comments: string[] = [];
    let live = false;
    let buf = "";
    const req = http.get(proxy.url + "/_cliff/events", { headers: AUTH }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        buf += c;
        let i;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (block.startsWith("data: ")) (live ? later : backlog).push(JSON.parse(block.slice(6)));
          else comments.push(block);
          if (block === ": live") live = true;
          if (live && later.length >= more) {
            req.destroy();
            return resolve({ backlog, live: later, comments });
          }
        }
      });
    });
    req.on("error", reject);
  });
}

/** Waits until the proxy has finished observing `count` exchanges. */
async function settled(count: number): Promise<void> {
  for (let i = 0; i < 200 && proxy.observer.events.published < count; i++) await new Promise((r) => setTimeout(r, 10));
}

describe("sessions, usage and events through the proxy", () => {
  it("groups by the client's key, counts probes and side calls apart, and totals the usage the provider sent", async () => {
    const before = proxy.observer.events.published;
    for (let t = 1; t <= 16; t++) await post({ model: "claude-sonnet-4-5", max_tokens: 64, messages: grown(t) }, { "x-claude-code-session-id": "cc-one" });
    const userId = JSON.stringify({ device_id: "d", session_id: "cc-two" });
    for (let t = 1; t <= 3; t++) await post({ model: "claude-haiku-4-5", max_tokens: 64, metadata: { user_id: userId }, messages: grown(t) });
    await post({ model: "claude-haiku-4-5", max_tokens: 1, messages: [{ role: "user", content: "quota" }] }, { "x-claude-code-session-id": "cc-one" });
    // No model turn, in a session that has had turns: a side call of it.
    await post({ model: "claude-haiku-4-5", max_tokens: 32, messages: [{ role: "user", content: "a title for this" }] }, { "x-claude-code-session-id": "cc-one" });
    // No key: the chain's root groups them.
    for (let t = 2; t <= 4; t++) await post({ model: "claude-sonnet-4-5", max_tokens: 64, messages: grown(t, "other task") });
    await settled(before + 24);
    const s = await status();
    expect(s.version).toBe("dev");
    expect(s.config.thresholdTokens).toBe(2000);
    // Newest first: the probe made cc-one newer than cc-two.
    const [chain, one, two] = s.sessions;
    expect(s.sessions).toHaveLength(3);
    expect(one).toMatchObject({ model: "claude-sonnet-4-5", requests: 16, probes: 1, sideCalls: 1 });
    expect(one.cliffs).toBeGreaterThan(0);
    expect(one.context).toHaveLength(16);
    expect(one.threshold).toBe(2000);
    expect(one.cliffAt.length).toBe(one.cliffs);
    expect(two).toMatchObject({ model: "claude-haiku-4-5", requests: 3 });
    expect(chain).toMatchObject({ requests: 3 });
    expect([s.probes, s.sideCalls]).toEqual([1, 1]);
    for (const x of s.sessions) expect(x.id).toMatch(/^[0-9a-f]{10}$/);
    // Every answer's usage, exactly as the provider sent it, probes and side calls included.
    expect(s.usage).toEqual(sentUsage);
    const perSession = s.sessions.reduce((a: number, x: any) => a + x.usage.cacheRead, 0);
    expect(perSession).toBeLessThan(sentUsage.cacheRead);
    expect(one.ledger.cliffs).toBe(one.cliffs);
    expect(one.ledger.shed).toBeGreaterThan(0);
    expect(typeof one.ledger.netDollars).toBe("number");
  });

  it("a new subscriber gets the backlog in order, then `: live`, then each new event; keep-alive comments come", async () => {
    const first = await readEvents();
    const times = first.backlog.map((e) => e.time);
    expect(first.backlog.length).toBe(proxy.observer.events.published);
    expect([...times].sort()).toEqual(times);
    const e = first.backlog.find((x) => x.action === "cliff")!;
    expect(e).toMatchObject({ api: "anthropic", model: "claude-sonnet-4-5", status: 200, rung: 0 });
    expect(e.messagesOut).toBeLessThan(e.messagesIn);
    expect(e.tokensOut).toBeLessThan(e.tokensIn);
    expect(e.usage).toMatchObject({ input: expect.any(Number), cacheRead: expect.any(Number) });
    expect(first.backlog.some((x) => x.action === "probe" && x.kind === "probe")).toBe(true);
    const next = readEvents(1);
    await new Promise((r) => setTimeout(r, 120));
    await post({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "one more" }] }, { "x-claude-code-session-id": "cc-three" });
    const got = await next;
    expect(got.backlog).toEqual(first.backlog);
    expect(got.live).toHaveLength(1);
    // A new session's first request, no model turn yet: its opening turn.
    expect(got.live[0]).toMatchObject({ action: "pass", kind: "turn" });
    expect(got.comments).toContain(": keep-alive");
  });

  it("a subscriber that does not read has its events dropped past its queue, counted, and told when it reads again", async () => {
    const hub = proxy.observer.events;
    const droppedBefore = hub.dropped;
    const sock = connect(proxy.port, "127.0.0.1");
    await new Promise<void>((r) => sock.on("connect", () => r()));
    sock.write(`GET /_cliff/events HTTP/1.1\r\nhost: 127.0.0.1:${proxy.port}\r\nauthorization: Bearer ${TOKEN}\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 50));
    sock.pause();
    const publishedBefore = hub.published;
    const pad = "x".repeat(4000);
    for (let i = 0; i < 3000; i++) hub.publish({ n: i, pad });
    const dropped = hub.dropped - droppedBefore;
    expect(dropped).toBeGreaterThan(0);
    let text = "";
    sock.setEncoding("utf8");
    sock.on("data", (c: string) => (text += c));
    sock.resume();
    for (let i = 0; i < 300 && !text.includes(`: dropped ${dropped}`); i++) await new Promise((r) => setTimeout(r, 10));
    sock.destroy();
    const seen = [...text.matchAll(/"n":(\d+)/g)].map((m) => Number(m[1]));
    // What arrived is in order, and it and the dropped ones add up to what was published.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.length + dropped).toBe(hub.published - publishedBefore);
    expect(text).toContain(`: dropped ${dropped}`);
  });

  it("the metrics parse as Prometheus text and agree with the status", async () => {
    const r = await fetch(proxy.url + "/_cliff/metrics");
    expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = parsePrometheus(await r.text());
    const s = await status();
    const total = (name: string, labels: Record<string, string> = {}) => m.sum(name, labels);
    expect(m.type("cliffcompaction_requests_total")).toBe("counter");
    expect(m.type("cliffcompaction_sessions")).toBe("gauge");
    expect(total("cliffcompaction_requests_total", { api: "anthropic" })).toBe(s.compactable);
    expect(total("cliffcompaction_cliffs_total")).toBe(s.cliffs);
    expect(total("cliffcompaction_reuses_total")).toBe(s.reuses);
    expect(total("cliffcompaction_usage_tokens_total", { kind: "cache_read" })).toBe(sentUsage.cacheRead);
    expect(total("cliffcompaction_usage_tokens_total", { kind: "output" })).toBe(sentUsage.output);
    expect(total("cliffcompaction_estimated_tokens_total", { direction: "in" })).toBeGreaterThan(total("cliffcompaction_estimated_tokens_total", { direction: "out" }));
    expect(total("cliffcompaction_sessions")).toBe(s.sessionCount);
    expect(total("cliffcompaction_store_entries")).toBe(s.store.entries);
    expect(total("cliffcompaction_sessions_bytes")).toBeGreaterThan(0);
  });

  it("the last cliff: summary beside what was dropped, on loopback; an unknown session is 404", async () => {
    const s = await status();
    const one = s.sessions.find((x: any) => x.requests === 16);
    const r = await fetch(`${proxy.url}/_cliff/sessions/${one.id}/last-cliff`, { headers: AUTH });
    expect(r.status).toBe(200);
    const c: any = await r.json();
    expect(c.summary.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(c.dropped.length).toBeGreaterThan(0);
    expect(c.dropped[0]).toMatchObject({ role: expect.any(String), chars: expect.any(Number), text: expect.any(String) });
    expect((await fetch(`${proxy.url}/_cliff/sessions/0123456789/last-cliff`, { headers: AUTH })).status).toBe(404);
    expect((await fetch(`${proxy.url}/_cliff/sessions/${one.id}/last-cliff`)).status).toBe(401);
  });
});

describe("the last cliff beyond loopback", () => {
  function ask(loopback: boolean, remote: string, headers: Record<string, string> = {}, id = "abc"): { status: number; body: string } {
    const out = { status: 0, body: "" };
    const req = { method: "GET", url: `/_cliff/sessions/${id}/last-cliff`, headers, socket: { remoteAddress: remote } } as unknown as IncomingMessage;
    const res = { writeHead: (s: number) => (out.status = s), end: (b: string) => (out.body = b) } as unknown as ServerResponse;
    admin(req, res, { engine: proxy.engine, stats: proxy.stats, observer: proxy.observer, statusExtra: () => ({}), loopback, access: adminAccess(TOKEN, loopback), adminToken: TOKEN });
    return out;
  }

  it("needs the token wherever the proxy listens and whoever asks; with it, is served beyond loopback too", () => {
    for (const [loopback, remote] of [[false, "127.0.0.1"], [true, "10.1.2.3"], [true, "::ffff:192.168.0.9"], [true, "127.0.0.1"]] as const) {
      expect(ask(loopback, remote).status).toBe(401);
      expect(ask(loopback, remote).body).not.toContain("summary\"");
      expect(ask(loopback, remote, AUTH).status).toBe(404);
    }
    const one = proxy.observer.sessions.list().find((x) => x.lastCliff !== null)!;
    const beyond = ask(false, "10.1.2.3", AUTH, one.id);
    expect(beyond.status).toBe(200);
    expect(JSON.parse(beyond.body).summary.startsWith(SUMMARY_HEADER)).toBe(true);
  });

  it("loopback addresses", () => {
    for (const a of ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "::ffff:127.0.0.1", "localhost"]) expect(isLoopback(a)).toBe(true);
    for (const a of ["0.0.0.0", "::", "10.0.0.1", "192.168.1.1", "::ffff:10.0.0.1", "example.com", undefined]) expect(isLoopback(a)).toBe(false);
  });
});

describe("no body text and no header value, anywhere", () => {
  it("a marker in every body field and header reaches the upstream but not the events, status, metrics or log", async () => {
    const events = readEvents(6);
    const userId = JSON.stringify({ session_id: MARKER });
    for (let t = 6; t <= 8; t++) {
      await post({ model: MARKER, system: MARKER, max_tokens: 64, metadata: { user_id: userId }, messages: grown(t, MARKER) }, { "x-api-key": MARKER, "anthropic-beta": MARKER, "x-claude-code-session-id": MARKER });
      await post({ model: MARKER, prompt_cache_key: MARKER, input: grown(t, MARKER).map((m: any) => ({ role: m.role, content: JSON.stringify(m.content) })) }, { authorization: `Bearer ${MARKER}`, session_id: MARKER, conversation_id: MARKER }, "/v1/responses");
    }
    expect(mock.received.some((r) => r.body.includes(MARKER))).toBe(true);
    const got = await events;
    const s = await (await fetch(proxy.url + "/_cliff/status?sessions=1000")).text();
    const metrics = await (await fetch(proxy.url + "/_cliff/metrics")).text();
    for (const text of [JSON.stringify(got.live), s, metrics, ...logs]) expect(text).not.toContain(MARKER);
    expect(got.live.every((e) => e.model === "other")).toBe(true);
    expect(got.live.filter((e) => e.action === "cliff").length).toBeGreaterThan(0);
  });
});

/**
 * Anthropic's message threads through the proxy, driven by the installed Anthropic SDK's own thread
 * (`client.beta.messages.thread`, beta `message-threads-2026-08-12`) against an upstream that keeps
 * threads and refuses what the API refuses (test/helpers/threads-mock.ts). By default the proxy
 * declines the thread as the API declines one it cannot serve, the SDK goes on without it, and
 * every later request carries the whole conversation: each one due is compacted, none is lost, and
 * no request is sent twice after the one refusal. With --pass-threads the thread reaches the
 * upstream untouched and is never compacted. Both are said in the log, the status, the events and
 * the metrics.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { BetaMessage, BetaToolUnion } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { threadsMock, THREADS_BETA, type ThreadsMock } from "../helpers/threads-mock.js";
import { threadsLine } from "../../cli/service/status.js";

const THRESHOLD = 3000;
const BASH: BetaToolUnion = { name: "bash", description: "Run a shell command.", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } };
const OUTPUT = (k: number): string => Array.from({ length: 120 }, (_, i) => `line ${k}.${i} of the build output`).join("\n");

let mock: ThreadsMock;
let declining: RunningProxy;
let passing: RunningProxy;
const logs: { declining: string[]; passing: string[] } = { declining: [], passing: [] };
beforeAll(async () => {
  mock = await threadsMock();
  const config = resolveConfig({ thresholdTokens: THRESHOLD, minGainTokens: 300, keepRecent: 2 });
  declining = await startProxy({ config, port: 0, upstreams: { anthropic: mock.url }, logJson: true, log: (l) => logs.declining.push(l) });
  passing = await startProxy({ config, port: 0, upstreams: { anthropic: mock.url }, logJson: true, passThreads: true, log: (l) => logs.passing.push(l) });
});
afterAll(async () => {
  await declining.close();
  await passing.close();
  await mock.close();
});

/** A session of `turns` tool calls on one SDK thread through `proxy`: the thread, and the mock's exchanges it caused. */
async function session(proxy: RunningProxy, turns: number, behaviour: "continue_unthreaded" | "error" = "continue_unthreaded") {
  const client = new Anthropic({ apiKey: "k", baseURL: proxy.url, maxRetries: 0 });
  const thread = client.beta.messages.thread({ model: "claude-sonnet-4-6", max_tokens: 1024, system: "Count with seq when asked.", tools: [BASH], unsupportedRequestBehavior: behaviour });
  const from = mock.exchanges.length;
  let reply: BetaMessage = await thread.send({ role: "user", content: "Print numbers with seq several times, then say ALL DONE." });
  for (let k = 1; k < turns; k++) {
    const call = reply.content.find((b) => b.type === "tool_use");
    reply = await thread.send({ role: "user", content: [{ type: "tool_result", tool_use_id: call?.type === "tool_use" ? call.id : "none", content: OUTPUT(k) }] });
  }
  return { thread, exchanges: mock.exchanges.slice(from) };
}

const records = (lines: string[]) => lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l));
const strip = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === "cache_control" ? undefined : x)));

describe("message threads, declined (the default)", () => {
  it("the SDK's thread: one refusal, then the whole conversation every turn; each request due is compacted, none lost, none sent twice", async () => {
    const before = { requests: declining.stats.requests, declined: declining.stats.threadsDeclined };
    const turns = 20;
    const { thread, exchanges } = await session(declining, turns);
    // One request per turn reached the upstream, none of them in a thread, all accepted.
    expect(exchanges).toHaveLength(turns);
    expect(exchanges.filter((x) => x.thread !== undefined)).toEqual([]);
    expect(exchanges.map((x) => x.status)).toEqual(Array(turns).fill(200));
    // The proxy saw one more: the first turn's create, declined; then nothing was resent.
    expect(declining.stats.requests - before.requests).toBe(turns + 1);
    expect(declining.stats.threadsDeclined - before.declined).toBe(1);
    const rs = records(logs.declining).slice(-(turns + 1));
    expect(rs[0]).toMatchObject({ action: "thread-declined", thread: "create", status: 400 });
    const served = rs.slice(1);
    // Every request carried the whole conversation: k-th request, 2k+1 messages (the thread's history up to it).
    const history = strip(thread.messages) as unknown[];
    served.forEach((r, k) => expect(r.messagesIn).toBe(2 * k + 1));
    // Every request over the threshold was compacted; the upstream always saw the newest message as sent.
    const due = served.filter((r) => r.tokensIn > THRESHOLD);
    expect(due.length).toBeGreaterThan(8);
    expect(due.every((r) => ["cliff", "reuse", "escalate"].includes(r.action))).toBe(true);
    expect(served.filter((r) => r.action === "cliff").length).toBeGreaterThanOrEqual(2);
    exchanges.forEach((x, k) => {
      const seen = strip(x.seen) as unknown[];
      expect(seen[seen.length - 1]).toEqual(history[2 * k]);
      if (served[k].tokensIn <= THRESHOLD) expect(seen).toEqual(history.slice(0, 2 * k + 1));
    });
  });

  it("the SDK's thread left to throw: the API's ThreadUnsupportedRequestError, with the proxy's reason, the upstream never asked", async () => {
    const from = mock.exchanges.length;
    const err = await session(declining, 1, "error").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect((err as Error).constructor.name).toBe("ThreadUnsupportedRequestError");
    expect((err as Error).message).toContain("--pass-threads");
    expect(mock.exchanges.length).toBe(from);
  });

  it("a continue by hand: declined in the API's shape; a body that only mentions a thread is no thread request", async () => {
    const post = (body: unknown) => fetch(`${declining.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "anthropic-beta": THREADS_BETA }, body: JSON.stringify(body) });
    const from = mock.exchanges.length;
    const r = await post({ model: "claude-sonnet-4-6", max_tokens: 10, thread: { type: "continue", previous_message_id: "msg_1" }, messages: [{ role: "user", content: "go on" }] });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error", details: { error_code: "thread_unsupported_request" } } });
    expect(mock.exchanges.length).toBe(from);
    const plain = await post({ model: "claude-sonnet-4-6", max_tokens: 10, messages: [{ role: "user", content: 'the "thread" of this story' }] });
    expect(plain.status).toBe(200);
    expect(mock.exchanges.length).toBe(from + 1);
  });

  it("status, metrics and the start-up lines say it", async () => {
    const status = (await (await fetch(`${declining.url}/_cliff/status`)).json()) as Record<string, any>;
    expect(status).toMatchObject({ threads: "decline" });
    expect(status.threadsDeclined).toBeGreaterThanOrEqual(3);
    expect(status.threadsText).toMatch(/declined .*thread_unsupported_request/);
    expect(threadsLine(status)).toEqual([`${status.threadsText}; ${status.threadsDeclined} declined`]);
    const metrics = await (await fetch(`${declining.url}/_cliff/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`cliffcompaction_threads_total\\{api="anthropic",action="declined"\\} ${status.threadsDeclined}`));
  });
});

describe("message threads, passed (--pass-threads)", () => {
  it("the SDK's thread reaches the upstream untouched: a create, then continues with only the new messages; no cliff, no message lost", async () => {
    const before = { cliffs: passing.stats.cliffs, passed: passing.stats.threadsPassed };
    const turns = 20;
    const { thread, exchanges } = await session(passing, turns);
    expect(exchanges.map((x) => x.thread)).toEqual(["create", ...Array(turns - 1).fill("continue")]);
    expect(exchanges.map((x) => x.status)).toEqual(Array(turns).fill(200));
    exchanges.slice(1).forEach((x) => expect(x.body.messages).toHaveLength(1));
    // The model saw the whole conversation every turn, from the thread the upstream holds.
    const history = strip(thread.messages) as unknown[];
    exchanges.forEach((x, k) => expect(strip(x.seen)).toEqual(history.slice(0, 2 * k + 1)));
    expect(passing.stats.cliffs - before.cliffs).toBe(0);
    expect(passing.stats.threadsPassed - before.passed).toBe(turns);
    const rs = records(logs.passing).slice(-turns);
    expect(rs.every((r) => r.action === "thread-passed" && r.status === 200)).toBe(true);
    const status = (await (await fetch(`${passing.url}/_cliff/status`)).json()) as Record<string, any>;
    expect(status).toMatchObject({ threads: "pass" });
    expect(status.threadsText).toMatch(/untouched, never compacted/);
    expect(threadsLine(status)[0]).toMatch(/--pass-threads.*; 20 passed$/);
  });
});

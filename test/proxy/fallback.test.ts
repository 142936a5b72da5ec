/**
 * A refusal we caused: when the upstream refuses a compacted request with a 4xx that is not about
 * its length, the client, its quota or the provider's load, the proxy sends the client's original
 * bytes once and relays that answer; everything else is relayed as it came. Logged as `fallback`
 * with the status and the provider's error type, counted in status, metrics and watch, warned
 * once per session.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type Answer, type MockUpstream, type Received } from "../helpers/mock-upstream.js";
import { aSession } from "../helpers/sessions.js";

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

const compacted = (r: Received): boolean => r.body.toString("utf8").includes(SUMMARY_HEADER.slice(0, 20));
const errorAnswer = (status: number, type: string, message: string): Answer => ({ status, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type, message } }) });

async function proxy(logs: string[], fallback = true): Promise<RunningProxy> {
  return startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l), fallback });
}

/** A growing session's requests, sent in turn; each answer's status and text. */
async function drive(p: RunningProxy, requests: number, session = "fb"): Promise<{ sent: string[]; answers: { status: number; text: string }[] }> {
  const s = aSession(requests + 2);
  const sent: string[] = [];
  const answers: { status: number; text: string }[] = [];
  for (let n = 3; sent.length < requests; n += 2) {
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: s.slice(0, n) });
    sent.push(body);
    const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": session }, body });
    answers.push({ status: r.status, text: await r.text() });
  }
  return { sent, answers };
}

function watchOnce(p: RunningProxy): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["dist/cli.mjs", "watch", "--once", "--port", String(p.port)], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

describe("fallback: the client's own request after a refusal we caused", () => {
  it("an unforeseen 400 of a compacted body: the client gets the answer to its original request, every such turn", async () => {
    const logs: string[] = [];
    const p = await proxy(logs);
    mock.override = (r) => (compacted(r) ? errorAnswer(400, "invalid_request_error", "messages.2.content.0: a rule nobody foresaw") : undefined);
    const from = mock.received.length;
    const { sent, answers } = await drive(p, 12);
    mock.override = undefined;
    await new Promise((r) => setTimeout(r, 50));
    const got = mock.received.slice(from);
    const refusedBodies = got.filter(compacted).length;
    expect(refusedBodies).toBeGreaterThan(3);
    expect(answers.every((a) => a.status === 200 && a.text.includes("mock answer"))).toBe(true);
    // Every request's last body upstream is the client's own bytes; each compacted one went once.
    let i = 0;
    for (const body of sent) {
      if (compacted(got[i])) i++;
      expect(got[i].body.toString("utf8")).toBe(body);
      i++;
    }
    expect(i).toBe(got.length);
    const status = (await (await fetch(p.url + "/_cliff/status")).json()) as any;
    expect(status.fallbacks).toBe(refusedBodies);
    expect(status.sessions[0].fallbacks).toBe(refusedBodies);
    expect(status.sessions[0].fallback).toEqual({ count: 2, status: 400, type: "invalid_request_error" });
    expect(logs.filter((l) => / fallback \(compacted body refused 400 invalid_request_error: sent the original\) /.test(l))).toHaveLength(refusedBodies);
    expect(logs.filter((l) => l.includes("WARNING session") && l.includes("for a reason the proxy caused"))).toHaveLength(1);
    expect(logs.join("\n")).not.toContain("a rule nobody foresaw");
    const metrics = await (await fetch(p.url + "/_cliff/metrics")).text();
    expect(metrics).toContain(`cliffcompaction_fallbacks_total{api="anthropic"} ${refusedBodies}`);
    expect(await watchOnce(p)).toContain(`fallbacks ${refusedBodies}`);
    await p.close();
  });

  const relayed: [string, Answer][] = [
    ["401", errorAnswer(401, "authentication_error", "invalid x-api-key")],
    ["403", errorAnswer(403, "permission_error", "not allowed")],
    ["429", errorAnswer(429, "rate_limit_error", "slow down")],
    ["an overloaded 529", errorAnswer(529, "overloaded_error", "Overloaded")],
    ["an overloaded-shaped 400", errorAnswer(400, "overloaded_error", "Overloaded")],
    ["a 413 not about context", errorAnswer(413, "request_too_large", "Request exceeds the maximum allowed number of bytes.")],
  ];
  for (const [name, answer] of relayed) {
    it(`${name} is relayed untouched, the original never sent`, async () => {
      const p = await proxy([]);
      mock.override = (r) => (compacted(r) ? answer : undefined);
      const from = mock.received.length;
      const { answers } = await drive(p, 10, `relay-${name}`);
      mock.override = undefined;
      const got = mock.received.slice(from);
      const first = answers.findIndex((a) => a.status !== 200);
      expect(first).toBeGreaterThan(0);
      expect(answers[first]).toEqual({ status: answer.status, text: answer.body });
      // No request resent its original after a refusal: each refused body was the last of its request.
      expect(got.filter((r, k) => compacted(r) && k + 1 < got.length && !compacted(got[k + 1]) && got[k + 1].body.length > r.body.length && JSON.parse(got[k + 1].body.toString()).messages.length === JSON.parse(r.body.toString()).messages.length)).toEqual([]);
      const status = (await (await fetch(p.url + "/_cliff/status")).json()) as any;
      expect(status.fallbacks).toBe(0);
      await p.close();
    });
  }

  it("a 200 whose stream carries an error event is relayed as it is, never retried", async () => {
    const p = await proxy([]);
    const stream = 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":0}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"invalid_request_error","message":"late"}}\n\n';
    mock.override = (r) => (compacted(r) ? { status: 200, headers: { "content-type": "text/event-stream" }, body: stream } : undefined);
    const from = mock.received.length;
    const { answers } = await drive(p, 8, "stream-error");
    mock.override = undefined;
    const got = mock.received.slice(from);
    expect(got.length).toBe(answers.length);
    expect(answers.filter((a) => a.text === stream).length).toBe(got.filter(compacted).length);
    expect(got.filter(compacted).length).toBeGreaterThan(0);
    await p.close();
  });

  it("with the fallback off, the refusal is relayed", async () => {
    const p = await proxy([], false);
    mock.override = (r) => (compacted(r) ? errorAnswer(400, "invalid_request_error", "a rule nobody foresaw") : undefined);
    const { answers } = await drive(p, 10, "off");
    mock.override = undefined;
    expect(answers.some((a) => a.status === 400)).toBe(true);
    await p.close();
  });
});

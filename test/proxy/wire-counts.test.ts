/**
 * Counts that match the wire, and bytes that do not depend on what a replica saw. A request is a
 * `cliff` when the summary it sends differs from the one its request without the newest turn sends,
 * so a proxy's cliffs (status, events, metrics, watch) equal the distinct summaries the upstream
 * received, and replicas behind a load balancer sum to the same. With the hosts' default minimum
 * gain (a tenth of the threshold), a Claude Code-shaped session driven alternately through two
 * replicas, one of them restarted mid-session, gives the upstream the bytes one proxy gives.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER, type Config } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { claudeBody, claudeSession, type ClaudeSession } from "../helpers/claude-sessions.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { eventBacklog } from "../helpers/event-backlog.js";

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

const start = (cfg: Partial<Config>): Promise<RunningProxy> =>
  startProxy({ config: resolveConfig(cfg), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined, adminToken: TOKEN });

async function post(p: RunningProxy, body: Record<string, unknown>, session: string): Promise<void> {
  const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "x-claude-code-session-id": session }, body: JSON.stringify(body) });
  expect(r.status).toBe(200);
  await r.arrayBuffer();
}

async function received(drive: () => Promise<void>): Promise<string[]> {
  const from = mock.received.length;
  await drive();
  return mock.received.slice(from).map((r) => r.body.toString("utf8"));
}

/** How often the summary the upstream received changed: the cliffs on the wire. */
function distinctSummaries(bodies: string[]): number {
  let last = "";
  let n = 0;
  for (const b of bodies) {
    const m = (JSON.parse(b).messages as { content: unknown }[]).find((x) => JSON.stringify(x.content).includes(SUMMARY_HEADER.slice(0, 20)));
    const s = m === undefined ? "" : JSON.stringify(m.content);
    if (s !== "" && s !== last) n++;
    last = s;
  }
  return n;
}

const json = async (p: RunningProxy, path: string): Promise<any> => (await fetch(p.url + path)).json();
const metric = async (p: RunningProxy, name: string): Promise<number> => {
  const text = await (await fetch(p.url + "/_cliff/metrics")).text();
  return text.split("\n").filter((l) => l.startsWith(`cliffcompaction_${name}{`) || l.startsWith(`cliffcompaction_${name} `)).reduce((n, l) => n + Number(l.split(" ").pop()), 0);
};

const TOKEN = "wire-counts-admin-token";

const backlog = (p: RunningProxy): Promise<Record<string, unknown>[]> => eventBacklog(p.url, TOKEN);

function watchOnce(p: RunningProxy): Promise<string> {
  return new Promise((resolve, reject) => {
    // No token file: the counts are open, and a token another test's proxy left is not this proxy's.
    const env = { ...process.env, XDG_STATE_HOME: mkdtempSync(join(tmpdir(), "cliff-wire-state-")) };
    const child = spawn(process.execPath, ["dist/cli.mjs", "watch", "--once", "--port", String(p.port)], { stdio: ["ignore", "pipe", "pipe"], env });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

async function drive(session: ClaudeSession, proxies: () => RunningProxy[], id: string, each?: (k: number) => Promise<void>): Promise<string[]> {
  return received(async () => {
    for (let k = 0; k < session.requests.length; k++) {
      await each?.(k);
      const ps = proxies();
      await post(ps[k % ps.length], claudeBody(session, k), id);
    }
  });
}

/** Every count of one proxy against what its upstream received. */
async function expectCounts(p: RunningProxy, bodies: string[], requests: number): Promise<number> {
  await new Promise((r) => setTimeout(r, 50));
  const wire = distinctSummaries(bodies);
  const status = await json(p, "/_cliff/status");
  expect(status.cliffs).toBe(wire);
  expect(status.sessions[0].cliffs).toBe(wire);
  expect(status.cliffs + status.reuses + status.passes).toBe(requests);
  expect((await backlog(p)).filter((e) => e.action === "cliff")).toHaveLength(wire);
  expect(await metric(p, "cliffs_total")).toBe(wire);
  expect(await watchOnce(p)).toContain(`cliffs ${wire} `);
  return wire;
}

/** A session whose head alone (system, tools, opening turn) is over the threshold, with the hosts' default gain. */
function headOver(seed: number): { session: ClaudeSession; cfg: Partial<Config> } {
  const session = claudeSession(seed, { turns: 36, scale: 0.5 });
  const head = Math.floor(JSON.stringify(claudeBody(session, 0)).length / 4);
  const threshold = Math.floor(head * 0.8);
  return { session, cfg: { thresholdTokens: threshold, minGainTokens: Math.floor(threshold / 10), keepRecent: 1 } };
}

/** A session where a replay resumed after a stored cliff cliffs again into the same summary (counted twice before). */
const SAME_SUMMARY = { session: claudeSession(7, { turns: 36, scale: 0.5 }), cfg: { thresholdTokens: 2500, minGainTokens: 250 } as Partial<Config> };

describe("cliffs counted from the request alone", () => {
  it("a session whose head alone is over the threshold: cliffs in status, events, metrics and watch --once equal the distinct summaries the upstream received", async () => {
    const { session, cfg } = headOver(7);
    const p = await start(cfg);
    const bodies = await drive(session, () => [p], "head-over");
    expect(await expectCounts(p, bodies, session.requests.length)).toBeGreaterThanOrEqual(3);
    await p.close();
  });

  it("a request that sends the summary its previous request sent is a reuse, however the engine got there", async () => {
    const p = await start(SAME_SUMMARY.cfg);
    const bodies = await drive(SAME_SUMMARY.session, () => [p], "same-summary");
    expect(await expectCounts(p, bodies, SAME_SUMMARY.session.requests.length)).toBeGreaterThanOrEqual(3);
    await p.close();
  });

  it("two replicas behind one load balancer: their cliffs sum to the distinct summaries the upstream received, and the bytes are one proxy's", async () => {
    for (const { session, cfg } of [headOver(11), SAME_SUMMARY]) {
      const one = await start(cfg);
      const single = await drive(session, () => [one], "lb-one");
      await one.close();
      const replicas = [await start(cfg), await start(cfg)];
      const both = await drive(session, () => replicas, "lb-two");
      await new Promise((r) => setTimeout(r, 50));
      expect(both).toEqual(single);
      const counts = await Promise.all(replicas.map((r) => json(r, "/_cliff/status")));
      expect(counts.reduce((n, s) => n + s.cliffs, 0)).toBe(distinctSummaries(both));
      expect(counts.reduce((n, s) => n + s.cliffs + s.reuses + s.passes, 0)).toBe(session.requests.length);
      for (const r of replicas) await r.close();
    }
  });
});

describe("warm = cold in the proxy: the hosts' default minimum gain", () => {
  // Seeds where, before the engine counted a message without its moving cache breakpoint, a replica that missed requests sent other bytes.
  for (const [name, seed, cfg] of [["a tenth of the threshold", 9, { thresholdTokens: 6000, minGainTokens: 600 }], ["no gain", 9, { thresholdTokens: 6000, minGainTokens: 0 }], ["recall, a tenth", 15, { profile: "recall", thresholdTokens: 5000, minGainTokens: 500 }]] as [string, number, Partial<Config>][]) {
    it(`two replicas taking turns, one restarted mid-session, give the upstream one proxy's bytes (${name})`, async () => {
      const session = claudeSession(seed, { turns: 36, scale: 0.6 });
      const one = await start(cfg);
      const single = await drive(session, () => [one], "one");
      await one.close();
      expect(distinctSummaries(single)).toBeGreaterThanOrEqual(3);
      const replicas = [await start(cfg), await start(cfg)];
      const restartAt = Math.floor(session.requests.length / 2);
      const alternating = await drive(session, () => replicas, "two", async (k) => {
        if (k !== restartAt) return;
        await replicas[1].close();
        replicas[1] = await start(cfg);
      });
      for (const r of replicas) await r.close();
      expect(alternating).toHaveLength(single.length);
      for (let i = 0; i < single.length; i++) expect(alternating[i], `request ${i}`).toBe(single[i]);
    });
  }
});

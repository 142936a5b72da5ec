/**
 * The proxy and the minimum gain: a session whose head alone is over the threshold cliffs once per
 * gain, not per request, and says so once; and a team's proxy: one session driven alternately
 * through two proxies gives the upstream exactly the bytes one proxy gives.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER, type Config } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { aSession } from "../helpers/sessions.js";

const BIG_SYSTEM = "You are a coding agent. Follow the house rules.\n".repeat(208);
const body = (messages: unknown[], system = BIG_SYSTEM): string => JSON.stringify({ model: "m", max_tokens: 64, system, messages });

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

async function proxyWith(cfg: Partial<Config>, logs: string[] = []): Promise<RunningProxy> {
  return startProxy({ config: resolveConfig(cfg), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l) });
}

async function post(p: RunningProxy, b: string): Promise<void> {
  const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" }, body: b });
  expect(r.status).toBe(200);
  await r.arrayBuffer();
}

/** The bodies the upstream received while `drive` ran. */
async function received(drive: () => Promise<void>): Promise<string[]> {
  const from = mock.received.length;
  await drive();
  return mock.received.slice(from).map((r) => r.body.toString("utf8"));
}

/** The summary each body sent upstream carries ("" when none). */
function summaries(bodies: string[]): string[] {
  return bodies.map((b) => {
    const m = (JSON.parse(b).messages as { content: unknown }[]).find((x) => typeof x.content === "string" && x.content.startsWith(SUMMARY_HEADER));
    return m === undefined ? "" : (m.content as string);
  });
}

/** The requests of one growing session: two messages more each time. */
const requests = (turns: number, system = BIG_SYSTEM): string[] => {
  const s = aSession(turns);
  const out: string[] = [];
  for (let n = 3; n <= s.length; n += 2) out.push(body(s.slice(0, n), system));
  return out;
};

describe("the proxy and the minimum gain", () => {
  it("a session whose head alone is over the threshold cliffs once per gain, not per request, and the log says so once", async () => {
    const run = async (cfg: Partial<Config>) => {
      const logs: string[] = [];
      const p = await proxyWith(cfg, logs);
      const bodies = await received(async () => {
        for (const b of requests(40)) await post(p, b);
      });
      const cliffs = p.stats.cliffs;
      const status = (await (await fetch(p.url + "/_cliff/status")).json()) as Record<string, any>;
      await p.close();
      const changes = summaries(bodies).filter((s, i, all) => s !== "" && s !== (i > 0 ? all[i - 1] : "")).length;
      return { cliffs, changes, logs, status, requests: bodies.length };
    };
    const thrash = await run({ thresholdTokens: 2000, keepRecent: 1 });
    expect(thrash.cliffs).toBeGreaterThan(thrash.requests - 5);
    expect(thrash.changes).toBeGreaterThan(thrash.requests - 5);
    const calm = await run({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: 2000 });
    expect(calm.cliffs).toBeGreaterThanOrEqual(2);
    expect(calm.cliffs).toBeLessThanOrEqual(8);
    expect(calm.changes).toBeLessThanOrEqual(calm.cliffs);
    const warnings = calm.logs.filter((l) => /WARNING session \w+: what stays after a cliff is [\d,]+ tokens \(head [\d,]+, summary [\d,]+, tail [\d,]+\), at or over the threshold \(2,000\): cliffs come as often as the minimum gain \(2,000\) allows/.test(l));
    expect(warnings).toHaveLength(1);
    const floors = (calm.status.sessions as { floor?: { head: number; minGain: number } }[]).filter((x) => x.floor !== undefined);
    expect(floors).toHaveLength(1);
    expect(floors[0].floor!.head).toBeGreaterThan(2000);
    expect(floors[0].floor!.minGain).toBe(2000);
  });

  it("a head under the threshold with room for the gain gives no warning", async () => {
    const logs: string[] = [];
    const p = await proxyWith({ thresholdTokens: 4000, keepRecent: 1, minGainTokens: 400 }, logs);
    for (const b of requests(30, "Be brief.")) await post(p, b);
    expect(p.stats.cliffs).toBeGreaterThan(0);
    await p.close();
    expect(logs.filter((l) => l.includes("within the minimum gain"))).toEqual([]);
    expect(logs.filter((l) => l.includes(" cliff "))).not.toEqual([]);
  });

  for (const cfg of [{ thresholdTokens: 2000, keepRecent: 1 }, { thresholdTokens: 2000, keepRecent: 1, minGainTokens: 1500 }, { thresholdTokens: 3000, keepRecent: 2, minGainTokens: 300 }]) {
    it(`two replicas taking turns give the upstream exactly the bytes one proxy gives (${JSON.stringify(cfg)})`, async () => {
      for (const system of [BIG_SYSTEM, "You are a coding agent."]) {
        const all = requests(36, system);
        const one = await proxyWith(cfg);
        const single = await received(async () => {
          for (const b of all) await post(one, b);
        });
        await one.close();
        const replicas = [await proxyWith(cfg), await proxyWith(cfg)];
        const alternating = await received(async () => {
          for (let i = 0; i < all.length; i++) await post(replicas[i % 2], all[i]);
        });
        expect(replicas[0].stats.requests + replicas[1].stats.requests).toBe(all.length);
        for (const r of replicas) await r.close();
        expect(alternating).toHaveLength(single.length);
        for (let i = 0; i < single.length; i++) expect(alternating[i], `request ${i + 1}`).toBe(single[i]);
        expect(single.filter((b) => b.includes(SUMMARY_HEADER)).length).toBeGreaterThan(10);
      }
    });
  }
});

async function serveLine(...flags: string[]): Promise<{ url: string; err: string; stop: () => void }> {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, ["dist/cli.mjs", "serve", "--port", "0", "--quiet", ...flags], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve did not start: " + err)), 20_000);
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
      const m = /proxy on (http:\/\/[\d.:]+)/.exec(err);
      if (m !== null && err.includes("no thrash")) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return { url, err, stop: () => child.kill("SIGTERM") };
}

describe("serve: the host default", () => {
  it("with a threshold from each model's window, the gain is a tenth of each request's threshold", async () => {
    const s = await serveLine();
    s.stop();
    expect(s.err).toContain("cliffcompaction: no thrash: after a cliff the next waits for growth of 10% of the request's threshold past what the cliff left");
    const cliffs = async (minGainShare: number | undefined): Promise<number> => {
      const p = await startProxy({ config: resolveConfig({ keepRecent: 1 }), port: 0, thresholdShare: 0.5, contextWindow: 4000, minGainShare, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" } });
      for (const b of requests(40)) await post(p, b);
      await p.close();
      return p.stats.cliffs;
    };
    const none = await cliffs(undefined);
    const whole = await cliffs(1);
    expect(none).toBeGreaterThan(30);
    expect(whole).toBeLessThanOrEqual(8);
  });

  it("takes a tenth of the threshold as the minimum gain and says so", async () => {
    const { url, err, stop } = await serveLine("--threshold", "5000");
    try {
      expect(err).toContain("cliffcompaction: no thrash: after a cliff the next waits for 500 tokens of growth past what it left (--min-gain-tokens)");
      const status = (await (await fetch(url + "/_cliff/status")).json()) as Record<string, unknown>;
      expect(status.thresholdTokens).toBe(5000);
      expect((status.config as Record<string, unknown>).minGainTokens).toBe(500);
    } finally {
      stop();
    }
  });
});

/**
 * The proxy's side of calibration and of the minimum gain: with `calibrate`, each session's ratio
 * comes from the provider's input tokens and changes only at a cliff (off, nothing changes and the
 * bodies are a fresh engine's); a session whose cliffs leave it within the minimum gain of the
 * threshold is warned about once, in the log, its cliff's event and its status.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Engine, resolveConfig, type Config } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { floorLine } from "../../proxy/observe/observer.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

let mock: MockUpstream;
let proxy: RunningProxy;
const logs: string[] = [];

async function start(cfg: Partial<Config>, ratio: number): Promise<void> {
  mock = await mockUpstream();
  // The provider counts `ratio` times the chars/4 estimate of what it was sent.
  mock.override = (r) => {
    const input = Math.round((r.body.length / 4) * ratio);
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "m", type: "message", role: "assistant", content: [{ type: "text", text: "ok" }], usage: { input_tokens: input, output_tokens: 1 } }) };
  };
  logs.length = 0;
  proxy = await startProxy({ config: resolveConfig(cfg), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l), adminToken: "calibrate-test-token-0123456789" });
}
afterEach(async () => {
  await proxy.close();
  await mock.close();
});

function history(turns: number, system = ""): Record<string, unknown> {
  const messages: unknown[] = [{ role: "user", content: "Fix the failing build in repo widgets." }];
  for (let i = 0; i < turns; i++) {
    messages.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `make ${i}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: i % 2 ? `ok ${i}` : `FAIL ${i}\n`.repeat(200) }] });
  }
  return { model: "claude-sonnet-4-5", max_tokens: 64, ...(system ? { system } : {}), messages };
}

async function grow(turns: number, session: string, system = ""): Promise<{ status: any; events: any[]; sent: string[] }> {
  const events: any[] = [];
  const sent: string[] = [];
  for (let t = 1; t <= turns; t++) {
    const before = proxy.observer.events.published;
    sent.push(JSON.stringify(history(t, system)));
    await (await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": session }, body: sent[sent.length - 1] })).arrayBuffer();
    for (let i = 0; i < 100 && proxy.observer.events.published === before; i++) await new Promise((r) => setTimeout(r, 5));
    const s: any = await (await fetch(proxy.url + "/_cliff/status")).json();
    const mine = s.sessions.find((x: any) => x.requests === t);
    events.push({ ...(await lastEvent()), calibration: mine.calibration, observed: mine.observedCalibration });
  }
  return { status: await (await fetch(proxy.url + "/_cliff/status")).json(), events, sent };
}

async function lastEvent(): Promise<any> {
  const text = await new Promise<string>((resolve) => {
    let got = "";
    void fetch(proxy.url + "/_cliff/events", { headers: { authorization: "Bearer calibrate-test-token-0123456789" } }).then(async (r) => {
      const reader = r.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        got += Buffer.from(value).toString("utf8");
        if (got.includes(": live")) break;
      }
      void reader.cancel();
      resolve(got);
    });
  });
  const lines = text.split("\n\n").filter((l) => l.startsWith("data: "));
  return JSON.parse(lines[lines.length - 1].slice(6));
}

describe("calibration, fed by the provider's input tokens", () => {
  it("changes a session's ratio only at a cliff, toward what the provider counted, within its bounds", async () => {
    await start({ thresholdTokens: 2000, keepRecent: 1, calibrate: true }, 1.6);
    const { events } = await grow(14, "cal-1");
    expect(events.some((e) => e.action === "cliff")).toBe(true);
    for (let i = 1; i < events.length; i++) {
      if (events[i].calibration !== events[i - 1].calibration) expect(events[i].action).toMatch(/^(cliff|escalate)$/);
    }
    expect(events[0].calibration).toBe(1);
    const last = events[events.length - 1];
    expect(last.calibration).toBeGreaterThan(1.2);
    expect(last.calibration).toBeLessThanOrEqual(2);
    expect(last.observed).toBeGreaterThan(1.2);
    expect(last.observed).toBeLessThanOrEqual(2);
  });

  it("off (the default): every ratio stays 1 and the upstream gets what a fresh engine sends", async () => {
    await start({ profile: "reference", thresholdTokens: 2000, keepRecent: 1 }, 1.6);
    const { events, sent } = await grow(10, "cal-2");
    expect(events.every((e) => e.calibration === 1 && e.observed === null)).toBe(true);
    expect(events.some((e) => e.action === "cliff")).toBe(true);
    const reference = new Engine(resolveConfig({ profile: "reference", thresholdTokens: 2000, keepRecent: 1 }));
    sent.forEach((body, i) => {
      const p = reference.prepare(JSON.parse(body), "anthropic");
      expect(mock.received[i].body.toString("utf8")).toBe(p.modified ? JSON.stringify(p.outgoingBody()) : body);
    });
  });
});

describe("the floor warning", () => {
  it("a session whose head alone is near the threshold is warned about once: the log, one event, its status", async () => {
    await start({ thresholdTokens: 2000, keepRecent: 1, minGainTokens: 400 }, 1);
    const system = "You are a careful engineer. ".repeat(230); // about 1,600 tokens of head
    const { status, events } = await grow(12, "floor-1", system);
    const warned = events.filter((e) => e.floor !== undefined);
    expect(warned).toHaveLength(1);
    expect(warned[0].action).toBe("cliff");
    const f = warned[0].floor;
    expect(f.head + f.summary + f.tail).toBe(f.tokens);
    expect(f.tokens).toBeGreaterThanOrEqual(f.threshold - f.minGain);
    expect(f.head).toBeGreaterThan(1500);
    expect(status.sessions[0].floor).toEqual(f);
    const lines = logs.filter((l) => l.includes("WARNING"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`session ${status.sessions[0].id}: what stays after a cliff is ${f.tokens.toLocaleString("en-US")} tokens`);
  });
});

describe("the floor warning's words", () => {
  it("at or over the threshold, or within the minimum gain of it", () => {
    const over = floorLine("abc", { tokens: 12_927, head: 10_330, summary: 2556, tail: 41, threshold: 12_000, minGain: 0 });
    expect(over).toMatch(/ WARNING session abc: what stays after a cliff is 12,927 tokens \(head 10,330, summary 2,556, tail 41\), at or over the threshold \(12,000\): cliffs come as often as the minimum gain \(0\) allows/);
    const near = floorLine("abc", { tokens: 11_500, head: 9000, summary: 2000, tail: 500, threshold: 12_000, minGain: 1200 });
    expect(near).toContain("11,500 tokens (head 9,000, summary 2,000, tail 500), within the minimum gain (1,200) of the threshold (12,000)");
  });
});

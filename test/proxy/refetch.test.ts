/**
 * Re-fetches through `serve` against a mock upstream: a session reads a file, a cliff drops it, and
 * the next request reads it again: the session's status, a `refetch` event and the metrics count one
 * re-fetch with its result's tokens; a read of a file never dropped counts none; a replica that saw
 * only the later requests (cold) counts the same; and under the recall profile the repeated call's
 * newest result stays at the next cliff (asked twice), where the reference profile drops it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, tokensOfChars } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { parsePrometheus } from "../helpers/prometheus.js";
import { eventBacklog } from "../helpers/event-backlog.js";

const TOKEN = "refetch-test-token-0123456789";
const lines = (label: string, n = 60) => Array.from({ length: n }, (_, i) => `${label} line ${i} of the output`).join("\n");
const WIDGET = lines("export function widgetToken");

interface Step {
  name: string;
  input: Record<string, unknown>;
  result: string;
}

function history(steps: Step[]): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing build in repo widgets." }];
  steps.forEach((s, i) => {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}.` }, { type: "tool_use", id: `toolu_${i}`, name: s.name, input: s.input }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: s.result }] });
  });
  return msgs;
}

const read = (path: string, result = WIDGET): Step => ({ name: "Read", input: { file_path: path }, result });
const make = (i: number): Step => ({ name: "Bash", input: { command: `make target-${i}` }, result: lines(`make target-${i}`) });

const mocks: MockUpstream[] = [];
const proxies: RunningProxy[] = [];
async function proxyWith(profile: "reference" | "recall"): Promise<{ proxy: RunningProxy; mock: MockUpstream }> {
  const mock = await mockUpstream();
  const proxy = await startProxy({ config: resolveConfig({ profile, thresholdTokens: 2500, keepRecent: 1, archive: false }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined, keepAliveMs: 50, adminToken: TOKEN });
  mocks.push(mock);
  proxies.push(proxy);
  return { proxy, mock };
}
afterAll(async () => {
  for (const p of proxies) await p.close();
  for (const m of mocks) await m.close();
});

async function post(proxy: RunningProxy, steps: Step[]): Promise<void> {
  const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: history(steps) }) });
  await r.arrayBuffer();
}
/** Each request of the session in turn, one per step: what the client sends after each tool result. */
async function replay(proxy: RunningProxy, steps: Step[], from = 1): Promise<void> {
  for (let k = from; k <= steps.length; k++) await post(proxy, steps.slice(0, k));
}
// The answer's usage is read before the session is updated: wait for the status to settle.
async function session(proxy: RunningProxy, requests: number): Promise<any> {
  for (let i = 0; i < 100; i++) {
    // With the token: the status lists re-fetched tools' names to a reader that holds it only.
    const s: any = await (await fetch(proxy.url + "/_cliff/status", { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    if (s.sessions[0]?.requests >= requests) return s.sessions[0];
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the session never showed its requests");
}
const metrics = async (proxy: RunningProxy) => parsePrometheus(await (await fetch(proxy.url + "/_cliff/metrics")).text());

const backlog = (proxy: RunningProxy): Promise<any[]> => eventBacklog(proxy.url, TOKEN);

// Read the widget, make four targets (the context crosses the threshold: a cliff drops the read), read it again, then a file never read.
const STEPS: Step[] = [read("src/widget.ts"), make(1), make(2), make(3), make(4), read("src/widget.ts"), read("src/other.ts", lines("other file"))];
const AGAIN = 6; // requests up to and including the one whose newest turn reads the widget again

describe("re-fetches through serve", () => {
  let warm: Awaited<ReturnType<typeof proxyWith>>;
  beforeAll(async () => {
    warm = await proxyWith("reference");
    await replay(warm.proxy, STEPS);
  });

  it("the status, a refetch event and the metrics count the one re-read of the dropped file, with its result's tokens", async () => {
    const s = await session(warm.proxy, STEPS.length);
    expect(s.cliffs).toBeGreaterThan(0);
    const tokens = tokensOfChars(WIDGET.length);
    expect(s.refetches.count).toBe(1);
    expect(s.refetches.tokens).toBe(tokens);
    expect(s.refetches.cliffs).toHaveLength(1);
    expect(s.refetches.cliffs[0]).toMatchObject({ count: 1, tokens, calls: [{ tool: "Read", tokens, message: 2 * (AGAIN - 1) + 1 }] });
    const events = (await backlog(warm.proxy)).filter((e) => e.action === "refetch");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "refetch", session: s.id, api: "anthropic", count: 1, tokens, calls: [{ tool: "Read", tokens }] });
    // Counts and tool names only: no path of the body shows.
    expect(JSON.stringify(events[0])).not.toContain("widget.ts");
    expect(JSON.stringify(s.refetches)).not.toContain("widget.ts");
    const m = await metrics(warm.proxy);
    expect(m.sum("cliffcompaction_refetches_total", { api: "anthropic" })).toBe(1);
    expect(m.sum("cliffcompaction_refetch_tokens_total", { api: "anthropic" })).toBe(tokens);
    const all: any = await (await fetch(warm.proxy.url + "/_cliff/status", { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(all.refetches).toEqual({ count: 1, tokens });
    // watch: the header's total and the event's line.
    const { frame } = await import("../../cli/watch/frame.js");
    const lines = frame({ url: warm.proxy.url, status: all, events: events as any, paused: false, selected: 0, problem: null, now: Date.now() }, 200, 40, true);
    expect(lines.join("\n")).toContain(`re-fetches 1 (`);
    // The web view: a column, and each cliff's list, filled by its script from the status.
    const page = await (await fetch(warm.proxy.url + "/_cliff/", { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    expect(page).toContain('<th class="num wide">re-fetches</th>');
    expect(page).toContain('<ul id="refetches"></ul>');
    expect(page).toContain("x.refetches.cliffs");
    expect(lines.some((l) => /refetch +1 call \(Read\) [\d,]+ tok after the cliff at message \d+/.test(l))).toBe(true);
  });

  it("a read of a file never dropped counts none, and a request sent again counts nothing twice", async () => {
    await post(warm.proxy, STEPS.slice(0, AGAIN));
    await post(warm.proxy, STEPS);
    const s = await session(warm.proxy, STEPS.length + 2);
    expect(s.refetches.count).toBe(1);
    const m = await metrics(warm.proxy);
    expect(m.sum("cliffcompaction_refetches_total", { api: "anthropic" })).toBe(1);
  });

  it("a cold replica that sees only the later requests counts the same re-fetch, of the same cliff", async () => {
    const cold = await proxyWith("reference");
    await replay(cold.proxy, STEPS, AGAIN);
    const c = await session(cold.proxy, STEPS.length - AGAIN + 1);
    const w = await session(warm.proxy, STEPS.length);
    expect(c.refetches.count).toBe(1);
    expect(c.refetches.tokens).toBe(w.refetches.tokens);
    expect(c.refetches.cliffs).toEqual(w.refetches.cliffs);
  });
});

describe("asked twice through serve: the repeated call's result at the next cliff", () => {
  const TEST = (label: string): Step => ({ name: "Bash", input: { command: "npm test" }, result: lines(`FAIL widget.spec ${label}`) });
  // npm test, four targets (a cliff drops the first run), npm test again (a re-fetch), then more targets up to the next cliff.
  const steps: Step[] = [TEST("first"), make(1), make(2), make(3), make(4), TEST("again"), make(5), make(6), make(7), make(8), make(9)];
  const summaries = (mock: MockUpstream): string[] =>
    mock.received.filter((r) => r.path.startsWith("/v1/messages")).map((r) => JSON.stringify(JSON.parse(r.body.toString()).messages[1] ?? null));

  it("recall keeps the newest run's output whole in the next cliff's summary; reference does not; both count the re-fetch", async () => {
    for (const profile of ["recall", "reference"] as const) {
      const p = await proxyWith(profile);
      await replay(p.proxy, steps);
      const s = await session(p.proxy, steps.length);
      expect(s.refetches.count, profile).toBe(1);
      expect(s.cliffs, profile).toBeGreaterThan(1);
      // The first cliff after the re-fetch: its summary's span holds the second run.
      const sent = summaries(p.mock);
      const next = sent.findIndex((m, k) => k >= AGAIN && m.includes("The following is a summary") && m !== sent[AGAIN - 1]);
      expect(next).toBeGreaterThan(0);
      if (profile === "recall") expect(sent[next]).toContain("FAIL widget.spec again line 59 of the output");
      else expect(sent[next]).not.toContain("FAIL widget.spec again line 59 of the output");
    }
  });
});

/**
 * Round six, case 1: what a session or an event keeps is counted in bytes and copied out of the
 * request. Eight 20 MB requests, each a session of its own, whose upstream refuses every one with
 * 401 (no valid key needed): each is cliffed, its last cliff keeps excerpts of 400 dropped results
 * of 48 KB each, and its newest turn re-fetches 16 dropped calls whose tool names are 128 KB each.
 * After a collection the heap holds little more than before them, `/_cliff/status` stays small,
 * and no name kept or published is longer than its bound.
 */
import http from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { BACKLOG_MAX_BYTES, EventHub } from "../../../proxy/observe/events.js";
import { keptText, NAME_MAX } from "../../../proxy/observe/kept.js";
import { REFETCH_CALLS, REFETCH_MESSAGES, SessionRefetches } from "../../../proxy/observe/after-cliff/index.js";
import { mockUpstream, type MockUpstream } from "../../helpers/mock-upstream.js";
import { DEEP } from "../../helpers/scale.js";

const TOKEN = "round-six-memory-token-0123456789";
// Three requests under npm test already hold about 60 MB against the 8 MB bound without the fix; test:deep sends all eight.
const REQUESTS = DEEP ? 8 : 3;
const DROPPED = 400;
const RESULT = 48 * 1024;
const REFETCHED = 16;
const NAME = 128 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await mockUpstream(600_000);
  mock.override = () => ({ status: 401, headers: { "content-type": "application/json" }, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' });
  proxy = await startProxy({ port: 0, adminToken: TOKEN, upstreams: { anthropic: mock.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

/**
 * The i-th request's bytes, made in a function of its own so no frame of the test keeps its
 * strings: a task, 16 calls with huge tool names and 400 long results (no white space, so an
 * excerpt is a plain cut of its result), then the 16 calls again as the newest turn.
 */
function hugeBody(i: number): Buffer {
  const names = Array.from({ length: REFETCHED }, (_, k) => `tool_${i}_${k}_` + "n".repeat(NAME));
  const messages: unknown[] = [{ role: "user", content: `Task ${i}: fix the build.` }];
  const calls = (tag: string) => names.map((name, k) => ({ type: "tool_use", id: `toolu_${tag}_${k}`, name, input: { query: `q${k}` } }));
  const results = (tag: string) => names.map((_, k) => ({ type: "tool_result", tool_use_id: `toolu_${tag}_${k}`, content: `r${k}` }));
  messages.push({ role: "assistant", content: calls("a") }, { role: "user", content: results("a") });
  for (let k = 0; k < DROPPED; k++) {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_b_${k}`, name: "Bash", input: { command: `make t${k}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_b_${k}`, content: `${i}.${k}:` + String.fromCharCode(97 + (k % 26)).repeat(RESULT) }] });
  }
  messages.push({ role: "assistant", content: calls("z") }, { role: "user", content: results("z") });
  return Buffer.from(JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages }));
}

/** One request on a connection of its own, as a session of its own. */
function post(i: number): Promise<number> {
  const body = hugeBody(i);
  return new Promise((resolve, reject) => {
    const req = http.request(proxy.url + "/v1/messages", { method: "POST", agent: false, headers: { "content-type": "application/json", "x-api-key": "stolen-nothing", "x-claude-code-session-id": `session-${i}`, "content-length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function settled(sessions: number): Promise<any> {
  for (let t = 0; t < 600; t++) {
    const s: any = await (await fetch(proxy.url + "/_cliff/status?sessions=1000")).json();
    if (s.sessions.length >= sessions) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the sessions never showed");
}

async function backlogText(): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = "";
    const req = http.get(proxy.url + "/_cliff/events", { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        buf += c;
        if (buf.includes(": live\n\n")) {
          req.destroy();
          resolve(buf);
        }
      });
    });
    req.on("error", reject);
  });
}

describe("round six, case 1: memory held by what sessions and events keep", () => {
  it(`${REQUESTS} requests of 20 MB refused with 401 leave under 8 MB on the heap, the status and the backlog under 256 KB, no name over ${NAME_MAX} characters`, async () => {
    expect(await post(-1)).toBe(401);
    await settled(1);
    const before = heap();
    for (let i = 0; i < REQUESTS; i++) expect(await post(i)).toBe(401);
    const status = await settled(REQUESTS + 1);
    const statusText = JSON.stringify(await (await fetch(proxy.url + "/_cliff/status?sessions=1000")).json());
    const events = await backlogText();
    const held = heap() - before;
    console.log(`round six, case 1: held ${(held / 1e6).toFixed(2)} MB after ${REQUESTS} requests; status ${statusText.length} characters; backlog ${events.length} characters`);
    expect(status.sessions.filter((s: any) => s.cliffs > 0).length).toBe(REQUESTS + 1);
    expect(held).toBeLessThan(8 * 1024 * 1024);
    expect(statusText.length).toBeLessThan(256 * 1024);
    expect(events.length).toBeLessThan(256 * 1024);
    const named: any = await (await fetch(proxy.url + "/_cliff/status?sessions=1000", { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    const tools = [...named.sessions.flatMap((s: any) => s.refetches.cliffs.flatMap((c: any) => c.calls.map((x: any) => x.tool))), ...[...events.matchAll(/"tool":"([^"]*)"/g)].map((m) => m[1])];
    expect(tools.length).toBeGreaterThanOrEqual(REQUESTS * REFETCHED);
    for (const t of tools) expect(t.length).toBeLessThanOrEqual(NAME_MAX);
  }, 600_000);

  it("a kept cut of a 64 MB text holds its own characters only", () => {
    const keep = (): string[] => Array.from({ length: 4 }, (_, i) => keptText(String.fromCharCode(65 + i).repeat(16 * 1024 * 1024) + "tail", 400));
    const before = heap();
    const kept = keep();
    expect(heap() - before).toBeLessThan(1024 * 1024);
    expect(kept.map((k) => k.length)).toEqual([400, 400, 400, 400]);
  });

  it(`the event backlog keeps at most ${BACKLOG_MAX_BYTES / 1024 / 1024} MiB, the newest events`, () => {
    const hub = new EventHub(0);
    const lines: string[] = [];
    const res = { writeHead: () => undefined, write: (l: string) => (lines.push(l), true), on: () => undefined, end: () => undefined } as any;
    for (let i = 0; i < 200; i++) hub.publish({ n: i, pad: "p".repeat(64 * 1024) });
    hub.subscribe(res);
    hub.close();
    const bytes = lines.reduce((n, l) => n + 2 * l.length, 0);
    expect(bytes).toBeLessThanOrEqual(BACKLOG_MAX_BYTES + 64);
    expect(lines.at(-2)).toContain('"n":199');
  });

  it(`a session remembers at most ${REFETCH_MESSAGES} re-fetching messages a cliff, and an event lists at most ${REFETCH_CALLS} calls`, () => {
    const r = new SessionRefetches();
    const calls = Array.from({ length: 100_000 }, (_, k) => ({ tool: "Read", tokens: 1, message: k }));
    const fresh = r.add({ cut: 10, summary: "abcd1234", count: calls.length, tokens: calls.length, calls });
    expect(fresh!.count).toBe(REFETCH_MESSAGES);
    expect(fresh!.calls).toHaveLength(REFETCH_CALLS);
    expect(r.add({ cut: 10, summary: "abcd1234", count: 1, tokens: 1, calls: [{ tool: "Read", tokens: 1, message: 200_000 }] })).toBeNull();
    expect(r.bytes()).toBeLessThan(64 * 1024);
  });
});

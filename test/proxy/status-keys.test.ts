/**
 * Status keyed by what we know: the windows table holds at most 32 entries, keyed by the model-facts
 * table's id for the request's model or `other`, no key over 64 characters. Requests whose `model`
 * holds 34 MiB of text (each of the four shapes once; four rounds under `npm run test:deep`) leave
 * nothing of it behind: the status answers 200, small, and the heap after a collection is within
 * 16 MiB of what it was before them.
 */
import http from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { windowKey, WINDOWS_SHOWN } from "../../proxy/observe/stats.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { DEEP } from "../helpers/scale.js";

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  // Sixteen 34 MiB requests take minutes on a loaded machine: the upstream outlives them.
  mock = await mockUpstream(900_000);
  proxy = await startProxy({ config: resolveConfig({ keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, thresholdShare: 0.5, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * The i-th huge model name, made in a function of its own so no frame of the test keeps it: half
 * of them a run of `[`, on which a pattern that scanned from each one would never finish.
 */
function hugeModel(i: number): string {
  const huge = i % 4 < 2 ? "m".repeat(34 * 1024 * 1024) : "[m".repeat(17 * 1024 * 1024);
  return [`${i}${huge}`, `claude-opus-5-5-${i}${huge}`, `anthropic/${huge}`, `claude-sonnet-4-5${huge}]`][i % 4];
}

/** One request on a connection of its own: a kept-alive one could meet the proxy's idle timeout between two large requests. */
async function post(model: string): Promise<number> {
  const body = Buffer.from(`{"model":${JSON.stringify(model)},"max_tokens":16,"messages":[{"role":"user","content":"hi"}]}`);
  return new Promise((resolve, reject) => {
    const req = http.request(proxy.url + "/v1/messages", { method: "POST", agent: false, headers: { "content-type": "application/json", "x-api-key": "k", "content-length": body.length } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the windows table keeps no client text", () => {
  it("keys: the model-facts id or other, at most 64 characters", () => {
    expect(windowKey("claude-sonnet-4-5-20250929")).toBe("claude-sonnet-4-5");
    expect(windowKey("anthropic/claude-opus-5-5[1m]")).toBe("claude-opus-5-5");
    expect(windowKey("my own model; rm -rf /")).toBe("other");
    expect(windowKey("claude-sonnet-4-5" + "x".repeat(10_000)).length).toBeLessThanOrEqual(64);
    // A name is read up to its first 256 characters: a million of `[m` is not scanned once per `[`.
    expect(windowKey("anthropic/" + "[m".repeat(500_000))).toBe("other");
    expect(windowKey("claude-opus-5-5" + "[m".repeat(500_000) + "]")).toBe("claude-opus-5-5");
  });

  it("requests naming 40 models: at most 32 keys, each a table id or other", async () => {
    for (const m of ["claude-sonnet-4-5", "claude-opus-5-5-20261101", ...Array.from({ length: 40 }, (_, i) => `model-${i}-${"x".repeat(200)}`)]) expect(await post(m)).toBe(200);
    const status = (await (await fetch(proxy.url + "/_cliff/status")).json()) as { windows: Record<string, unknown> };
    const keys = Object.keys(status.windows);
    expect(keys.length).toBeLessThanOrEqual(WINDOWS_SHOWN);
    expect(keys.sort()).toEqual(["claude-opus-5-5", "claude-sonnet-4-5", "other"]);
  });

  // One kept name would be 34 MiB, twice the heap's allowance: a leak shows with each shape sent once.
  const HUGE = DEEP ? 16 : 4;
  it(`${HUGE} requests with 34 MiB model strings: at most 32 keys of at most 64 characters, status 200, the heap back within 16 MiB`, async () => {
    await post("claude-sonnet-4-5");
    const before = heap();
    // The upstream answers without reading the body as JSON (its own cost is not the proxy's).
    mock.override = () => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"type":"message","role":"assistant","content":[],"usage":{"input_tokens":1,"output_tokens":1}}' });
    for (let i = 0; i < HUGE; i++) {
      expect(await post(hugeModel(i))).toBe(200);
      mock.received.length = 0;
      mock.answered.length = 0;
    }
    mock.override = undefined;
    for (let i = 0; i < 40; i++) await post(`gpt-${i}-model`);
    const r = await fetch(proxy.url + "/_cliff/status");
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text.length).toBeLessThan(200_000);
    const keys = Object.keys((JSON.parse(text) as { windows: Record<string, unknown> }).windows);
    expect(keys.length).toBeLessThanOrEqual(WINDOWS_SHOWN);
    expect(keys).toEqual(expect.arrayContaining(["other", "claude-opus-5-5", "claude-sonnet-4-5"]));
    for (const k of keys) expect(k.length).toBeLessThanOrEqual(64);
    expect((await fetch(proxy.url + "/_cliff/metrics")).status).toBe(200);
    const grown = heap() - before;
    expect(grown, `the heap grew ${(grown / 2 ** 20).toFixed(1)} MiB`).toBeLessThan(16 * 1024 * 1024);
  }, 600_000);
});

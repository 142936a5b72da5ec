/**
 * Status keyed by what we know: the windows table holds at most 32 entries, keyed by the model-facts
 * table's id for the request's model or `other`, no key over 64 characters.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { windowKey, WINDOWS_SHOWN } from "../../proxy/observe/stats.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: resolveConfig({ keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, thresholdShare: 0.5, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

async function post(model: string): Promise<number> {
  const body = `{"model":${JSON.stringify(model)},"max_tokens":16,"messages":[{"role":"user","content":"hi"}]}`;
  const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body });
  await r.arrayBuffer();
  return r.status;
}

describe("the windows table keeps no client text", () => {
  it("keys: the model-facts id or other, at most 64 characters", () => {
    expect(windowKey("claude-sonnet-4-5-20250929")).toBe("claude-sonnet-4-5");
    expect(windowKey("anthropic/claude-opus-5-5[1m]")).toBe("claude-opus-5-5");
    expect(windowKey("my own model; rm -rf /")).toBe("other");
    expect(windowKey("claude-sonnet-4-5" + "x".repeat(10_000)).length).toBeLessThanOrEqual(64);
  });

  it("requests naming 40 models: at most 32 keys, each a table id or other", async () => {
    for (const m of ["claude-sonnet-4-5", "claude-opus-5-5-20261101", ...Array.from({ length: 40 }, (_, i) => `model-${i}-${"x".repeat(200)}`)]) expect(await post(m)).toBe(200);
    const status = (await (await fetch(proxy.url + "/_cliff/status")).json()) as { windows: Record<string, unknown> };
    const keys = Object.keys(status.windows);
    expect(keys.length).toBeLessThanOrEqual(WINDOWS_SHOWN);
    expect(keys.sort()).toEqual(["claude-opus-5-5", "claude-sonnet-4-5", "other"]);
  });

});

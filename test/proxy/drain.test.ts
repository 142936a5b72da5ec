/**
 * Graceful shutdown: a proxy told to stop (`drain`, what `serve` does on SIGTERM) fails its health
 * check at once, keeps serving while a load balancer notices, then stops listening and finishes
 * the requests in flight before it closes.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy } from "../../proxy/index.js";

/** An upstream that answers each request when told to (a slow model). */
let upstream: http.Server;
let upstreamUrl = "";
const waiting: (() => void)[] = [];
beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => waiting.push(() => {
      const body = JSON.stringify({ id: "msg", type: "message", role: "assistant", content: [{ type: "text", text: "late but whole" }], usage: { input_tokens: 1, output_tokens: 1 } });
      res.writeHead(200, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }).end(body);
    }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: "hello" }] });
const post = (url: string): Promise<Response> => fetch(url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body });
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe("drain (serve on SIGTERM)", () => {
  it("fails its health check first, serves while the balancer notices, stops listening, and finishes what is in flight", async () => {
    const proxy = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: upstreamUrl } });
    expect((await fetch(proxy.url + "/_cliff/health")).status).toBe(200);
    const first = post(proxy.url);
    await until(() => waiting.length === 1);
    let drained = false;
    const draining = proxy.drain({ delayMs: 400, timeoutMs: 10_000 }).then(() => (drained = true));
    const health = await fetch(proxy.url + "/_cliff/health");
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, draining: true });
    // Still served while the balancer takes the replica out, on a connection that then closes.
    const second = post(proxy.url);
    await until(() => waiting.length === 2);
    waiting[1]();
    const r2 = await second;
    expect(r2.status).toBe(200);
    expect(r2.headers.get("connection")).toBe("close");
    await r2.text();
    await new Promise((r) => setTimeout(r, 600));
    // No longer listening; the first request still waits on its answer, and the drain on it.
    await expect(post(proxy.url)).rejects.toThrow();
    expect(drained).toBe(false);
    waiting[0]();
    const r1 = await first;
    expect(r1.status).toBe(200);
    expect(await r1.json()).toMatchObject({ content: [{ text: "late but whole" }] });
    await draining;
    expect(drained).toBe(true);
    await proxy.close();
    waiting.length = 0;
  });

  it("closes what is still in flight when the drain's time is up", async () => {
    const proxy = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: upstreamUrl } });
    const stuck = post(proxy.url).then((r) => r.text()).catch((e: Error) => e);
    await until(() => waiting.length === 1);
    const started = Date.now();
    await proxy.drain({ delayMs: 50, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await stuck).toBeInstanceOf(Error);
    await proxy.close();
    waiting.length = 0;
  });
});

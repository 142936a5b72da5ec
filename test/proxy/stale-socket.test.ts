/**
 * A kept-alive connection to the upstream that the upstream has closed (its idle timeout ran out
 * while the proxy read and decided a large body) is not the client's problem: a request whose
 * reused connection is reset before any answer goes once more on a new connection. A reset on a
 * new connection is the upstream's own answer: a 502 that names it, sent once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";

let upstream: http.Server;
let proxy: RunningProxy;
/** Requests the upstream read, by path, and how many came on a connection it had answered on before. */
const seen: { path: string; reused: boolean }[] = [];

beforeAll(async () => {
  const answered = new WeakSet<object>();
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const reused = answered.has(req.socket);
      seen.push({ path: req.url ?? "", reused });
      // A connection it answered on before is one it has given up on: as if its idle timeout had
      // run out just as the proxy sent on it. `/v1/always` resets every connection.
      if (reused || req.url === "/v1/always/messages") return void req.socket.resetAndDestroy();
      answered.add(req.socket);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg", type: "message", role: "assistant", content: [{ type: "text", text: `got ${Buffer.concat(chunks).length} bytes` }], usage: { input_tokens: 1, output_tokens: 1 } }));
    });
  });
  upstream.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: url, openai: url + "/v1" }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((r) => {
    upstream.close(() => r());
    upstream.closeAllConnections();
  });
});

const body = (text: string): string => JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: text }] });

async function post(path: string, b: string): Promise<{ status: number; text: string }> {
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: b });
  return { status: r.status, text: await r.text() };
}

describe("a reset on a kept-alive upstream connection", () => {
  it("the request goes once more on a new connection and the client gets the upstream's answer", async () => {
    seen.length = 0;
    for (let i = 0; i < 4; i++) {
      const b = body(`request ${i}`);
      const r = await post("/v1/messages", b);
      expect(r.status, r.text).toBe(200);
      expect(r.text).toContain(`got ${Buffer.byteLength(b)} bytes`);
    }
    // A new connection is kept after its answer; the next request on it meets the reset and goes
    // again on a connection of its own (not kept), so the one after opens a new kept one.
    expect(seen.map((s) => s.reused)).toEqual([false, true, false, false, true, false]);
  });

  it("a reset on a new connection is answered with a 502 naming the upstream: no second new connection", async () => {
    seen.length = 0;
    expect((await post("/v1/messages", body("kept"))).status).toBe(200);
    const r = await post("/v1/always/messages", body("x"));
    expect(r.status).toBe(502);
    expect(JSON.parse(r.text)).toMatchObject({ type: "error", error: { type: "upstream_error" } });
    expect(r.text).toContain("ECONNRESET");
    // Once on the kept connection (reset: it goes again), once on a new one (reset: the answer).
    expect(seen).toEqual([{ path: "/v1/messages", reused: false }, { path: "/v1/always/messages", reused: true }, { path: "/v1/always/messages", reused: false }]);
  });
});

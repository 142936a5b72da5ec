/**
 * Round five, item 3: a pooled connection that the upstream resets after it has read the whole
 * body and worked on it (a long non-streaming generation, a gateway's idle reset) is not "closed
 * while idle": the request is not sent again (billed and waited for twice); the client gets a 502.
 * A reset within a round trip of the body (the upstream had closed the connection as it sat in the
 * pool) still goes once more, on a new connection (test/proxy/stale-socket.test.ts).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../../core/index.js";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { STALE_WINDOW_MS } from "../../../proxy/http/upstream.js";

let upstream: http.Server;
let proxy: RunningProxy;
const seen: { text: string; reused: boolean }[] = [];

beforeAll(async () => {
  const answered = new WeakSet<object>();
  upstream = http.createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      const reused = answered.has(req.socket);
      seen.push({ text, reused });
      // On a connection it answered on before, it works on the request for a while, then the connection breaks.
      if (reused) return void setTimeout(() => req.socket.resetAndDestroy(), STALE_WINDOW_MS + 400);
      answered.add(req.socket);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "msg", type: "message", role: "assistant", content: [{ type: "text", text: "ok" }], usage: { input_tokens: 1, output_tokens: 1 } }));
    });
  });
  upstream.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  upstream.closeAllConnections();
  await new Promise((r) => upstream.close(r));
});

const post = (text: string) => fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: text }] }) });

describe("round five: a request the upstream worked on", () => {
  it("3. a pooled connection reset after the upstream worked on the body is not sent twice", async () => {
    expect((await post("first")).status).toBe(200);
    const r = await post("the long generation");
    expect(r.status).toBe(502);
    expect(await r.text()).toContain("ECONNRESET");
    expect(seen.filter((s) => s.text.includes("the long generation"))).toHaveLength(1);
  });
});

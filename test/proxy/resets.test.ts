/**
 * A client that resets its connection (an agent that gives up on a WebSocket, or is killed) must
 * never take the proxy down: the proxy serves the next request as before.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import http from "node:http";
import { connect, type AddressInfo } from "node:net";
import { startProxy, type RunningProxy } from "../../proxy/index.js";

let upstream: http.Server;
let proxy: RunningProxy;
// An error nobody handles would end a real proxy's process: each one is recorded and must not happen.
const uncaught: unknown[] = [];
const record = (e: unknown): void => void uncaught.push(e);

beforeAll(async () => {
  process.on("uncaughtException", record);
  // Answers slowly, and streams slowly, so the client can go away at either moment.
  upstream = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => {
      if (req.url?.startsWith("/v1/cut")) {
        // Half an answer, then the upstream's connection breaks.
        res.writeHead(200, { "content-type": "text/plain", "content-length": "100000" });
        res.write("x".repeat(1000));
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.writeHead(req.url?.startsWith("/v1/stream") ? 200 : 404, { "content-type": "text/plain" });
      let n = 0;
      const tick = setInterval(() => {
        if (res.destroyed || n++ > 20) {
          clearInterval(tick);
          res.end();
          return;
        }
        res.write("data: " + "x".repeat(1000) + "\n\n");
      }, 20);
    }, 150);
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxy = await startProxy({ port: 0, quiet: true, upstreams: { anthropic: url, openai: url + "/v1" } } as never);
});
afterAll(async () => {
  process.off("uncaughtException", record);
  await proxy.close();
  upstream.close();
  upstream.closeAllConnections();
});

beforeEach(() => {
  uncaught.length = 0;
});

/** Sends raw request text, then resets the connection (RST) after `afterMs`. */
function sendAndReset(text: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const s = connect(proxy.port, "127.0.0.1", () => {
      s.write(text);
      setTimeout(() => {
        s.resetAndDestroy();
        resolve();
      }, afterMs);
    });
    s.on("error", () => resolve());
  });
}

const UPGRADE = (path: string): string =>
  `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\nauthorization: Bearer k\r\n\r\n`;

async function stillServes(): Promise<void> {
  await new Promise((r) => setTimeout(r, 400));
  const status = await fetch(proxy.url + "/_cliff/status");
  expect(status.status).toBe(200);
  expect(uncaught).toEqual([]);
}

describe("an upstream whose connection breaks mid-answer", () => {
  it("on a plain request: the client's answer ends, the proxy goes on", async () => {
    await fetch(proxy.url + "/v1/cut", { headers: { authorization: "Bearer k" } }).then((r) => r.text()).catch(() => "");
    await stillServes();
  });

  it("on an upgrade attempt", async () => {
    await sendAndReset(UPGRADE("/v1/cut"), 300);
    await stillServes();
  });
});

describe("a client that resets its connection", () => {
  it("before the upstream answers a WebSocket upgrade", async () => {
    await sendAndReset(UPGRADE("/v1/responses"), 20);
    await stillServes();
  });

  it("while the upstream's answer to an upgrade streams", async () => {
    await sendAndReset(UPGRADE("/v1/stream"), 250);
    await stillServes();
  });

  it("halfway through uploading a body, compacted route or not", async () => {
    for (const path of ["/v1/messages", "/v1/files"]) {
      const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: k\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n`;
      await sendAndReset(head + '{"messages":[' + "1,".repeat(100_000), 50);
    }
    await stillServes();
  });

  it("while a plain request's answer streams", async () => {
    await sendAndReset("GET /v1/stream HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer k\r\n\r\n", 250);
    await stillServes();
  });
});

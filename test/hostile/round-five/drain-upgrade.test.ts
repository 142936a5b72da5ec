/**
 * Round five, item 2: a client that asks for a WebSocket upgrade and keeps its side of the socket
 * open (Codex does at start) holds nothing: the socket is destroyed once the refusal is written, and
 * `drain()` ends with it still connected.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { startProxy } from "../../../proxy/index.js";

const UPGRADE = "GET /v1/responses HTTP/1.1\r\nhost: 127.0.0.1\r\nupgrade: websocket\r\nconnection: upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n";

/** A client that sends the upgrade and never ends its side; resolves with what it read once the proxy ended its own. */
function halfOpen(port: number): { socket: Socket; answered: Promise<string> } {
  const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
  let got = "";
  socket.setEncoding("utf8");
  socket.on("data", (c: string) => (got += c));
  socket.on("error", () => undefined);
  socket.write(UPGRADE);
  return { socket, answered: new Promise((r) => socket.on("end", () => r(got))) };
}

describe("round five: drain behind an upgraded socket", () => {
  it("2. drain ends while a client holds a half-open upgraded socket", async () => {
    // An upstream nobody listens on: the upgrade is answered 502 at once.
    const proxy = await startProxy({ port: 0, upstreams: { openai: "http://127.0.0.1:9" } });
    const client = halfOpen(proxy.port);
    expect(await client.answered).toMatch(/^HTTP\/1\.1 50\d/);
    const second = halfOpen(proxy.port);
    await second.answered;
    const ended = await Promise.race([proxy.drain({ delayMs: 0, timeoutMs: 60_000 }).then(() => "drained"), new Promise((r) => setTimeout(() => r("waiting"), 4_000))]);
    expect(ended).toBe("drained");
    client.socket.destroy();
    second.socket.destroy();
  });
});

/**
 * Listeners on loopback addresses other than the configured upstreams' (127.0.0.2, 127.0.0.3,
 * [::1]) that count every connection they get: a request target that chose its own host would
 * reach one of them. Names do not resolve offline, so only address literals can show a leak.
 */
import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";

export interface Decoy {
  host: string;
  port: number;
  /** host:port as a URL authority ([::1]:port for IPv6). */
  authority: string;
  connections: number;
}

export interface Decoys {
  all: Decoy[];
  total(): number;
  close(): Promise<void>;
}

export async function decoys(hosts = ["127.0.0.2", "127.0.0.3", "::1"], lifetimeMs = 120_000): Promise<Decoys> {
  const servers: Server[] = [];
  const all: Decoy[] = [];
  for (const host of hosts) {
    const d: Decoy = { host, port: 0, authority: "", connections: 0 };
    const server = createServer((socket) => {
      d.connections++;
      socket.end("HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\ndecoy");
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    d.port = (server.address() as AddressInfo).port;
    d.authority = host.includes(":") ? `[${host}]:${d.port}` : `${host}:${d.port}`;
    servers.push(server);
    all.push(d);
    setTimeout(() => server.close(), lifetimeMs).unref();
  }
  return {
    all,
    total: () => all.reduce((n, d) => n + d.connections, 0),
    close: () => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => undefined),
  };
}

/**
 * Who may use the proxy. It holds no keys of its own but forwards the client's, so a web page must
 * not be able to drive it: a `Host` that is not one of the proxy's own addresses (a DNS-rebinding
 * page's name) is refused unless the user allowed that name, and a browser's `Origin` is refused on
 * the routes that read bodies and on the proxy's own endpoints (no browser client exists for these APIs).
 */
import type { IncomingHttpHeaders } from "node:http";
import { networkInterfaces } from "node:os";

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

/** The name in a Host header, lowercase, without its port or an IPv6 literal's brackets; null when it is not one. */
export function hostName(host: string): string | null {
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) {
    const end = h.indexOf("]");
    if (end < 0 || (end + 1 < h.length && !/^:\d+$/.test(h.slice(end + 1)))) return null;
    return h.slice(1, end);
  }
  const m = /^([^:]*)(?::\d+)?$/.exec(h);
  return m === null || m[1] === "" ? null : m[1];
}

export class HostGuard {
  private readonly names = new Set<string>();

  /** `bind` is the address listened on; `allowed` the names the user allowed (with or without a port). */
  constructor(bind: string, allowed: readonly string[]) {
    for (const n of LOOPBACK) this.names.add(n);
    const own = hostName(bind);
    if (own !== null && !WILDCARD.has(bind)) this.names.add(own);
    if (WILDCARD.has(bind)) {
      // Listening everywhere: the machine's own addresses are its addresses too (an address literal cannot be rebound).
      for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) this.names.add(a.address.toLowerCase());
    }
    for (const a of allowed) {
      const n = hostName(a);
      if (n !== null) this.names.add(n);
    }
  }

  /** True when the Host header names the proxy (no Host at all is an HTTP/1.0 client, not a browser). */
  allows(host: string | undefined): boolean {
    if (host === undefined) return true;
    const n = hostName(host);
    return n !== null && this.names.has(n);
  }
}

/** A browser says where the page that sent the request came from; API clients do not. */
export const fromBrowser = (headers: IncomingHttpHeaders): boolean => headers.origin !== undefined;

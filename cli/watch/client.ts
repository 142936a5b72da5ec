/** What `watch` asks a running proxy: its status, a session's last cliff, and its event stream. */
import http from "node:http";
import type { WatchEvent } from "./frame.js";

/** A request to the proxy that failed: no proxy answers, or it answered with an error. */
export class ProxyUnreachable extends Error {}

function why(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** GET a JSON document from the proxy, within `timeoutMs`. */
export function getJson(base: string, path: string, headers: Record<string, string> = {}, timeoutMs = 3000): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.get(base + path, { timeout: timeoutMs, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => {
        let v: unknown;
        try {
          v = JSON.parse(text);
        } catch {
          return reject(new ProxyUnreachable(`${base} answered ${path} with something that is not JSON; is it a cliffcompaction proxy?`));
        }
        if ((res.statusCode ?? 0) >= 400) return reject(new ProxyUnreachable(`${base}${path}: ${res.statusCode} ${(v as { error?: string }).error ?? ""}`.trim()));
        resolve(v);
      });
      res.on("error", (e) => reject(new ProxyUnreachable(`${base}: ${why(e)}`)));
    });
    req.on("timeout", () => req.destroy(new Error("no answer in time")));
    req.on("error", (e) => reject(new ProxyUnreachable(`no proxy answers at ${base} (${why(e)})`)));
  });
}

export interface EventStream {
  close(): void;
}

/**
 * Follows /_cliff/events: `onEvent` for each event, `onLive` once the backlog has been read, and
 * `onEnd` when the stream ends or cannot be opened.
 */
export function followEvents(base: string, headers: Record<string, string>, handlers: { onEvent: (e: WatchEvent) => void; onLive: () => void; onEnd: (why: string) => void }): EventStream {
  let buffer = "";
  let ended = false;
  const end = (reason: string): void => {
    if (ended) return;
    ended = true;
    handlers.onEnd(reason);
  };
  const req = http.get(base + "/_cliff/events", { headers }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      return end(`the event stream answered ${res.statusCode}`);
    }
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (block.startsWith("data: ")) {
          try {
            handlers.onEvent(JSON.parse(block.slice(6)) as WatchEvent);
          } catch {
            // not an event of ours: skipped
          }
        } else if (block === ": live") handlers.onLive();
      }
    });
    res.on("end", () => end("the proxy closed the event stream"));
    res.on("error", (e) => end(why(e)));
  });
  req.on("error", (e) => end(why(e)));
  return { close: () => req.destroy() };
}

/** What `watch` asks a running proxy: its status, a session's last cliff, and its event stream. */
import http from "node:http";
import type { WatchEvent } from "./frame.js";

/** A request to the proxy that failed: no proxy answers, or it answered with an error. */
export class ProxyUnreachable extends Error {}

function why(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/**
 * What one answer or one event may hold. The proxy's largest answers (a status of 100 sessions, a
 * last cliff) are a few MiB; whoever else holds the port may send anything, endlessly.
 */
export const READ_MAX_BYTES = 32 * 1024 * 1024;

/**
 * GET a JSON document from the proxy: silent for at most `timeoutMs`, done within `totalMs` (a
 * trickled answer never goes silent) and within READ_MAX_BYTES.
 */
export function getJson(base: string, path: string, headers: Record<string, string> = {}, timeoutMs = 3000, totalMs = 15_000): Promise<any> {
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => req.destroy(new Error(`no whole answer in ${totalMs / 1000} s`)), totalMs);
    const req = http.get(base + path, { timeout: timeoutMs, headers }, (res) => {
      let text = "";
      let bytes = 0;
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        bytes += Buffer.byteLength(c);
        if (bytes > READ_MAX_BYTES) {
          clearTimeout(deadline);
          res.destroy();
          return reject(new ProxyUnreachable(`${base} answered ${path} with more than ${READ_MAX_BYTES / 1024 / 1024} MiB; is it a cliffcompaction proxy?`));
        }
        text += c;
      });
      res.on("end", () => {
        clearTimeout(deadline);
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
    req.on("error", (e) => {
      clearTimeout(deadline);
      reject(new ProxyUnreachable(`no proxy answers at ${base} (${why(e)})`));
    });
    req.on("close", () => clearTimeout(deadline));
  });
}

export interface EventStream {
  close(): void;
}

/** Silence after which an event stream is taken as dead: the proxy comments every 15 s. */
export const EVENTS_SILENT_MS = 60_000;

/**
 * Splits an event stream into its blocks (separated by a blank line) in linear time: each chunk is
 * searched once, and an unfinished block is kept as pieces, joined only when it ends. False once
 * an unfinished block passes READ_MAX_BYTES.
 */
class Blocks {
  private pending: string[] = [];
  private pendingLength = 0;

  constructor(private readonly onBlock: (block: string) => void) {}

  push(chunk: string): boolean {
    let pos = 0;
    // A blank line split across chunks: the pending text's last "\n" and this chunk's first.
    if (this.pendingLength > 0 && chunk[0] === "\n" && this.pending[this.pending.length - 1].endsWith("\n")) {
      pos = 1;
      this.onBlock(this.take("").slice(0, -1));
    }
    for (let at = chunk.indexOf("\n\n", pos); at >= 0; at = chunk.indexOf("\n\n", pos)) {
      const block = this.take(chunk.slice(pos, at));
      pos = at + 2;
      this.onBlock(block);
    }
    if (pos < chunk.length) {
      this.pending.push(chunk.slice(pos));
      this.pendingLength += chunk.length - pos;
    }
    return this.pendingLength <= READ_MAX_BYTES;
  }

  /** The pending block with `last` after it; nothing pending after. */
  private take(last: string): string {
    const block = this.pendingLength === 0 ? last : this.pending.join("") + last;
    this.pending = [];
    this.pendingLength = 0;
    return block;
  }
}

/**
 * Follows /_cliff/events: `onEvent` for each event, `onLive` once the backlog has been read, and
 * `onEnd` when the stream ends or cannot be opened, when one event grows past READ_MAX_BYTES, or
 * after EVENTS_SILENT_MS of silence.
 */
export function followEvents(base: string, headers: Record<string, string>, handlers: { onEvent: (e: WatchEvent) => void; onLive: () => void; onEnd: (why: string) => void }): EventStream {
  let ended = false;
  const end = (reason: string): void => {
    if (ended) return;
    ended = true;
    handlers.onEnd(reason);
  };
  const blocks = new Blocks((block) => {
    if (ended) return;
    if (block.startsWith("data: ")) {
      try {
        handlers.onEvent(JSON.parse(block.slice(6)) as WatchEvent);
      } catch {
        // not an event of ours: skipped
      }
    } else if (block === ": live") handlers.onLive();
  });
  const req = http.get(base + "/_cliff/events", { headers, timeout: EVENTS_SILENT_MS }, (res) => {
    if (res.statusCode !== 200) {
      res.resume();
      return end(`the event stream answered ${res.statusCode}`);
    }
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      if (ended || blocks.push(chunk)) return;
      req.destroy();
      end(`an event of more than ${READ_MAX_BYTES / 1024 / 1024} MiB; is it a cliffcompaction proxy?`);
    });
    res.on("end", () => end("the proxy closed the event stream"));
    res.on("error", (e) => end(why(e)));
  });
  req.on("timeout", () => {
    req.destroy();
    end(`the event stream was silent for ${EVENTS_SILENT_MS / 1000} s`);
  });
  req.on("error", (e) => end(why(e)));
  return { close: () => req.destroy() };
}

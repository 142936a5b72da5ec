/**
 * `GET /_cliff/events`: server-sent events, one `data: {json}` line per compactable request when
 * its exchange ends. A new subscriber first gets the backlog (the last 1,024 events, oldest first,
 * and no more than BACKLOG_MAX_BYTES of them),
 * then the comment `: live`, then each event as it happens. A subscriber that reads slower than
 * events come has a bounded queue: past it, events are dropped and counted (its own count is sent
 * as a comment when it catches up). Comments every `keepAliveMs` keep idle connections open.
 * Events carry counts and names only: never a body's text nor a header's value. At most
 * `MAX_SUBSCRIBERS` read at once (each holds a socket, a queue and a backlog's worth of writes):
 * one more gets 503 and one line.
 */
import type { ServerResponse } from "node:http";

export const BACKLOG = 1024;
/** What the backlog may hold (two bytes a character): the newest events within it are kept. */
export const BACKLOG_MAX_BYTES = 2 * 1024 * 1024;
/** Events a subscriber may have waiting beyond what its socket took. */
export const SUBSCRIBER_QUEUE = 256;
export const MAX_SUBSCRIBERS = 32;

class Subscriber {
  private readonly queue: string[] = [];
  private waiting = false;
  dropped = 0;
  private reported = 0;

  constructor(readonly res: ServerResponse, private readonly hub: EventHub) {
    res.on("drain", () => this.flush());
  }

  /** The backlog: written whole (it is bounded), whatever the socket took. */
  sendAll(lines: readonly string[]): void {
    for (const line of lines) if (!this.res.write(line)) this.waiting = true;
  }

  send(line: string): void {
    if (this.waiting) {
      if (this.queue.length >= this.hub.queueLimit) {
        this.dropped++;
        this.hub.dropped++;
        return;
      }
      this.queue.push(line);
      return;
    }
    this.waiting = !this.res.write(line);
  }

  private flush(): void {
    this.waiting = false;
    while (this.queue.length > 0 && !this.waiting) this.waiting = !this.res.write(this.queue.shift()!);
    if (!this.waiting && this.dropped > this.reported) {
      this.reported = this.dropped;
      this.waiting = !this.res.write(`: dropped ${this.dropped}\n\n`);
    }
  }
}

export class EventHub {
  private readonly backlog: string[] = [];
  private backlogBytes = 0;
  private readonly subscribers = new Set<Subscriber>();
  /** Events dropped for slow subscribers, over all of them. */
  dropped = 0;
  published = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly keepAliveMs = 15_000, readonly queueLimit = SUBSCRIBER_QUEUE, private readonly backlogSize = BACKLOG, private readonly backlogMaxBytes = BACKLOG_MAX_BYTES) {}

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  publish(event: Record<string, unknown>): void {
    const line = `data: ${JSON.stringify(event)}\n\n`;
    this.published++;
    this.backlog.push(line);
    this.backlogBytes += 2 * line.length;
    while (this.backlog.length > this.backlogSize || (this.backlogBytes > this.backlogMaxBytes && this.backlog.length > 0)) this.backlogBytes -= 2 * this.backlog.shift()!.length;
    for (const s of this.subscribers) s.send(line);
  }

  /** Answers a GET /_cliff/events: the stream stays open until the client leaves or the proxy closes. */
  subscribe(res: ServerResponse): void {
    if (this.subscribers.size >= MAX_SUBSCRIBERS) {
      const line = `cliffcompaction: the event stream has ${MAX_SUBSCRIBERS} readers already, its most; close one and try again\n`;
      res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "content-length": String(Buffer.byteLength(line)), "retry-after": "5" });
      return void res.end(line);
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    const s = new Subscriber(res, this);
    s.sendAll([...this.backlog, ": live\n\n"]);
    this.subscribers.add(s);
    res.on("close", () => {
      this.subscribers.delete(s);
      if (this.subscribers.size === 0) this.stopKeepAlive();
    });
    if (this.timer === null && this.keepAliveMs > 0) {
      this.timer = setInterval(() => {
        for (const sub of this.subscribers) sub.send(": keep-alive\n\n");
      }, this.keepAliveMs);
      this.timer.unref();
    }
  }

  /** Ends every subscriber's stream (the proxy is closing). */
  close(): void {
    this.stopKeepAlive();
    for (const s of this.subscribers) s.res.end();
    this.subscribers.clear();
  }

  private stopKeepAlive(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * The model API behind the replicas in test:deploy: one listener per replica on 127.0.0.1 (so it
 * knows which replica sent each request), Anthropic Messages answers (streamed when asked), every
 * request recorded with the `x-test-seq` its client gave it. It can hold one request's answer (to
 * kill the replica waiting on it) and refuse requests with an error the proxy did not foresee.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface Arrival {
  /** Which listener (replica) it came through. */
  listener: number;
  seq: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The answer's status. */
  status: number;
}

const event = (type: string, data: unknown): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...(data as object) })}\n\n`;

function answer(stream: boolean): { type: string; body: string } {
  const usage = { input_tokens: 1000, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, output_tokens: 5 };
  const message = { id: "msg_deploy", type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [{ type: "text", text: "Done." }], stop_reason: "end_turn", stop_sequence: null, usage };
  if (!stream) return { type: "application/json", body: JSON.stringify(message) };
  return {
    type: "text/event-stream",
    body: event("message_start", { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } })
      + event("content_block_start", { index: 0, content_block: { type: "text", text: "" } })
      + event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Done." } })
      + event("content_block_stop", { index: 0 })
      + event("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } })
      + event("message_stop", {}),
  };
}

export interface DeployUpstream {
  urls: string[];
  arrivals: Arrival[];
  /** When it returns a message, the request is answered 400 with it (an `invalid_request_error` the proxy did not foresee). */
  refuse: ((a: Arrival) => string | null) | null;
  /** Holds the answer to the request with this `seq`: `arrived` gives the listener it came through; `release` answers it. */
  hold(seq: number): { arrived: Promise<number>; release: () => void };
  close(): Promise<void>;
}

export async function deployUpstream(listeners: number, lifetimeMs = 900_000): Promise<DeployUpstream> {
  const holds = new Map<number, { arrive: (listener: number) => void; released: Promise<void> }>();
  const servers: http.Server[] = [];
  const up: DeployUpstream = {
    urls: [], arrivals: [], refuse: null,
    hold(seq) {
      let arrive!: (l: number) => void;
      let release!: () => void;
      const arrived = new Promise<number>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      holds.set(seq, { arrive, released });
      return { arrived, release };
    },
    close: async () => {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
  for (let i = 0; i < listeners; i++) {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const a: Arrival = { listener: i, seq: Number(req.headers["x-test-seq"] ?? -1), headers: req.headers, body, status: 200 };
        up.arrivals.push(a);
        const held = holds.get(a.seq);
        if (held !== undefined) {
          holds.delete(a.seq);
          held.arrive(i);
          await held.released;
        }
        const refusal = up.refuse?.(a) ?? null;
        if (refusal !== null) {
          a.status = 400;
          const text = JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: refusal } });
          return void res.writeHead(400, { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }).end(text);
        }
        let stream = false;
        try {
          stream = JSON.parse(body).stream === true;
        } catch {
          // not JSON: answered as if not streaming
        }
        const { type, body: text } = answer(stream);
        // A header of the provider's own, which every hop must pass back to the client.
        res.writeHead(200, { "content-type": type, "content-length": String(Buffer.byteLength(text)), "request-id": `req_deploy_${a.seq}` }).end(text);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    up.urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  setTimeout(() => void up.close(), lifetimeMs).unref();
  return up;
}

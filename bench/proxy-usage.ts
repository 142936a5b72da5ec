/**
 * Reading the provider's usage from answers: what the reader costs per answer (p50 over recorded
 * answers of each API, streamed in network-sized pieces; target ≤ 0.2 ms), and the time to the
 * first byte of a streamed answer through the proxy (usage read) against the same proxy as a plain
 * relay (nothing read), for each API (target: equal within noise).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { startProxy } from "../proxy/index.js";
import { UsageTap } from "../proxy/observe/usage.js";
import { fmt } from "./util.js";

const sse = (events: Record<string, unknown>[], named: boolean, done = false): string =>
  events.map((e) => `${named ? `event: ${e.type as string}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");

const words = (n: number): string[] => Array.from({ length: n }, (_, i) => (i ? " " : "") + ["the", "build", "fails", "in", "widgets", "because"][i % 6]);

/** Answers as each API streams them: 400 text deltas (about 40 KB) and the usage where each API puts it. */
function answers(): Record<string, string> {
  const deltas = words(400);
  return {
    anthropic: sse([
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { input_tokens: 12, cache_creation_input_tokens: 3400, cache_read_input_tokens: 51200, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ...deltas.map((t) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: t } })),
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 400 } },
      { type: "message_stop" },
    ], true),
    "openai-chat": sse([
      ...deltas.map((t) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-5", choices: [{ index: 0, delta: { content: t }, finish_reason: null }] })),
      { id: "c1", object: "chat.completion.chunk", created: 1, model: "gpt-5", choices: [], usage: { prompt_tokens: 2000, completion_tokens: 400, prompt_tokens_details: { cached_tokens: 1536 } } },
    ], false, true),
    "openai-responses": sse([
      { type: "response.created", sequence_number: 0, response: { id: "r1", status: "in_progress", output: [], usage: null } },
      ...deltas.map((t, i) => ({ type: "response.output_text.delta", sequence_number: i + 1, item_id: "m1", output_index: 0, content_index: 0, delta: t })),
      { type: "response.completed", sequence_number: 999, response: { id: "r1", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: deltas.join("") }] }], usage: { input_tokens: 8000, input_tokens_details: { cached_tokens: 6000 }, output_tokens: 400 } } },
    ], true),
  };
}

const pct = (xs: number[], p: number): number => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

function pieces(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function readerCost(label: string, chunks: Buffer[], encoding: string | undefined): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < 1200; run++) {
    const t0 = performance.now();
    const tap = new UsageTap("text/event-stream", encoding);
    for (const c of chunks) tap.push(c);
    tap.end();
    const u = await tap.done;
    if (run >= 200) times.push(performance.now() - t0);
    if (u === null) throw new Error(`${label}: no usage read`);
  }
  const p50 = pct(times, 0.5);
  console.log(`  ${label.padEnd(44)} reading usage p50 ${fmt(p50)} p99 ${fmt(pct(times, 0.99))} (target ≤ 0.2 ms) ${p50 <= 0.2 ? "✔" : "✘"}`);
}

/** An upstream that sends the first event at once and the rest 5 ms later. */
function upstream(bodies: Record<string, string>): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const api = req.url!.includes("chat") ? "openai-chat" : req.url!.includes("responses") ? "openai-responses" : "anthropic";
      const body = bodies[api];
      const cut = body.indexOf("\n\n") + 2;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(body.slice(0, cut));
      setTimeout(() => res.end(body.slice(cut)), 5);
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

/** Milliseconds to the first byte of the answer's body. */
function firstByte(base: string, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(base + path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", authorization: "Bearer k" } }, (res) => {
      res.once("data", () => resolve(performance.now() - t0));
      res.resume();
    });
    req.on("error", reject);
    req.end(body);
  });
}

const PATHS: Record<string, string> = { anthropic: "/v1/messages", "openai-chat": "/v1/chat/completions", "openai-responses": "/v1/responses" };

async function timeToFirstByte(bodies: Record<string, string>): Promise<void> {
  const up = await upstream(bodies);
  const upstreams = { anthropic: up.url, openai: up.url + "/v1" };
  const reading = await startProxy({ port: 0, upstreams });
  // The same proxy with a compaction limit of 0 relays every body untouched and reads nothing.
  const relay = await startProxy({ port: 0, compactLimitBytes: 0, upstreams });
  for (const api of Object.keys(PATHS)) {
    const request = JSON.stringify(api === "openai-responses" ? { model: "gpt-5", stream: true, input: [{ role: "user", content: "hi" }] } : { model: "m", stream: true, max_tokens: 64, messages: [{ role: "user", content: "hi" }] });
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 300; i++) {
      b.push(await firstByte(relay.url, PATHS[api], request));
      a.push(await firstByte(reading.url, PATHS[api], request));
    }
    const diff = pct(a.slice(50), 0.5) - pct(b.slice(50), 0.5);
    const noise = pct(b.slice(50), 0.75) - pct(b.slice(50), 0.25);
    console.log(`  ${`time to first byte, ${api} SSE`.padEnd(44)} usage read p50 ${fmt(pct(a.slice(50), 0.5))}; plain relay p50 ${fmt(pct(b.slice(50), 0.5))}; difference ${fmt(diff)} (relay's interquartile range ${fmt(noise)}) ${Math.abs(diff) <= Math.max(noise, 0.05) ? "✔" : "✘"}`);
  }
  await reading.close();
  await relay.close();
  up.close();
}

export async function benchUsage(): Promise<void> {
  console.log("proxy: reading the provider's usage from each answer as it streams past");
  for (const [api, text] of Object.entries(answers())) {
    const bytes = Buffer.from(text, "utf8");
    await readerCost(`${api} SSE, ${Math.round(bytes.length / 1024)} KB in 1.4 KB pieces`, pieces(bytes, 1400), undefined);
    await readerCost(`${api} SSE, gzip`, pieces(gzipSync(bytes), 1400), "gzip");
  }
  await timeToFirstByte(answers());
}

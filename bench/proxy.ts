/**
 * Proxy benchmarks: the time the proxy adds to a request (p50, p99) over a plain pass-through of
 * the same bytes, for 100 KB and 1 MB histories and for a growing session, against a local upstream.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { startProxy } from "../proxy/index.js";
import { anthropicSession } from "./sessions.js";
import { fmt } from "./util.js";

function upstream(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

async function post(url: string, body: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body });
  await r.text();
  return performance.now() - t0;
}

const pct = (xs: number[], p: number): number => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/**
 * The second bound: one JSON.parse + JSON.stringify of the body, from its bytes to bytes (a proxy
 * receives and sends bytes, so parsing the body includes decoding its UTF-8). Fastest of several.
 */
function parseAndStringify(body: string): number {
  const bytes = Buffer.from(body, "utf8");
  let best = Infinity;
  for (let i = 0; i < 15; i++) {
    const t0 = performance.now();
    Buffer.from(JSON.stringify(JSON.parse(bytes.toString("utf8"))), "utf8");
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

async function overhead(label: string, bodies: string[], threshold: number, rounds: number, target: number, profile: "recall" | "reference" = "recall"): Promise<void> {
  const up = await upstream();
  const through = await startProxy({ port: 0, config: { profile, thresholdTokens: threshold, keepRecent: 3 } as never, upstreams: { anthropic: up.url, openai: up.url } });
  // The same proxy with a compaction limit of 0 streams every body through untouched: the pass-through.
  const relay = await startProxy({ port: 0, compactLimitBytes: 0, quiet: true, upstreams: { anthropic: up.url, openai: up.url } } as never);
  const direct: number[] = [];
  const proxied: number[] = [];
  const relayed: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const b of bodies) {
      direct.push(await post(up.url, b));
      relayed.push(await post(relay.url, b));
      proxied.push(await post(through.url, b));
    }
  }
  await through.close();
  await relay.close();
  up.close();
  const added = (p: number) => Math.max(0, pct(proxied, p) - pct(direct, p));
  const beyondRelay = Math.max(0, pct(proxied, 0.5) - pct(relayed, 0.5));
  const codec = parseAndStringify(bodies[bodies.length - 1]);
  const ok = added(0.5) <= target ? "✔" : "✘";
  console.log(
    `  ${label.padEnd(44)} direct p50 ${fmt(pct(direct, 0.5))} p99 ${fmt(pct(direct, 0.99))}; through the proxy p50 ${fmt(pct(proxied, 0.5))} p99 ${fmt(pct(proxied, 0.99))}; ` +
      `added p50 ${fmt(added(0.5))} (target ≤ ${target} ms) ${ok} p99 ${fmt(added(0.99))}\n` +
      `  ${"".padEnd(44)} beyond a pass-through relay (p50 ${fmt(pct(relayed, 0.5))}): ${fmt(beyondRelay)}; one JSON.parse + JSON.stringify of the largest body, bytes to bytes, ${fmt(codec)} ${beyondRelay <= codec ? "✔" : "✘"}`,
  );
}

export async function benchProxy(): Promise<void> {
  console.log("proxy: time added per request over a pass-through of the same bytes (targets: ≤ 2 ms p50 at 100 KB, ≤ 10 ms at 1 MB)");
  for (const [label, bytes] of [["100 KB history, under the threshold", 1e5], ["1 MB history, under the threshold", 1e6]] as const) {
    const body = JSON.stringify({ model: "m", max_tokens: 64, messages: anthropicSession(bytes) });
    await overhead(label, [body], 1 << 30, 60, bytes < 5e5 ? 2 : 10);
  }
  for (const [label, bytes] of [["100 KB history, compacted every request", 1e5], ["1 MB history, compacted every request", 1e6]] as const) {
    const body = JSON.stringify({ model: "m", max_tokens: 64, messages: anthropicSession(bytes) });
    // The default (recall) profile, then the reference profile beside it.
    for (const profile of ["recall", "reference"] as const) await overhead(`${label}, ${profile === "recall" ? "default" : "reference"}`, [body], Math.floor(bytes / 16), 60, bytes < 5e5 ? 2 : 10, profile);
  }
  const full = anthropicSession(1e6);
  const growing: string[] = [];
  for (let n = 41; n <= full.length; n += 2) growing.push(JSON.stringify({ model: "m", max_tokens: 64, messages: full.slice(0, n) }));
  await overhead(`growing session, ${growing.length} requests to 1 MB`, growing, 60_000, 1, 10);
}

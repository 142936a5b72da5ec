/**
 * Memory of the proxy with many sessions at once: SESSIONS clients, each sending one growing
 * session of REQUESTS requests in turn (a history up to BYTES), all at the same time, through a
 * proxy in its own process. Prints the heap after a full collection and the RSS, at their peak
 * under load and once idle, against what docs/team.md states.
 */
import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { anthropicSession } from "./sessions.js";

const SESSIONS = 200;
const REQUESTS = 100;
const BYTES = 200_000;
const THRESHOLD = 30_000;
const MiB = 2 ** 20;

interface Figures { rss: number; heapUsed: number; heapTotal: number; external: number; peakRss: number; memo: number; store: number }

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

/** One session's requests, made one at a time as it grows (two hundred whole sessions at once would be gigabytes of text). */
function* requests(seed: number): Generator<string> {
  const full = anthropicSession(BYTES, seed);
  for (let i = 1; i <= REQUESTS; i++) yield JSON.stringify({ model: "m", max_tokens: 64, system: `session ${seed}`, messages: full.slice(0, Math.max(1, Math.round((full.length * i) / REQUESTS)) | 1) });
}

export async function benchMemory(): Promise<void> {
  const up = await upstream();
  const child = fork(fileURLToPath(new URL("./memory-child.ts", import.meta.url)), [up.url, String(THRESHOLD)], { execArgv: [...process.execArgv, "--expose-gc"] });
  const ask = (m: string): Promise<Figures> => new Promise((resolve) => {
    child.once("message", (v) => resolve(v as Figures));
    child.send(m);
  });
  const { url } = await new Promise<{ url: string }>((resolve) => child.once("message", (v) => resolve(v as { url: string })));
  const agent = new http.Agent({ keepAlive: true, maxSockets: SESSIONS });
  const post = (body: string): Promise<void> => new Promise((resolve, reject) => {
    const req = http.request(url + "/v1/messages", { method: "POST", agent, headers: { "content-type": "application/json", "x-api-key": "k" } }, (res) => {
      res.resume();
      res.on("end", () => resolve());
    });
    req.on("error", reject);
    req.end(body);
  });
  let busiest: Figures | null = null;
  const sample = setInterval(() => void ask("measure").then((f) => {
    if (busiest === null || f.rss > busiest.rss) busiest = f;
  }), 2000);
  const t0 = Date.now();
  await Promise.all(Array.from({ length: SESSIONS }, async (_, s) => {
    for (const body of requests(s + 1)) await post(body);
  }));
  clearInterval(sample);
  const end = await ask("measure");
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await ask("measure");
  child.send("stop");
  agent.destroy();
  up.close();
  const mb = (v: number): string => `${Math.round(v / MiB)} MiB`;
  const b = busiest ?? end;
  console.log(`memory: ${SESSIONS} sessions at once, ${SESSIONS * REQUESTS} requests (histories to ${BYTES / 1000} KB, threshold ${THRESHOLD}), proxy in its own process, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`  under load: RSS ${mb(b.rss)} (peak ${mb(Math.max(b.peakRss, idle.peakRss))}), heap after a collection ${mb(b.heapUsed)} of ${mb(b.heapTotal)} held, external ${mb(b.external)}`);
  console.log(`  idle after: RSS ${mb(idle.rss)}, heap after a collection ${mb(idle.heapUsed)} of ${mb(idle.heapTotal)} held (memo ${mb(idle.memo)}, store ${mb(idle.store)}), external ${mb(idle.external)}`);
  const bound = 450 * MiB + 5 * SESSIONS * BYTES;
  const peak = Math.max(b.peakRss, idle.peakRss, b.rss);
  console.log(`  docs/team.md's bound: RSS ≤ 450 MiB + 5 × the bytes in flight (here ≤ ${mb(bound)}) ${peak <= bound ? "✔" : "✘"}; idle ≤ 450 MiB ${idle.rss <= 450 * MiB ? "✔" : "✘"}; heap after a collection ≤ memo + store + sessions + in flight ${idle.heapUsed <= idle.memo + idle.store + 40 * MiB ? "✔" : "✘"}`);
}

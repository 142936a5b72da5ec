/**
 * Memory of a replica: `node dist/cli.mjs serve` (the built CLI, default memo and store bounds) in
 * a process of its own, SESSIONS clients each sending one growing session of REQUESTS requests
 * (a history up to BYTES) all at once. RSS is read from /proc every quarter second under load and
 * once idle (IDLE_S seconds after the load, when V8 and the allocator have given back what they
 * give back); a probe loaded into the process reports the heap after a full collection. RUNS runs,
 * the median of each figure printed against the targets (docs/team.md).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { anthropicSession } from "./sessions.js";
import { proxyUrl } from "./util.js";

const SESSIONS = 200;
const REQUESTS = Number(process.env.CLIFF_BENCH_MEMORY_REQUESTS ?? 100);
const RUNS = Number(process.env.CLIFF_BENCH_MEMORY_RUNS ?? 3);
const BYTES = 200_000;
const THRESHOLD = 30_000;
const IDLE_S = 20;
/** Node flags for `serve` (the unit's, say `--optimize-for-size`), to measure them as deployed. */
const NODE_FLAGS = (process.env.CLIFF_BENCH_MEMORY_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
const MiB = 2 ** 20;
const TARGET = { load: 400 * MiB, idle: 250 * MiB };
const CLI = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
const PROBE = fileURLToPath(new URL("./memory-probe.mjs", import.meta.url));

interface Probe { rss: number; heapUsed: number; heapTotal: number; external: number; peakRss: number; anon: number }
interface Run { seconds: number; loadRss: number; peakRss: number; idleRss: number; idle: Probe; memo: number; store: number }

function upstream(): Promise<{ url: string; close: () => void }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

/** One session's requests, made one at a time as it grows (two hundred whole sessions at once would be gigabytes of text). */
function* requests(seed: number): Generator<string> {
  const full = anthropicSession(BYTES, seed);
  for (let i = 1; i <= REQUESTS; i++) yield JSON.stringify({ model: "m", max_tokens: 64, system: `session ${seed}`, messages: full.slice(0, Math.max(1, Math.round((full.length * i) / REQUESTS)) | 1) });
}

const rssOf = (pid: number): number => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

async function probe(child: ChildProcess, file: string): Promise<Probe> {
  rmSync(file, { force: true });
  child.kill("SIGUSR2");
  for (let i = 0; i < 300 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 100));
  return JSON.parse(readFileSync(file, "utf8")) as Probe;
}

async function startServe(upstreamUrl: string, file: string): Promise<{ child: ChildProcess; url: string }> {
  const args = ["--expose-gc", ...NODE_FLAGS, "--import", PROBE, CLI, "serve", "--port", "0", "--threshold", String(THRESHOLD), "--keep-recent", "3", "--min-gain-tokens", String(THRESHOLD / 10), "--anthropic-upstream", upstreamUrl];
  const child = spawn(process.execPath, args, { env: { ...process.env, CLIFF_MEMORY_PROBE: file }, stdio: ["ignore", "ignore", "pipe"] });
  const url = await proxyUrl(child);
  child.stderr!.resume();
  return { child, url };
}

async function once(n: number): Promise<Run> {
  const up = await upstream();
  const file = join(tmpdir(), `cliff-memory-${process.pid}-${n}.json`);
  const { child, url } = await startServe(up.url, file);
  const agent = new http.Agent({ keepAlive: true, maxSockets: SESSIONS });
  const post1 = (body: string): Promise<void> => new Promise((resolve, reject) => {
    const req = http.request(url + "/v1/messages", { method: "POST", agent, headers: { "content-type": "application/json", "x-api-key": "k" } }, (res) => res.on("error", reject).resume().on("end", () => resolve()));
    req.on("error", reject);
    req.end(body);
  });
  // A request whose connection was reset (a pooled keep-alive socket the proxy closed, or one it
  // dropped while the machine was too loaded to read its headers in time) is sent again, as clients do.
  const post = async (body: string): Promise<void> => {
    for (let i = 0; ; i++) {
      try {
        return await post1(body);
      } catch (e) {
        if (i >= 50 || (e as NodeJS.ErrnoException).code !== "ECONNRESET") throw e;
      }
    }
  };
  let loadRss = 0;
  const sample = setInterval(() => (loadRss = Math.max(loadRss, rssOf(child.pid!))), 250);
  const t0 = Date.now();
  await Promise.all(Array.from({ length: SESSIONS }, async (_, s) => {
    for (const body of requests(s + 1)) await post(body);
  }));
  clearInterval(sample);
  const seconds = (Date.now() - t0) / 1000;
  agent.destroy();
  await new Promise((r) => setTimeout(r, IDLE_S * 1000));
  const idleRss = rssOf(child.pid!);
  const idle = await probe(child, file);
  const status = (await (await fetch(url + "/_cliff/status")).json()) as { memo: { bytes: number }; store: { bytes: number } };
  child.kill("SIGINT");
  up.close();
  rmSync(file, { force: true });
  return { seconds, loadRss, peakRss: idle.peakRss, idleRss, idle, memo: status.memo.bytes, store: status.store.bytes };
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (v: number): string => `${Math.round(v / MiB)} MiB`;

export async function benchMemory(): Promise<void> {
  const runs: Run[] = [];
  for (let n = 0; n < RUNS; n++) runs.push(await once(n));
  const m = (f: (r: Run) => number): number => median(runs.map(f));
  const each = (f: (r: Run) => number): string => runs.map((r) => mb(f(r))).join(", ");
  console.log(`memory: node ${NODE_FLAGS.map((f) => f + " ").join("")}dist/cli.mjs serve, ${SESSIONS} sessions at once, ${SESSIONS * REQUESTS} requests a run (histories to ${BYTES / 1000} KB, threshold ${THRESHOLD}), median of ${RUNS} runs (${runs.map((r) => r.seconds.toFixed(0) + " s").join(", ")})`);
  console.log(`  under load: RSS ${mb(m((r) => r.loadRss))} (runs: ${each((r) => r.loadRss)}; the kernel's peak ${mb(m((r) => r.peakRss))})`);
  console.log(`  idle ${IDLE_S} s after: RSS ${mb(m((r) => r.idleRss))} (runs: ${each((r) => r.idleRss)}), heap after a collection ${mb(m((r) => r.idle.heapUsed))} of ${mb(m((r) => r.idle.heapTotal))} held (memo ${mb(m((r) => r.memo))}, store ${mb(m((r) => r.store))}), external ${mb(m((r) => r.idle.external))}`);
  console.log(`  targets: under load < ${mb(TARGET.load)} ${m((r) => r.loadRss) < TARGET.load ? "✔" : "✘"}; idle < ${mb(TARGET.idle)} ${m((r) => r.idleRss) < TARGET.idle ? "✔" : "✘"}`);
}

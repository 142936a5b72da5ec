/**
 * Prometheus (deploy/prometheus.yml and deploy/cliffcompaction.rules.yml as they ship) scraping
 * three replicas behind HAProxy with the replicas' shared token: the cliffs, reuses, fallbacks and
 * tokens saved it sums over the replicas equal what the model's side counted, and every alert
 * rule loads and evaluates.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeSession } from "./claude-session.js";
import { send, startHaproxy, startReplica, type Replica } from "./cluster.js";
import { DEPLOY, freePort, Processes, tools, until, type Tools } from "./infra.js";
import { summaryOf, upstreamCounts } from "./counts.js";
import { deployUpstream, type DeployUpstream } from "./upstream.js";

const TOKEN = "deploy-suite-token-0123456789abcdef";

let t: Tools;
let procs: Processes;
let up: DeployUpstream;
let tokenSeen: http.Server;
const seenAuth: string[] = [];
beforeAll(async () => {
  t = tools();
  procs = new Processes();
  // A fourth target that only records how Prometheus asks: the token must come with every scrape.
  tokenSeen = http.createServer((req, res) => {
    seenAuth.push(String(req.headers.authorization ?? ""));
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end("# no samples\n");
  });
  await new Promise<void>((r) => tokenSeen.listen(0, "127.0.0.1", r));
});
afterAll(async () => {
  await procs?.stopAll();
  await up?.close();
  tokenSeen?.close();
});

async function query(prom: string, q: string): Promise<number> {
  const r = (await (await fetch(`${prom}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { status: string; data: { result: { value: [number, string] }[] } };
  if (r.status !== "success" || r.data.result.length !== 1) throw new Error(`no single result for ${q}`);
  return Number(r.data.result[0].value[1]);
}

describe("Prometheus over three replicas", () => {
  it("sums of cliffs, reuses, fallbacks and tokens saved over the replicas equal the upstream's counts; the alert rules load", async () => {
    up = await deployUpstream(3);
    // An unforeseen refusal of some compacted requests: the replicas fall back to the client's bytes.
    // Only bodies that carry a summary already received, so each cliff is still counted where it arrived.
    const received = new Set<string>();
    up.refuse = (a) => {
      const s = summaryOf(a.body);
      if (s === null) return null;
      if (received.has(s) && a.seq % 9 === 4) return "messages: an unforeseen validation rule";
      received.add(s);
      return null;
    };
    const tokenFile = join(procs.dir, "admin-token");
    writeFileSync(tokenFile, TOKEN + "\n", { mode: 0o600 });
    const replicas: Replica[] = [];
    for (let i = 0; i < 3; i++) replicas.push(await startReplica(procs, `replica${i + 1}`, up.urls[i], 0, ["--admin-token-file", tokenFile]));
    const lb = await startHaproxy(procs, t.haproxy, replicas);
    // Prometheus with the shipped files, the token beside them and the replicas as its targets.
    for (const f of ["prometheus.yml", "cliffcompaction.rules.yml"]) copyFileSync(join(DEPLOY, f), join(procs.dir, f));
    for (const check of [["check", "config", join(procs.dir, "prometheus.yml")], ["check", "rules", join(procs.dir, "cliffcompaction.rules.yml")]]) {
      const r = spawnSync(t.promtool, check, { encoding: "utf8" });
      expect(r.status, r.stdout + r.stderr).toBe(0);
    }
    const targets = [...replicas.map((r) => `127.0.0.1:${r.port}`), `127.0.0.1:${(tokenSeen.address() as AddressInfo).port}`];
    writeFileSync(join(procs.dir, "cliff-targets.json"), JSON.stringify([{ targets }]));
    const promPort = await freePort();
    const prom = `http://127.0.0.1:${promPort}`;
    procs.start("prometheus", t.prometheus, [`--config.file=${join(procs.dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(procs.dir, "tsdb")}`, `--web.listen-address=127.0.0.1:${promPort}`]);
    await until("Prometheus to be ready", async () => (await fetch(prom + "/-/ready")).ok, 60_000);

    const sessions = [claudeCodeSession(40, 21, "7a1c0de0-0000-4000-8000-000000000001"), claudeCodeSession(30, 22, "7a1c0de0-0000-4000-8000-000000000002")];
    const requests = sessions[0].flatMap((r, i) => [r, sessions[1][i]]).filter((r) => r !== undefined);
    const sendFrom = async (start: number, end: number): Promise<void> => {
      for (const [i, r] of requests.slice(start, end).entries()) {
        const tagged = { ...r, seq: start + i, headers: { ...r.headers, "x-test-seq": String(start + i) } };
        expect((await send(lb.url, tagged, 1)).status).toBe(200);
      }
    };
    // A few requests first (no fallback among them), until Prometheus holds every replica's
    // fallback counter: an alert on `increase` sees only what grows after a series' first sample.
    await sendFrom(0, 6);
    expect(up.arrivals.every((a) => a.status === 200)).toBe(true);
    await until("Prometheus to hold the replicas' fallback counters", async () => {
      const r = (await (await fetch(`${prom}/api/v1/query?query=${encodeURIComponent("count(cliffcompaction_fallbacks_total)")}`)).json()) as { data: { result: { value: [number, string] }[] } };
      return r.data.result[0]?.value[1] === "3";
    }, 60_000);
    await sendFrom(6, requests.length);
    const counted = upstreamCounts(up.arrivals, new Map(requests.map((r, i) => [i, r.body])));
    expect(counted.cliffs).toBeGreaterThanOrEqual(3);
    expect(counted.reuses).toBeGreaterThanOrEqual(10);
    expect(counted.fallbacks).toBeGreaterThanOrEqual(1);

    const queries: [string, number][] = [
      ["sum(cliffcompaction_requests_total)", requests.length],
      ["sum(cliffcompaction_cliffs_total)", counted.cliffs],
      ["sum(cliffcompaction_reuses_total)", counted.reuses],
      ["sum(cliffcompaction_fallbacks_total)", counted.fallbacks],
      ['sum(cliffcompaction_estimated_tokens_total{direction="in"}) - sum(cliffcompaction_estimated_tokens_total{direction="out"})', counted.tokensSaved],
    ];
    const got = new Map<string, number>();
    await until("Prometheus to scrape the replicas after the session", async () => {
      for (const [q] of queries) got.set(q, await query(prom, q));
      return queries.every(([q, want]) => got.get(q) === want);
    }, 90_000).catch(() => undefined);
    for (const [q, want] of queries) expect(got.get(q), q).toBe(want);
    // Every replica scraped with the token; the recording target saw it on each scrape.
    // (Prometheus spreads its targets' first scrapes over the interval: a target may not have been scraped yet.)
    let health: string[] = [];
    await until("every target scraped", async () => {
      const h = (await (await fetch(prom + "/api/v1/targets")).json()) as { data: { activeTargets: { health: string }[] } };
      health = h.data.activeTargets.map((x) => x.health);
      return health.length === 4 && health.every((x) => x !== "unknown") && seenAuth.length > 0;
    }, 60_000).catch(() => undefined);
    expect(health).toEqual(["up", "up", "up", "up"]);
    expect(seenAuth.length).toBeGreaterThan(0);
    expect(new Set(seenAuth)).toEqual(new Set([`Bearer ${TOKEN}`]));
    // The rules load and evaluate without error.
    const rules = (await (await fetch(prom + "/api/v1/rules")).json()) as { data: { groups: { rules: { name: string; health: string }[] }[] } };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name)).toEqual(expect.arrayContaining(["CliffcompactionFallbacks", "CliffcompactionThinkingDropped", "CliffcompactionUpstreamErrors"]));
    await until("every rule evaluated", async () => {
      const r = (await (await fetch(prom + "/api/v1/rules")).json()) as typeof rules;
      return r.data.groups.flatMap((g) => g.rules).every((x) => x.health === "ok");
    }, 60_000);
    // The fallbacks this session caused fire the fallback alert (pending or firing: it has no `for`).
    await until("the fallback alert", async () => {
      const a = (await (await fetch(prom + "/api/v1/alerts")).json()) as { data: { alerts: { labels: { alertname: string }; state: string }[] } };
      return a.data.alerts.some((x) => x.labels.alertname === "CliffcompactionFallbacks" && x.state === "firing");
    }, 60_000);
    const perReplica = await Promise.all(replicas.map(async (r) => (await (await fetch(r.url + "/_cliff/status")).json()) as { compactable: number }));
    console.log(`test:deploy Prometheus: ${requests.length} requests over 3 replicas (${perReplica.map((s) => s.compactable).join("/")}); upstream counted ${counted.cliffs} cliffs, ${counted.reuses} reuses, ${counted.fallbacks} fallbacks, ${counted.tokensSaved} tokens saved; Prometheus: ${queries.map(([q]) => `${q.replace(/cliffcompaction_|_total/g, "")} = ${got.get(q)}`).join("; ")}; ${loaded.length} alert rules loaded and evaluated`);
  });
});

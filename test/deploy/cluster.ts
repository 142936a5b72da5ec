/**
 * Replicas of `cliffcompaction serve` (the built CLI, each a process of its own) and HAProxy in
 * front of them with deploy/haproxy.cfg as it ships, for test:deploy.
 */
import { join } from "node:path";
import { CLI, DEPLOY, freePort, Processes, servedUrl, until, type Proc } from "./infra.js";
import type { SessionRequest } from "./claude-session.js";

/** The settings every replica of a test gets (the same config, as a team's replicas have). */
export const REPLICA_FLAGS = ["--threshold", "20000"];

export interface Replica {
  name: string;
  port: number;
  url: string;
  proc: Proc;
}

export async function startReplica(procs: Processes, name: string, upstream: string, port = 0, flags: string[] = []): Promise<Replica> {
  const proc = procs.start(name, CLI, ["serve", "--port", String(port), "--anthropic-upstream", upstream, ...REPLICA_FLAGS, ...flags], { node: true });
  const url = await servedUrl(proc);
  return { name, port: Number(new URL(url).port), url, proc };
}

export interface Balancer {
  url: string;
  statsUrl: string;
  proc: Proc;
}

/** HAProxy round-robin over the replicas, with deploy/haproxy.cfg (and a stats page the suite reads). */
export async function startHaproxy(procs: Processes, haproxy: string, replicas: Replica[]): Promise<Balancer> {
  const [port, stats] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { CLIFF_LB_BIND: `127.0.0.1:${port}`, CLIFF_LB_STATS_BIND: `127.0.0.1:${stats}`, CLIFF_HOST: "127.0.0.1" };
  replicas.forEach((r, i) => (env[`CLIFF_REPLICA_${i + 1}`] = `127.0.0.1:${r.port}`));
  const proc = procs.start("haproxy", haproxy, ["-db", "-f", join(DEPLOY, "haproxy.cfg"), "-f", new URL("./haproxy-stats.cfg", import.meta.url).pathname], { env });
  const lb = { url: `http://127.0.0.1:${port}`, statsUrl: `http://127.0.0.1:${stats}/stats;csv`, proc };
  await until("HAProxy to see every replica up", async () => (await serverStates(lb)).every((s) => s === "UP"));
  return lb;
}

/** Each replica's state as HAProxy sees it (UP, DOWN, …), in order. */
export async function serverStates(lb: Balancer): Promise<string[]> {
  const csv = await (await fetch(lb.statsUrl)).text();
  const header = csv.split("\n")[0].replace(/^# /, "").split(",");
  const [px, sv, status] = ["pxname", "svname", "status"].map((k) => header.indexOf(k));
  return csv.split("\n").slice(1).map((l) => l.split(",")).filter((c) => c[px] === "replicas" && c[sv].startsWith("replica")).map((c) => c[status]);
}

export interface Sent {
  seq: number;
  status: number;
  /** Attempts it took (a request that failed on a killed replica is sent again). */
  attempts: number;
  answer: string;
}

/** Sends one request as a client would, again after a connection failure or a 502/503 from the balancer (at most `tries` times). */
export async function send(base: string, r: SessionRequest, tries = 4): Promise<Sent> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(base + "/v1/messages", { method: "POST", headers: r.headers, body: r.body });
      const answer = await res.text();
      if ((res.status === 502 || res.status === 503) && attempt < tries) continue;
      return { seq: r.seq, status: res.status, attempts: attempt, answer };
    } catch (e) {
      if (attempt >= tries) throw e;
      await new Promise((res) => setTimeout(res, 250));
    }
  }
}

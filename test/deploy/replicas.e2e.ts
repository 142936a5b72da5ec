/**
 * Three `serve` replicas behind HAProxy (deploy/haproxy.cfg, round-robin, no affinity): a Claude
 * Code-shaped session gives the upstream the bytes one proxy gives it, with one replica killed
 * (SIGKILL) while a request waits on it and restarted later in the session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeSession, type SessionRequest } from "./claude-session.js";
import { send, serverStates, startHaproxy, startReplica, type Replica, type Sent } from "./cluster.js";
import { summaryOf } from "./counts.js";
import { Processes, tools, until, type Tools } from "./infra.js";
import { deployUpstream, type DeployUpstream } from "./upstream.js";

let t: Tools;
let procs: Processes;
let up: DeployUpstream;
beforeAll(() => {
  t = tools();
  procs = new Processes();
});
afterAll(async () => {
  await procs?.stopAll();
  await up?.close();
});

/** The bodies and headers one proxy alone sends upstream for the session, by seq. */
async function oneProxyBytes(session: SessionRequest[], upstream: string, listener: number): Promise<Map<number, { body: string; beta: unknown }>> {
  const one = await startReplica(procs, "one-proxy", upstream);
  for (const r of session) expect((await send(one.url, r, 1)).status).toBe(200);
  const out = new Map<number, { body: string; beta: unknown }>();
  for (const a of up.arrivals) if (a.listener === listener) out.set(a.seq, { body: a.body, beta: a.headers["anthropic-beta"] });
  return out;
}

describe("three replicas behind HAProxy", () => {
  it("a 60+ request Claude Code-shaped session alternating replicas gives the upstream one proxy's bytes, one replica SIGKILLed mid-session and restarted", async () => {
    up = await deployUpstream(4);
    const session = claudeCodeSession(64);
    expect(session.length).toBeGreaterThanOrEqual(60);
    const reference = await oneProxyBytes(session, up.urls[3], 3);
    expect(reference.size).toBe(session.length);
    const replicas: Replica[] = [];
    for (let i = 0; i < 3; i++) replicas.push(await startReplica(procs, `replica${i + 1}`, up.urls[i]));
    const lb = await startHaproxy(procs, t.haproxy, replicas);
    const killAt = session.findIndex((r, i) => i >= 25 && r.kind === "turn");
    const restartAt = killAt + 12;
    const held = up.hold(killAt);
    let killed = -1;
    const sent: Sent[] = [];
    for (const r of session) {
      if (r.seq === killAt) {
        const pending = send(lb.url, r);
        killed = await held.arrived;
        replicas[killed].proc.child.kill("SIGKILL");
        await replicas[killed].proc.exited;
        held.release();
        sent.push(await pending);
        continue;
      }
      if (r.seq === restartAt) {
        const old = replicas[killed];
        replicas[killed] = await startReplica(procs, `${old.name}-restarted`, up.urls[killed], old.port);
        await until("HAProxy to see the restarted replica up", async () => (await serverStates(lb)).every((s) => s === "UP"));
      }
      sent.push(await send(lb.url, r));
    }
    // Every request succeeded (after at most a retry for the one whose replica was killed).
    expect(sent.map((s) => s.status)).toEqual(session.map(() => 200));
    for (const s of sent) if (s.attempts > 1) expect(s.seq).toBe(killAt);
    // Every body the replicas sent is one proxy's, byte for byte, with the same anthropic-beta.
    const arrivals = up.arrivals.filter((a) => a.listener < 3);
    let bytes = 0;
    for (const a of arrivals) {
      const ref = reference.get(a.seq)!;
      expect(a.body === ref.body, `request ${a.seq} through replica ${a.listener + 1}`).toBe(true);
      expect(a.headers["anthropic-beta"]).toEqual(ref.beta);
      bytes += Buffer.byteLength(a.body);
    }
    expect(new Set(arrivals.map((a) => a.seq)).size).toBe(session.length);
    // Round-robin: every replica served a share, the restarted one included.
    const per = [0, 1, 2].map((l) => arrivals.filter((a) => a.listener === l).length);
    for (const n of per) expect(n).toBeGreaterThanOrEqual(10);
    expect(arrivals.some((a) => a.listener === killed && a.seq > restartAt)).toBe(true);
    const cliffs = new Set([...reference.values()].map((r) => summaryOf(r.body)).filter((x) => x !== null)).size;
    expect(cliffs).toBeGreaterThanOrEqual(2);
    console.log(`test:deploy HAProxy: ${session.length} requests (${arrivals.length} arrivals at the upstream, per replica ${per.join("/")}), replica ${killed + 1} SIGKILLed at request ${killAt} and restarted at ${restartAt}, ${(bytes / 1e6).toFixed(1)} MB compared with one proxy's bytes: identical; retried ${sent.filter((s) => s.attempts > 1).length}; summaries ${cliffs}`);
  });

  it("a replica told to stop (SIGTERM) fails its health check first, HAProxy takes it out, and what it had in flight finishes", async () => {
    const drainUp = await deployUpstream(3);
    try {
      const replicas: Replica[] = [];
      for (let i = 0; i < 3; i++) replicas.push(await startReplica(procs, `draining${i + 1}`, drainUp.urls[i], 0, ["--drain-seconds", "4"]));
      const lb = await startHaproxy(procs, t.haproxy, replicas);
      const session = claudeCodeSession(30, 9);
      for (const r of session.slice(0, 10)) expect((await send(lb.url, r, 1)).status).toBe(200);
      const held = drainUp.hold(10);
      const pending = send(lb.url, session[10], 1);
      const victim = await held.arrived;
      const stoppedAt = Date.now();
      replicas[victim].proc.child.kill("SIGTERM");
      await until("the replica's health to fail", async () => (await fetch(replicas[victim].url + "/_cliff/health")).status === 503, 2_000);
      await until("HAProxy to take the replica out", async () => (await serverStates(lb))[victim] !== "UP", 4_000);
      const outAfter = Date.now() - stoppedAt;
      // From then on every request goes to the other two, none failing.
      const later = session.slice(11, 26);
      for (const r of later) expect((await send(lb.url, r, 1)).status).toBe(200);
      expect(drainUp.arrivals.filter((a) => a.seq > 10).map((a) => a.listener)).not.toContain(victim);
      // The request it held finishes whole, then the replica exits cleanly.
      held.release();
      const done = await pending;
      expect(done.status).toBe(200);
      expect(done.attempts).toBe(1);
      expect(done.answer).toContain("message_stop");
      const exit = await replicas[victim].proc.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      expect(replicas[victim].proc.output()).toContain("SIGTERM: draining");
      console.log(`test:deploy SIGTERM: replica ${victim + 1} failed its health at once, HAProxy took it out after ${outAfter} ms, ${later.length} requests went to the others (0 failed), the request in flight finished (200, whole), exit code 0`);
    } finally {
      await drainUp.close();
    }
  });
});

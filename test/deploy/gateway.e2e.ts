/**
 * The hop both ways with a real gateway, the Portkey AI gateway (npm @portkey-ai/gateway):
 * client → Portkey → `serve` → model (the gateway's provider base URL pointed at serve) and
 * client → `serve` → Portkey → model (`--anthropic-upstream` pointed at the gateway), each
 * compacted and valid, every header each side adds passed on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARY_HEADER } from "../../core/index.js";
import { claudeCodeSession, type SessionRequest } from "./claude-session.js";
import { startReplica } from "./cluster.js";
import { freePort, PORTKEY_VERSION, Processes, tools, until, type Tools } from "./infra.js";
import { deployUpstream, type DeployUpstream } from "./upstream.js";

let t: Tools;
let procs: Processes;
let up: DeployUpstream;
let portkey: string;
beforeAll(async () => {
  t = tools();
  procs = new Processes();
  up = await deployUpstream(2);
  const port = await freePort();
  const p = procs.start("portkey", t.portkey, [`--port=${port}`, "--headless"], { node: true, loopbackOnly: true, env: { NODE_ENV: "production" } });
  portkey = `http://127.0.0.1:${port}`;
  await until("the Portkey gateway to answer", async () => (await fetch(portkey + "/")).ok || p.child.exitCode !== null);
});
afterAll(async () => {
  await procs?.stopAll();
  await up?.close();
});

const carriesSummary = (body: string): boolean => JSON.stringify(JSON.parse(body).messages).includes(JSON.stringify(SUMMARY_HEADER).slice(1, -1));

/**
 * The turns of a session, with the gateway's routing headers added. Unstreamed: Portkey 1.15.2
 * answers every streamed request 500 on Node ("TypeError: immutable" in its updateHeaders, its
 * issues #1389 and #1550), with or without serve in the path.
 */
function turns(extra: Record<string, string>): SessionRequest[] {
  return claudeCodeSession(30, 11).filter((r) => r.kind === "turn").map((r) => ({ ...r, headers: { ...r.headers, ...extra }, body: JSON.stringify({ ...JSON.parse(r.body), stream: false }) }));
}

describe("the hop with a real gateway (Portkey)", () => {
  it("client → Portkey → serve → model: the gateway's provider base URL at serve; compacted, valid, the gateway's headers passed on", async () => {
    const serve = await startReplica(procs, "serve-behind-portkey", up.urls[0]);
    const session = turns({ "x-portkey-provider": "anthropic", "x-portkey-custom-host": `${serve.url}/v1`, "x-portkey-trace-id": "trace-behind" });
    const from = up.arrivals.length;
    for (const r of session) {
      const res = await fetch(portkey + "/v1/messages", { method: "POST", headers: r.headers, body: r.body });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(JSON.parse(await res.text()).type).toBe("message");
      // The provider's header came back through serve and the gateway; the gateway's own was added.
      expect(res.headers.get("request-id")).toMatch(/^req_deploy_/);
      expect(res.headers.get("x-portkey-trace-id")).toBe("trace-behind");
    }
    const got = up.arrivals.slice(from);
    expect(got.every((a) => a.listener === 0)).toBe(true);
    expect(got).toHaveLength(session.length);
    expect(got.filter((a) => carriesSummary(a.body)).length).toBeGreaterThan(0);
    for (const a of got) {
      const body = JSON.parse(a.body);
      expect(body.messages[0].role).toBe("user");
      expect(a.headers["x-api-key"]).toBe("sk-ant-test-key");
      expect(String(a.headers["anthropic-beta"])).toContain("interleaved-thinking-2025-05-14");
      // What the gateway's own client added (undici's fetch mode) reached the model through serve.
      expect(a.headers["sec-fetch-mode"]).toBe("cors");
    }
    const cut = got.filter((a) => carriesSummary(a.body)).length;
    console.log(`test:deploy Portkey → serve: ${session.length} requests through Portkey ${PORTKEY_VERSION} then serve, ${cut} compacted, all answered 200`);
  });

  it("client → serve → Portkey → model: --anthropic-upstream at the gateway; compacted, valid, headers passed both ways", async () => {
    const serve = await startReplica(procs, "serve-before-portkey", portkey, 0);
    const session = turns({ "x-portkey-provider": "anthropic", "x-portkey-custom-host": `${up.urls[1]}/v1`, "x-portkey-trace-id": "trace-before" });
    const from = up.arrivals.length;
    for (const r of session) {
      const res = await fetch(serve.url + "/v1/messages", { method: "POST", headers: r.headers, body: r.body });
      expect(res.status, await res.clone().text()).toBe(200);
      // The gateway's own answer headers reach the client through serve.
      expect(res.headers.get("x-portkey-trace-id")).toBe("trace-before");
      expect(res.headers.get("request-id")).toMatch(/^req_deploy_/);
      await res.text();
    }
    const got = up.arrivals.slice(from);
    expect(got).toHaveLength(session.length);
    expect(got.every((a) => a.listener === 1)).toBe(true);
    expect(got.filter((a) => carriesSummary(a.body)).length).toBeGreaterThan(0);
    console.log(`test:deploy serve → Portkey: ${session.length} requests through serve then Portkey, ${got.filter((a) => carriesSummary(a.body)).length} compacted, all answered 200`);
  });
});

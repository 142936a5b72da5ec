/**
 * A request never chooses its host. Hostile request targets aimed at decoy listeners on other
 * loopback addresses reach none of them (refused with 400, or sent as a plain path to the
 * configured upstream); a Host that is not the proxy's own is refused, a browser Origin too; and
 * the unit rules behind it (plain targets, joined paths, routes by path ending and by headers).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "node:net";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { plainTarget, joinedPath, targetUrl } from "../../proxy/http/target.js";
import { routeOf } from "../../proxy/routes.js";
import { HostGuard, hostName } from "../../proxy/http/guard.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { decoys, type Decoys } from "../helpers/decoys.js";

let anthropic: MockUpstream;
let openai: MockUpstream;
let chatgpt: MockUpstream;
let decoy: Decoys;
let proxy: RunningProxy;

beforeAll(async () => {
  [anthropic, openai, chatgpt, decoy] = await Promise.all([mockUpstream(), mockUpstream(), mockUpstream(), decoys()]);
  proxy = await startProxy({ port: 0, upstreams: { anthropic: anthropic.url, openai: openai.url + "/v1", chatgpt: chatgpt.url } });
});
afterAll(async () => {
  await proxy.close();
  await Promise.all([anthropic.close(), openai.close(), chatgpt.close(), decoy.close()]);
});

/** One request written as raw bytes (no client normalises the target), answered with its status line and body. */
function raw(port: number, head: string, body = ""): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const s = connect(port, "127.0.0.1", () => s.write(head + body));
    let got = "";
    s.on("data", (d) => (got += d.toString("latin1")));
    s.on("error", () => undefined);
    s.on("close", () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(got)?.[1] ?? 0), text: got.slice(got.indexOf("\r\n\r\n") + 4) }));
  });
}

const BODY = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
const request = (target: string, host = `127.0.0.1:${proxy.port}`, extra = ""): Promise<{ status: number; text: string }> =>
  raw(proxy.port, `POST ${target} HTTP/1.1\r\nhost: ${host}\r\nx-api-key: sk-ant-secret\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\nconnection: close\r\n${extra}\r\n`, BODY);

const received = () => anthropic.received.length + openai.received.length + chatgpt.received.length;

describe("hostile request targets", () => {
  it("at least 20 targets aimed at decoys on 127.0.0.2, 127.0.0.3 and [::1] reach none of them", async () => {
    const [a, b, c] = decoy.all.map((d) => d.authority);
    const targets = [
      `//${a}/v1/messages`, `///${a}/v1/messages`, `/\\${a}/v1/messages`, `\\\\${b}/v1/messages`,
      `http://${a}/v1/messages`, `HTTP://${b}/v1/messages`, `hTtPs://${c}/v1/chat/completions`, `http:${a}/v1/messages`,
      `http:/${b}/v1/messages`, `${a}/v1/messages`, `@${a}/v1/messages`, `/%2F%2F${a}/v1/messages`, `/%2f${b}/v1/messages`,
      `/%5C${a}/v1/messages`, `/v1/../../${a}/v1/messages`, `/v1/%2e%2e/%2E%2E/${b}/x`, `/.%2e/${a}/x`, `/./${c}/x`,
      `/v1/messages/..%2F..%2F${a}`, `/v1/messages#@${a}`, `//user@${a}/v1/messages`, `//${c}/v1/responses`,
      `/v1//${a}/messages`, `/\t/${a}/v1/messages`, `*`, `/v1/messages%00/${b}`, `/%40${a}/v1/messages`, `/@${a}/v1/messages`,
      `/v1/messages?next=//${a}/`, `/v1/messages?\\${b}`,
    ];
    expect(targets.length).toBeGreaterThanOrEqual(20);
    const outcomes: string[] = [];
    for (const t of targets) {
      const before = received();
      const r = await request(t);
      const forwarded = received() - before;
      // Refused before anything was sent, or sent as a plain path to a configured upstream.
      expect([400, 403, 404, 200].includes(r.status), `${JSON.stringify(t)} → ${r.status}`).toBe(true);
      if (r.status === 400) expect(forwarded, t).toBe(0);
      outcomes.push(`${r.status} ${forwarded}`);
    }
    expect(decoy.total()).toBe(0);
    // The plain-path ones that went on went to the configured upstream with the target as its path.
    for (const m of [anthropic, openai, chatgpt]) for (const r of m.received) expect(r.path.startsWith("/"), r.path).toBe(true);
    expect(outcomes.filter((o) => o.startsWith("400")).length).toBeGreaterThanOrEqual(22);
  });

  it("a Host naming another address or a name is refused (DNS rebinding); --allow-host names one", async () => {
    const before = received();
    for (const host of [decoy.all[0].authority, "evil.example:8257", `localhost.evil.example:${proxy.port}`, `127.0.0.1.nip.io:${proxy.port}`, "", "[::2]:80"]) {
      const r = await request("/v1/messages", host);
      expect(r.status, host).toBe(403);
    }
    expect(received()).toBe(before);
    for (const host of [`localhost:${proxy.port}`, `LOCALHOST:${proxy.port}`, `[::1]:${proxy.port}`, "127.0.0.1"]) expect((await request("/v1/messages", host)).status, host).toBe(200);
    const team = await startProxy({ port: 0, allowedHosts: ["cliff.team.example"], upstreams: { anthropic: anthropic.url } });
    try {
      const ok = await raw(team.port, `GET /v1/models HTTP/1.1\r\nhost: cliff.team.example\r\nx-api-key: k\r\nconnection: close\r\n\r\n`);
      expect(ok.status).toBe(404); // the mock's own answer: it went through
      const no = await raw(team.port, `GET /v1/models HTTP/1.1\r\nhost: other.team.example\r\nx-api-key: k\r\nconnection: close\r\n\r\n`);
      expect(no.status).toBe(403);
      expect(JSON.parse(no.text).error.type).toBe("forbidden_host");
    } finally {
      await team.close();
    }
    expect(decoy.total()).toBe(0);
  });

  it("a browser Origin is refused on the compacted routes and /_cliff/, in the API's error shape", async () => {
    const before = received();
    const a = await request("/v1/messages", undefined, "origin: http://localhost:3000\r\n");
    expect(a.status).toBe(403);
    expect(JSON.parse(a.text)).toMatchObject({ type: "error", error: { type: "forbidden_origin" } });
    const o = await raw(proxy.port, `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${proxy.port}\r\norigin: null\r\nauthorization: Bearer sk-x\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`);
    expect(o.status).toBe(403);
    expect(JSON.parse(o.text).error).toMatchObject({ type: "forbidden_origin", code: "forbidden_origin" });
    const s = await raw(proxy.port, `GET /_cliff/status HTTP/1.1\r\nhost: 127.0.0.1:${proxy.port}\r\norigin: http://evil.example\r\nconnection: close\r\n\r\n`);
    expect(s.status).toBe(403);
    expect(received()).toBe(before);
    const status = await raw(proxy.port, `GET /_cliff/status HTTP/1.1\r\nhost: 127.0.0.1:${proxy.port}\r\nconnection: close\r\n\r\n`);
    expect(JSON.parse(status.text).refused).toBeGreaterThan(20);
  });

  it("a WebSocket upgrade with a hostile target or Host is refused too", async () => {
    const ws = (target: string, host: string) => raw(proxy.port, `GET ${target} HTTP/1.1\r\nhost: ${host}\r\nupgrade: websocket\r\nconnection: upgrade\r\nsec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\nauthorization: Bearer k\r\n\r\n`);
    expect((await ws(`//${decoy.all[0].authority}/v1/responses`, `127.0.0.1:${proxy.port}`)).status).toBe(400);
    expect((await ws("/v1/responses", decoy.all[1].authority)).status).toBe(403);
    expect(decoy.total()).toBe(0);
  });
});

describe("routing: by path ending, hosts by configuration", () => {
  const send = async (target: string, headers: Record<string, string>, method = "POST") => {
    const before = [anthropic, openai, chatgpt].map((m) => m.received.length);
    const r = await fetch(proxy.url + target, { method, headers: { "content-type": "application/json", ...headers }, body: method === "POST" ? BODY : undefined });
    await r.arrayBuffer();
    const which = [anthropic, openai, chatgpt].findIndex((m, i) => m.received.length > before[i]);
    return { name: ["anthropic", "openai", "chatgpt"][which], path: [anthropic, openai, chatgpt][which]?.received.at(-1)?.path };
  };

  it("each request reaches the upstream its path, then its headers, name", async () => {
    const oauth = { authorization: "Bearer sk-ant-oat01-abcdef", "anthropic-beta": "oauth-2025-04-20" };
    const cases: [string, Record<string, string>, string, string][] = [
      ["/v1/messages?beta=true", { authorization: "Bearer sk-x" }, "anthropic", "/v1/messages?beta=true"],
      ["/v1/messages/count_tokens", {}, "anthropic", "/v1/messages/count_tokens"],
      ["/chat/completions", { authorization: "Bearer sk-x" }, "openai", "/v1/chat/completions"],
      ["/v1/chat/completions", { authorization: "Bearer sk-x" }, "openai", "/v1/chat/completions"],
      ["/responses", { "x-api-key": "k" }, "openai", "/v1/responses"],
      ["/v1/responses/compact", { authorization: "Bearer sk-x" }, "openai", "/v1/responses/compact"],
      ["/backend-api/codex/responses", { authorization: "Bearer eyJ.x.y" }, "chatgpt", "/backend-api/codex/responses"],
      ["/backend-api/codex/responses/compact", { authorization: "Bearer eyJ.x.y" }, "chatgpt", "/backend-api/codex/responses/compact"],
      ["/backend-api/wham/usage", { authorization: "Bearer eyJ.x.y" }, "chatgpt", "/backend-api/wham/usage"],
      ["/v1/models", oauth, "anthropic", "/v1/models"],
      ["/api/oauth/profile", oauth, "anthropic", "/api/oauth/profile"],
      ["/api/hello", { authorization: "Bearer sk-ant-oat01-abcdef" }, "anthropic", "/api/hello"],
      ["/api/hello", { "anthropic-version": "2023-06-01" }, "anthropic", "/api/hello"],
      ["/v1/models", { authorization: "Bearer sk-proj-x" }, "openai", "/v1/models"],
    ];
    for (const [target, headers, name, path] of cases) expect(await send(target, headers), target).toEqual({ name, path });
    expect(proxy.stats.remoteSummaries).toBeGreaterThanOrEqual(2);
  });

  it("the unit rules", () => {
    expect(routeOf("POST", "/openai/v1/chat/completions", {})).toMatchObject({ api: "openai-chat", upstream: "openai" });
    expect(routeOf("POST", "/backend-api/codex/responses", {})).toMatchObject({ api: "openai-responses", upstream: "chatgpt" });
    expect(routeOf("POST", "/v1/messages/", {})).toMatchObject({ api: "anthropic", upstream: "anthropic" });
    expect(routeOf("GET", "/v1/messages", {})).toMatchObject({ api: null, upstream: "anthropic" });
    expect(routeOf("POST", "/v1/messages/count_tokens", {})).toMatchObject({ api: null, upstream: "anthropic" });
    expect(routeOf("POST", "/v1/responses/compact", {})).toMatchObject({ api: null, upstream: "openai", remoteSummary: true });
    expect(joinedPath("/v1", "/v1/chat/completions")).toBe("/v1/chat/completions");
    expect(joinedPath("/v1/", "/chat/completions")).toBe("/v1/chat/completions");
    expect(joinedPath("/openai/v1", "/v1/chat/completions")).toBe("/openai/v1/chat/completions");
    expect(joinedPath("/backend-api/codex", "/backend-api/codex/responses")).toBe("/backend-api/codex/responses");
    expect(joinedPath("/", "/v1/messages")).toBe("/v1/messages");
    expect(targetUrl(new URL("https://api.openai.com/v1"), plainTarget("/responses?x=1")!)!.href).toBe("https://api.openai.com/v1/responses?x=1");
    for (const t of ["//a/b", "/a\\b", "http://a/", "a/b", "/a/../b", "/a/%2e%2E/b", "/a%2fb", "/a%5cb", "/a b", "/a\tb", "/%zz", "/a#b", "/a?b#c", ""]) expect(plainTarget(t), t).toBeNull();
    for (const t of ["/", "/v1/messages?beta=true", "/a/", "/@x:1/y", "/%41"]) expect(plainTarget(t), t).not.toBeNull();
    expect(hostName("[::1]:8257")).toBe("::1");
    expect(hostName("LocalHost:1")).toBe("localhost");
    expect(new HostGuard("127.0.0.1", []).allows("127.0.0.2:80")).toBe(false);
    expect(new HostGuard("10.0.0.5", []).allows("10.0.0.5:8257")).toBe(true);
  });
});

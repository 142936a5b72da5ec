/**
 * `/_cliff/` belongs to the user who runs the proxy: the one access rule (open, counts, content),
 * checked on its own, through a running proxy (bearer, cookie from /_cliff/login, health), and —
 * when the test runs as root — from a second account (nobody) on the same machine, which can reach
 * loopback but can read neither the token file nor any session text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, statSync } from "node:fs";
import http, { type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig } from "../../core/index.js";
import { adminAccess, cookieValue, COOKIE, type AccessKind } from "../../proxy/http/access.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { runChild } from "../helpers/child.js";

const TOKEN = "t0ken-for-the-access-test-0123456789";
const SECRET = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

function fakeReq(remote: string, headers: Record<string, string> = {}): IncomingMessage {
  return { method: "GET", url: "/_cliff/x", headers, socket: { remoteAddress: remote } } as unknown as IncomingMessage;
}

describe("the rule", () => {
  const kinds: AccessKind[] = ["open", "counts", "content"];
  const allowed = (loopback: boolean, remote: string, headers: Record<string, string> = {}) =>
    kinds.filter((k) => adminAccess(TOKEN, loopback).authorize(fakeReq(remote, headers), k) === null);

  it("without the token: health for anyone, counts on loopback only, content never", () => {
    expect(allowed(true, "127.0.0.1")).toEqual(["open", "counts"]);
    expect(allowed(true, "::ffff:127.0.0.1")).toEqual(["open", "counts"]);
    expect(allowed(true, "10.0.0.7")).toEqual(["open"]);
    // A proxy bound beyond loopback: a request from 127.0.0.1 may have come through a balancer.
    expect(allowed(false, "127.0.0.1")).toEqual(["open"]);
  });

  it("the bearer token or the login cookie opens everything, anywhere; a wrong one opens nothing more", () => {
    for (const [loopback, remote] of [[true, "127.0.0.1"], [false, "10.0.0.7"]] as const) {
      expect(allowed(loopback, remote, { authorization: `Bearer ${TOKEN}` })).toEqual(kinds);
      expect(allowed(loopback, remote, { authorization: `bearer   ${TOKEN} ` })).toEqual(kinds);
      expect(allowed(loopback, remote, { cookie: `a=b; ${COOKIE}=${cookieValue(TOKEN)}; c=d` })).toEqual(kinds);
    }
    const none = allowed(false, "10.0.0.7");
    const wrong: Record<string, string>[] = [{ authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${TOKEN.slice(1)}` }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }, { cookie: `${COOKIE}=${TOKEN}` }, { cookie: `${COOKIE}=${cookieValue(TOKEN + "x")}` }];
    for (const headers of wrong) {
      expect(allowed(false, "10.0.0.7", headers)).toEqual(none);
      expect(allowed(true, "127.0.0.1", headers)).toEqual(["open", "counts"]);
    }
  });

  it("the cookie is derived from the token: another token, another cookie; the token is not in it", () => {
    expect(cookieValue(TOKEN)).not.toBe(cookieValue(TOKEN + "2"));
    expect(cookieValue(TOKEN)).not.toContain(TOKEN);
    expect(cookieValue(TOKEN)).toBe(cookieValue(TOKEN));
  });
});

let mock: MockUpstream;
let proxy: RunningProxy;
let sessionId = "";

function grown(turns: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Deploy the widgets service." }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "bash", input: { command: i === 0 ? "cat .env" : `make step-${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: i === 0 ? SECRET : `step ${i} output\n`.repeat(150) }] });
  }
  return msgs;
}

/** One session growing request by request past the threshold, as an agent sends it. */
async function grow(url: string): Promise<void> {
  for (let turns = 1; turns <= 14; turns++) {
    const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: grown(turns) });
    await (await fetch(url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": "access-test" }, body })).arrayBuffer();
  }
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(proxy.url + path, { headers, redirect: "manual" });

beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url }, adminToken: TOKEN });
  await grow(proxy.url);
  const status: any = await (await get("/_cliff/status")).json();
  sessionId = status.sessions[0].id;
});
afterAll(async () => {
  await proxy?.close();
  await mock?.close();
});

describe("a running proxy", () => {
  it("the last cliff and the event stream need the token on loopback too; status, metrics and health do not", async () => {
    const cliff = `/_cliff/sessions/${sessionId}/last-cliff`;
    const refused = await get(cliff);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await refused.text()).not.toContain("wJalr");
    expect((await get("/_cliff/events")).status).toBe(401);
    const shown = await get(cliff, { authorization: `Bearer ${TOKEN}` });
    expect(shown.status).toBe(200);
    expect(JSON.stringify(await shown.json())).toContain("wJalrXUtnFEMI");
    for (const path of ["/_cliff/status", "/_cliff/metrics", "/_cliff/health"]) expect((await get(path)).status, path).toBe(200);
    expect(await (await get("/_cliff/health")).json()).toMatchObject({ ok: true });
  });

  it("login: a wrong token gets 401 and no cookie; the right one an HttpOnly, SameSite=Strict cookie for /_cliff/ that opens content", async () => {
    const wrong = await get(`/_cliff/login?token=${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("set-cookie")).toBeNull();
    const ok = await get(`/_cliff/login?token=${encodeURIComponent(TOKEN)}`);
    expect(ok.status).toBe(200);
    const set = ok.headers.get("set-cookie")!;
    const attrs = set.split(";").map((s) => s.trim());
    expect(attrs).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Strict", "Path=/_cliff/"]));
    expect(set).not.toContain(TOKEN);
    expect(ok.headers.get("cache-control")).toBe("no-store");
    const crumb = attrs[0];
    expect((await get(`/_cliff/sessions/${sessionId}/last-cliff`, { cookie: crumb })).status).toBe(200);
    const events = await new Promise<number>((done) => http.get(proxy.url + "/_cliff/events", { headers: { cookie: crumb } }, (res) => (done(res.statusCode ?? 0), res.destroy())));
    expect(events).toBe(200);
  });

  it("login goes on to a page of ours only", async () => {
    const to = await get(`/_cliff/login?token=${TOKEN}&next=${encodeURIComponent("/_cliff/view")}`);
    expect(to.status).toBe(303);
    expect(to.headers.get("location")).toBe("/_cliff/view");
    for (const next of ["https://evil.example/", "//evil.example/_cliff/", "/_cliff//evil.example", "/v1/messages"]) {
      const r = await get(`/_cliff/login?token=${TOKEN}&next=${encodeURIComponent(next)}`);
      expect(r.status, next).toBe(200);
      expect(r.headers.get("location")).toBeNull();
    }
  });
});

/** Runs a script as `nobody` (uid 65534): a second account on this machine (without blocking this process: the proxy answers from here). */
async function asNobody(script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runChild("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", script], "/", { PATH: process.env.PATH }, 30_000);
  return { status: r.code, stdout: r.out, stderr: r.err };
}

const isRoot = process.getuid?.() === 0;
const hasSetpriv = spawnSync("setpriv", ["--version"]).status === 0;

describe("a second account on the same machine", () => {
  if (!isRoot || !hasSetpriv) {
    it.skip(`runs only as root with setpriv (this is uid ${process.getuid?.()}): another uid's reach is tested through the rule above`, () => undefined);
    return;
  }

  it("nobody reaches loopback and the counts, but neither the token file nor the last cliff nor the events", async () => {
    const state = mkdtempSync(join(tmpdir(), "cliff-access-state-"));
    chmodSync(state, 0o755); // a state folder others may list: the token's own folder and mode must hold
    const mine = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url }, env: { XDG_STATE_HOME: state, HOME: state } });
    try {
      await grow(mine.url);
      const id = ((await (await fetch(mine.url + "/_cliff/status")).json()) as any).sessions[0].id;
      const file = join(state, "cliffcompaction", "admin-token");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(join(state, "cliffcompaction")).mode & 0o777).toBe(0o700);
      const script = `
        const fs = require("fs");
        const out = { uid: process.getuid() };
        try { fs.readFileSync(${JSON.stringify(file)}, "utf8"); out.token = "read"; } catch (e) { out.token = e.code; }
        const get = (p) => fetch(${JSON.stringify(mine.url)} + p).then(async (r) => ({ status: r.status, text: await r.text() }));
        (async () => {
          out.status = await get("/_cliff/status");
          out.cliff = await get("/_cliff/sessions/${id}/last-cliff");
          const ac = new AbortController();
          const ev = await fetch(${JSON.stringify(mine.url)} + "/_cliff/events", { signal: ac.signal });
          out.events = ev.status; ac.abort();
          out.login = (await get("/_cliff/login?token=guess")).status;
          process.stdout.write(JSON.stringify(out));
        })();`;
      const r = await asNobody(script);
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.uid).toBe(65534);
      expect(out.token).toBe("EACCES");
      expect(out.status.status).toBe(200);
      expect(out.status.text).not.toContain("wJalr");
      expect(out.cliff.status).toBe(401);
      expect(out.cliff.text).not.toContain("wJalr");
      expect(out.events).toBe(401);
      expect(out.login).toBe(401);
      // The owner, with the file's token, reads the secret the other account could not.
      const { readAdminToken } = await import("../../node/admin-token.js");
      const own = await fetch(`${mine.url}/_cliff/sessions/${id}/last-cliff`, { headers: { authorization: `Bearer ${readAdminToken(file)}` } });
      expect(await own.text()).toContain("wJalrXUtnFEMI");
    } finally {
      await mine.close();
    }
  });
});

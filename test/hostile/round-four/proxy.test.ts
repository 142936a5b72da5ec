/**
 * Round four, the proxy: the event stream takes at most 32 subscribers (a 33rd gets 503 and one
 * line, and a place freed is taken again); `run`'s log goes to the user's state folder (0600, the
 * folder 0700), not to a predictable name in /tmp.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http, { type ClientRequest } from "node:http";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runAgent, startProxy, type RunningProxy } from "../../../proxy/index.js";
import { MAX_SUBSCRIBERS } from "../../../proxy/observe/events.js";

const TOKEN = "round-four-token-0123456789abcdef";
let proxy: RunningProxy;
beforeAll(async () => {
  proxy = await startProxy({ port: 0, adminToken: TOKEN, keepAliveMs: 0 });
});
afterAll(() => proxy.close());

function subscribe(): Promise<{ status: number; body: string; req: ClientRequest }> {
  return new Promise((resolve, reject) => {
    const req = http.get(proxy.url + "/_cliff/events", { headers: { authorization: `Bearer ${TOKEN}` }, agent: false }, (res) => {
      if (res.statusCode === 200) {
        res.once("data", () => resolve({ status: 200, body: "", req }));
        return;
      }
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, req }));
    });
    req.on("error", reject);
  });
}

describe("the event stream", () => {
  it("takes 32 subscribers; the 33rd gets 503 and one line; a place freed is taken again", async () => {
    expect(MAX_SUBSCRIBERS).toBe(32);
    const open = [];
    for (let i = 0; i < 32; i++) open.push(await subscribe());
    expect(open.every((s) => s.status === 200)).toBe(true);
    expect(proxy.observer.events.subscriberCount).toBe(32);
    const extra = await subscribe();
    expect(extra.status).toBe(503);
    expect(extra.body.trim().split("\n")).toHaveLength(1);
    expect(extra.body).toMatch(/32/);
    open.pop()!.req.destroy();
    for (let i = 0; i < 50 && proxy.observer.events.subscriberCount > 31; i++) await new Promise((r) => setTimeout(r, 20));
    const again = await subscribe();
    expect(again.status).toBe(200);
    for (const s of [...open, again]) s.req.destroy();
  });
});

describe("run's log", () => {
  it("is in the user's state folder, 0600 in a 0700 folder", async () => {
    const state = mkdtempSync(join(tmpdir(), "cliff-run-state-"));
    const said: string[] = [];
    const code = await runAgent({ command: "true", args: [], env: { PATH: process.env.PATH, HOME: state, XDG_STATE_HOME: state }, say: (l) => said.push(l), adminToken: TOKEN });
    expect(code).toBe(0);
    const log = /log: (\S+?);? /.exec(said.join("\n") + " ")![1];
    expect(dirname(log)).toBe(join(state, "cliffcompaction", "logs"));
    expect(log.startsWith(tmpdir() + "/cliffcompaction-")).toBe(false);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(log)).mode & 0o777).toBe(0o700);
  });
});

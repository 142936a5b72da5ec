/**
 * Round five, item 11 (minor): the collection when quiet runs while `watch` or the web view holds
 * the event stream open; a transform call's header values with CR/LF are not echoed; a named
 * `--admin-token-file` another account owns or anyone can write is refused; an upstream's error
 * body is decoded within a bound.
 */
import http from "node:http";
import { chmodSync, chownSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anthropicSession } from "../../../bench/sessions.js";
import { resolveConfig } from "../../../core/index.js";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { decodedText, ERROR_BODY_LIMIT } from "../../../proxy/decision/reactive.js";
import { AdminTokenError, readAdminToken } from "../../../node/admin-token.js";
import { mockUpstream, type MockUpstream } from "../../helpers/mock-upstream.js";

const TOKEN = "round-five-token-0123456789abcdef";
let mock: MockUpstream;
beforeAll(async () => void (mock = await mockUpstream()));
afterAll(() => mock.close());

const until = async (check: () => boolean, ms = 3000): Promise<boolean> => {
  for (let t = 0; t < ms && !check(); t += 20) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe("round five: minor cases", () => {
  it("11. idle collection runs while watch holds the event stream open", async () => {
    let collected = 0;
    const proxy: RunningProxy = await startProxy({ port: 0, adminToken: TOKEN, upstreams: { anthropic: mock.url }, idleCollect: { collect: () => void collected++, quietMs: 50 } });
    try {
      const stream = await new Promise<http.ClientRequest>((resolve) => {
        const req = http.get(proxy.url + "/_cliff/events", { headers: { authorization: `Bearer ${TOKEN}` } }, (res) => res.once("data", () => resolve(req)));
      });
      const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 8, messages: [{ role: "user", content: "hi" }] }) });
      await r.text();
      expect(await until(() => collected >= 2)).toBe(true);
      stream.destroy();
    } finally {
      await proxy.close();
    }
  });

  it("11. a transform call never echoes CR/LF from a passed header value", async () => {
    const proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 3000, keepRecent: 2, minGainTokens: 300 }), port: 0, adminToken: TOKEN, upstreams: { anthropic: mock.url } });
    try {
      const messages = anthropicSession(40_000, 5);
      const body = JSON.stringify({ model: "claude-sonnet-5-5", max_tokens: 64, thinking: { type: "enabled", budget_tokens: 1024 }, messages });
      const headers = { "x-api-key": "k", "anthropic-beta": "interleaved-thinking-2025-05-14\r\nset-cookie: stolen=1", "bad name\r\nx": "v" };
      const res = await fetch(proxy.url + "/_cliff/v1/compact", { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ api: "anthropic", body, headers }) });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const answer = JSON.parse(text);
      expect(answer.verdict.action).not.toBe("pass");
      for (const [k, v] of Object.entries(answer.headers as Record<string, string>)) expect(`${k}: ${v}`).not.toMatch(/[\r\n]/);
      expect(JSON.stringify(answer.headers)).not.toContain("stolen");
    } finally {
      await proxy.close();
    }
  });

  it("11. a named admin token file that another account owns or anyone can write is refused", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-named-token-"));
    const file = join(dir, "team-token");
    writeFileSync(file, TOKEN + "\n", { mode: 0o644 });
    expect(readAdminToken(file, { named: true })).toBe(TOKEN);
    chmodSync(file, 0o666);
    expect(() => readAdminToken(file, { named: true })).toThrow(/writable by every account/);
    chmodSync(file, 0o644);
    // Another owner: as root the file is given to nobody; elsewhere the rule is asked as another uid.
    if (process.getuid?.() === 0) {
      chownSync(file, 65534, 65534);
      expect(() => readAdminToken(file, { named: true })).toThrow(AdminTokenError);
      expect(() => readAdminToken(file, { named: true })).toThrow(/belongs to uid 65534/);
    } else expect(() => readAdminToken(file, { named: true, uid: (process.getuid?.() ?? 0) + 1 })).toThrow(/neither you nor root/);
  });

  it("11. an upstream error body is decoded within a bound (a gzip bomb reads as nothing)", () => {
    const bomb = gzipSync(Buffer.alloc(8 * ERROR_BODY_LIMIT, 0x61));
    expect(bomb.length).toBeLessThan(ERROR_BODY_LIMIT);
    expect(decodedText(bomb, "gzip")).toBe("");
    expect(decodedText(gzipSync(Buffer.from("prompt is too long")), "gzip")).toBe("prompt is too long");
  });
});

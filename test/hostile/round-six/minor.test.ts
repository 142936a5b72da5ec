/**
 * Round six, minor cases: `run`'s agent (and what it started) ends when the proxy is killed with
 * SIGKILL; `watch`'s readers bound what they read and how long; `/_cliff/status` open on loopback
 * lists no re-fetched tool's name (counts only; names with the admin token).
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { followEvents, getJson, READ_MAX_BYTES } from "../../../cli/watch/client.js";
import { startProxy } from "../../../proxy/index.js";
import { mockUpstream } from "../../helpers/mock-upstream.js";
import { codexTurnMetadata, compactionTriggerRequest } from "../../helpers/compaction-requests.js";

const dir = mkdtempSync(join(tmpdir(), "cliff-round-six-minor-"));
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (check: () => boolean, ms: number): Promise<boolean> => {
  for (let t = 0; t < ms && !check(); t += 50) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe("round six, minor: run's agent ends with the proxy", () => {
  it("SIGKILL of run's proxy: the agent and the process it started are gone within 5 s", async () => {
    const pids = join(dir, "pids.json");
    const agent = join(dir, "agent");
    // A stand-in agent that starts a child of its own (a tool's process), says both pids, and runs on.
    writeFileSync(agent, `#!${process.execPath}
const { spawn } = require("node:child_process");
const tool = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
require("node:fs").writeFileSync(${JSON.stringify(pids)}, JSON.stringify({ agent: process.pid, tool: tool.pid }));
setInterval(() => {}, 1000);`);
    chmodSync(agent, 0o755);
    const state = mkdtempSync(join(dir, "state-"));
    const run = spawn(process.execPath, ["dist/cli.mjs", "run", "--", agent], { cwd: process.cwd(), env: { ...process.env, HOME: state, XDG_STATE_HOME: state }, stdio: "ignore", detached: true });
    try {
      expect(await until(() => existsSync(pids) && readFileSync(pids, "utf8").endsWith("}"), 30_000)).toBe(true);
      const { agent: a, tool: t } = JSON.parse(readFileSync(pids, "utf8")) as { agent: number; tool: number };
      expect(alive(a) && alive(t)).toBe(true);
      process.kill(run.pid!, "SIGKILL");
      await until(() => !alive(a) && !alive(t), 5000);
      const left = [a, t].filter(alive).length;
      console.log(`round six, minor: ${left} of the agent's 2 processes alive 5 s after the proxy's SIGKILL`);
      for (const pid of [a, t]) if (alive(pid)) process.kill(pid, "SIGKILL");
      expect(left).toBe(0);
    } finally {
      try {
        process.kill(-run.pid!, "SIGKILL");
      } catch {
        // the group is gone
      }
    }
  }, 60_000);
});

/** A listener that answers every request with `answer`; the bytes it managed to write, per request. */
async function listener(answer: (res: http.ServerResponse, written: (n: number) => void) => void): Promise<{ url: string; written: number[]; close: () => void }> {
  const written: number[] = [];
  const server = http.createServer((_req, res) => {
    const k = written.push(0) - 1;
    answer(res, (n) => (written[k] += n));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, written, close: () => (server.closeAllConnections(), server.close()) };
}

/** Writes 64 KiB chunks as fast as the client reads, up to `max` bytes, then ends. */
function flood(max: number, head = true) {
  return (res: http.ServerResponse, written: (n: number) => void): void => {
    if (head) res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, "1");
    let sent = 0;
    const more = (): void => {
      while (sent < max && !res.destroyed) {
        sent += chunk.length;
        written(chunk.length);
        if (!res.write(chunk)) return void res.once("drain", more);
      }
      res.end();
    };
    res.write("[");
    more();
  };
}

describe("round six, minor: watch's readers are bounded", () => {
  it(`an endless JSON answer: watch reads at most ${READ_MAX_BYTES / 1024 / 1024} MiB of it and gives up`, async () => {
    const l = await listener(flood(256 * 1024 * 1024));
    try {
      await expect(getJson(l.url, "/_cliff/status")).rejects.toThrow(/more than/);
      console.log(`round six, minor: an endless status answer read to ${(Math.max(...l.written) / 1024 / 1024).toFixed(1)} MiB`);
      expect(Math.max(...l.written)).toBeLessThan(READ_MAX_BYTES + 16 * 1024 * 1024);
    } finally {
      l.close();
    }
  });

  it("a trickled answer (a byte every 100 ms, never ending) times out as a whole", async () => {
    const l = await listener((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const t = setInterval(() => (res.destroyed ? clearInterval(t) : res.write(" ")), 100);
    });
    try {
      const started = Date.now();
      await expect(getJson(l.url, "/_cliff/status", {}, 3000, 2000)).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      l.close();
    }
  });

  it("an event stream that never ends its event: the stream ends once the event passes the bound", async () => {
    const l = await listener((res, written) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: ");
      flood(256 * 1024 * 1024, false)(res, written);
    });
    try {
      const why = await new Promise<string>((resolve) => followEvents(l.url, {}, { onEvent: () => undefined, onLive: () => undefined, onEnd: resolve }));
      expect(why).toMatch(/more than/);
      expect(Math.max(...l.written)).toBeLessThan(READ_MAX_BYTES + 16 * 1024 * 1024);
    } finally {
      l.close();
    }
  });
});

describe("round six, minor: the open status names no tool", () => {
  it("a session's re-fetched tools are counted on open loopback, named only to a reader with the admin token", async () => {
    const token = "round-six-status-names-0123456789";
    const proxy = await startProxy({ port: 0, adminToken: token, upstreams: { anthropic: "http://127.0.0.1:9" }, log: () => undefined });
    try {
      const { session } = proxy.observer.sessions.find("claude\u0000names", "turn", Date.now());
      session!.refetches.add({ cut: 9, summary: "0123abcd", count: 1, tokens: 40, calls: [{ tool: "mcp__payroll-internal__read", tokens: 40, message: 12 }] });
      const open = await (await fetch(proxy.url + "/_cliff/status")).text();
      const named = await (await fetch(proxy.url + "/_cliff/status", { headers: { authorization: `Bearer ${token}` } })).text();
      console.log(`round six, minor: the open status names the tool ${open.split("mcp__payroll").length - 1} times, with the token ${named.split("mcp__payroll").length - 1}`);
      expect(JSON.parse(open).sessions[0].refetches).toMatchObject({ count: 1, tokens: 40, cliffs: [{ count: 1, calls: [{ tokens: 40, message: 12 }] }] });
      expect(open).not.toContain("mcp__payroll");
      expect(named).toContain("mcp__payroll-internal__read");
    } finally {
      await proxy.close();
    }
  });
});

describe("round six, minor: an OpenAI-compatible gateway in front of OpenAI", () => {
  it("with --answer-compaction, a compaction_trigger bound for a gateway reaches it; answered here only when the user says the upstream cannot run it", async () => {
    const gateway = await mockUpstream();
    const reached: number[] = [];
    try {
      for (const remoteCompaction of [undefined, false]) {
        const proxy = await startProxy({ port: 0, upstreams: { openai: gateway.url + "/openai/v1" }, answerCompaction: true, ...(remoteCompaction === undefined ? {} : { remoteCompaction }), log: () => undefined });
        const from = gateway.received.length;
        const r = await fetch(proxy.url + "/v1/responses", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k", ...codexTurnMetadata("compaction") }, body: JSON.stringify({ ...compactionTriggerRequest(12), stream: false }) });
        await r.text();
        reached.push(gateway.received.length - from);
        await proxy.close();
      }
      console.log(`round six, minor: triggers that reached the gateway: ${reached[0]} by default, ${reached[1]} with --no-remote-compaction`);
      expect(reached).toEqual([1, 0]);
    } finally {
      await gateway.close();
    }
  });
});

/**
 * `cliffcompaction watch`: the frame from a scripted status (exact), `watch --once` against a
 * scripted proxy and against a real one driven across the threshold (no marker of a body or header
 * in it), one line when no proxy answers, and the keys under a pseudo-terminal (Python's pty):
 * pause, open a session's last cliff and back, resize, quit with q and with Ctrl-C, the terminal
 * restored each time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { cliffFrame, wrap } from "../../cli/watch/cliff.js";
import { frame, RECALLS_FROM, type FrameState } from "../../cli/watch/frame.js";
import { textWidth } from "../../cli/terminal-text.js";
import { keys } from "../../cli/watch/command.js";
import { sparkline } from "../../cli/watch/sparkline.js";
import { runChild } from "../helpers/child.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PTY_SCRIPT } from "../helpers/pty.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { freePort } from "../helpers/free-port.js";

const NOW = Date.parse("2026-12-01T10:00:00Z");

/** A status as a proxy with two sessions would send it. */
function scriptedStatus(now = NOW): any {
  const at = (ms: number) => new Date(now - ms).toISOString();
  return {
    version: "0.2.0", uptimeSeconds: 3725, compactable: 42, cliffs: 3, reuses: 30, tokensSaved: 123_456, netDollars: 0.0421, recalls: { calls: 2, rounds: 1, tokens: 7_912 },
    config: { thresholdTokens: 12_000, keepRecent: 1, shadow: false },
    usage: { input: 1200, cacheRead: 345_000, cacheWrite: 23_000, output: 4100 },
    sessionCount: 2,
    sessions: [
      { id: "3f9a1c2b0d", model: "claude-sonnet-4-5", requests: 30, cliffs: 3, messagesIn: 214, messagesOut: 9, tokensIn: 15_230, tokensOut: 4_100, cacheHitRate: 0.914, ledger: { cliffs: 3, netDollars: 0.0421 }, recalls: { calls: 2, rounds: 1, tokens: 7_912 },
        context: [3000, 6000, 9000, 12_500, 4000, 8000, 12_100, 4100], cliffAt: [3, 6], started: at(3 * 3600_000), lastSeen: at(5_000) },
      { id: "77ab01cd9e", model: "gpt-5.1-codex", requests: 12, cliffs: 0, messagesIn: 20, messagesOut: 20, tokensIn: 5_000, tokensOut: 5_000, cacheHitRate: null, ledger: { cliffs: 0, netDollars: 0 }, recalls: { calls: 0, rounds: 0, tokens: 0 },
        context: [1000, 3000, 5000], cliffAt: [], started: at(2 * 3600_000), lastSeen: at(3600_000) },
    ],
  };
}
const EVENT = { time: "2026-12-01T09:59:58.123Z", session: "3f9a1c2b0d", api: "anthropic", model: "claude-sonnet-4-5", action: "cliff", messagesIn: 214, messagesOut: 9, tokensIn: 15_230, tokensOut: 4_100, addedMs: 4.21, status: 200, usage: { input: 12, cacheRead: 0, cacheWrite: 4100, output: 87 } };
const RECALLED = { ...EVENT, time: "2026-12-01T09:59:59.500Z", action: "reuse", messagesIn: 216, messagesOut: 11, tokensIn: 15_600, tokensOut: 4_470, recall: { calls: 2, rounds: 1, tokens: 7_912, cliff: { calls: 2, rounds: 1, tokens: 7_912 } } };

describe("the frame", () => {
  it("a scripted status, in plain text: header, one row per session newest first (its recalls, 0 for none), the newest events", () => {
    const state: FrameState = { url: "http://127.0.0.1:8257", status: scriptedStatus(), events: [EVENT, RECALLED], paused: false, selected: 0, problem: null, now: NOW };
    expect(frame(state, 150, 40, true)).toEqual([
      "cliffcompaction 0.2.0 · http://127.0.0.1:8257 · up 1h02m · threshold 12,000 · keepRecent 1",
      "requests 42 · cliffs 3 · reuses 30 · recalls 2 (7.9k tokens) · saved 123k tokens, net $0.042",
      "provider's count: input 1.2k · cache read 345k · cache write 23k · output 4.1k",
      "",
      "  SESSION     MODEL               CONTEXT                                            MSGS CUT   TOKENS IN→OUT  CLIFFS   RECALLS   HIT      NET    AGE",
      "● 3f9a1c2b0d  claude-sonnet-4-5   ▂▄▆×▃▆×▃                                            205/214        15k→4.1k       3  2 (7.9k)   91%   $0.042  3h00m",
      "○ 77ab01cd9e  gpt-5.1-codex       ▁▂▄                                                    0/20       5.0k→5.0k       0         0     —           2h00m",
      "",
      "EVENTS",
      "09:59:59 3f9a1c2b0d reuse     216→11 msgs 15,600→4,470 tok +4.2ms 200 · recalls 2 (7.9k tok), 2 since its cliff · provider in 12 cache 0/4.1k out 87",
      "09:59:58 3f9a1c2b0d cliff     214→9 msgs 15,230→4,100 tok +4.2ms 200 · provider in 12 cache 0/4.1k out 87",
    ]);
  });

  it("the recalls column from RECALLS_FROM cells on, a terminal frame's rows within the width either side (the header keeps the total)", () => {
    for (const width of [100, RECALLS_FROM - 1, RECALLS_FROM, 140]) {
      const state: FrameState = { url: "u", status: scriptedStatus(), events: [], paused: false, selected: 0, problem: null, now: NOW };
      const tty = frame(state, width, 25, false);
      for (const l of tty) expect(textWidth(l.replace(/\x1b\[[0-9;]*m/g, "")), l).toBeLessThanOrEqual(width);
      expect(tty.some((l) => l.includes("RECALLS"))).toBe(width >= RECALLS_FROM);
      expect(tty[1]).toContain("recalls 2 (7.9k tokens)");
    }
  });

  it("every line fits the width; a terminal frame marks the selected row and pause, and fits the height", () => {
    for (const width of [40, 80, 200]) {
      const state: FrameState = { url: "u", status: scriptedStatus(), events: Array(30).fill(EVENT), paused: true, selected: 1, problem: "no proxy answers", now: NOW };
      const plain = frame(state, width, 25, true);
      for (const l of plain) expect([...l].length).toBeLessThanOrEqual(width);
      expect(plain.length).toBeLessThanOrEqual(25);
      const tty = frame(state, width, 25, false);
      expect(tty.some((l) => l.startsWith("\x1b[7m○ 77ab01cd9e"))).toBe(true);
      expect(tty[0].startsWith("PAUSED · ")).toBe(true);
      expect(tty.join("\n")).toContain("\x1b[31m\x1b[1m×");
    }
  });

  it("a threshold that is a share of each model's window: said in the header; each session's own threshold is its ceiling", () => {
    const status = scriptedStatus();
    status.thresholdShare = 0.5;
    status.sessions[0] = { ...status.sessions[0], threshold: 6000, context: [3000, 6000, 1500], cliffAt: [] };
    const lines = frame({ url: "u", status, events: [], paused: false, selected: 0, problem: null, now: NOW }, 120, 40, true);
    expect(lines[0]).toContain("threshold 50% of each model's window");
    expect(lines.find((l) => l.startsWith("● 3f9a1c2b0d"))).toContain(" ▄█▂ ");
  });

  it("compaction requests the proxy answered (--answer-compaction) are counted in the totals line, only when there are some", () => {
    const status = { ...scriptedStatus(), answered: 2 };
    expect(frame({ url: "u", status, events: [], paused: false, selected: 0, problem: null, now: NOW }, 120, 40, true)[1]).toBe("requests 42 · cliffs 3 · reuses 30 · compactions answered 2 · recalls 2 (7.9k tokens) · saved 123k tokens, net $0.042");
    expect(frame({ url: "u", status: scriptedStatus(), events: [], paused: false, selected: 0, problem: null, now: NOW }, 120, 40, true)[1]).not.toContain("answered");
  });

  it("keys read together are taken one by one, escape sequences whole", () => {
    expect(keys("p\r")).toEqual(["p", "\r"]);
    expect(keys("\x1b[A\x1b[Bq")).toEqual(["\x1b[A", "\x1b[B", "q"]);
    expect(keys("\x1b")).toEqual(["\x1b"]);
    expect(keys("\x1bOA\x03")).toEqual(["\x1bOA", "\x03"]);
  });

  it("the sparkline: the threshold is its ceiling, cliffs are marked, the newest values kept", () => {
    expect(sparkline([0, 1500, 3000, 6000, 12_000, 24_000], 12_000, new Set([5]), 10)).toBe("▁▁▂▄█×");
    expect(sparkline([1, 2, 3, 4, 5], 5, new Set(), 3)).toBe("▅▇█");
  });

  it("the last cliff: the summary beside what was dropped, wrapped to two columns", () => {
    const view = { id: "3f9a1c2b0d", model: "claude-sonnet-4-5", time: "2026-12-01T09:59:58.123Z", messagesIn: 9, messagesOut: 4, tokensIn: 900, tokensOut: 300, summary: "The following is a summary.\n[tool] bash: npm test", dropped: [{ role: "user", chars: 2000, text: "FAIL 1 FAIL 1" }, { role: "assistant", chars: 12, text: "Step 1 done." }] };
    const lines = cliffFrame(view, 60, 12, 0);
    expect(lines[0]).toBe("last cliff of 3f9a1c2b0d (claude-sonnet-4-5) at 2026-12-01…");
    expect(lines[1]).toMatch(/^SUMMARY SENT +│ DROPPED \(2 messages\)$/);
    expect(lines[2]).toMatch(/^The following is a summary\. +│ \[user, 2,000 chars\] FAIL 1$/);
    expect(lines[3]).toMatch(/^\[tool\] bash: npm test +│ FAIL 1 …$/);
    expect(lines.some((l) => l.endsWith("│ [assistant, 12 chars] Step 1"))).toBe(true);
    expect(wrap("a".repeat(25), 10)).toEqual(["aaaaaaaaaa", "aaaaaaaaaa", "aaaaa"]);
    // What its summary's refs cost since: the proxy's count, 0 for none.
    expect(cliffFrame({ ...view, recalls: { calls: 3, tokens: 1_451 } }, 120, 12, 0)[0]).toBe("last cliff of 3f9a1c2b0d (claude-sonnet-4-5) at 2026-12-01 09:59:58: 9→4 msgs, 900→300 tokens, recalls since 3 (1.5k)");
    expect(cliffFrame({ ...view, recalls: { calls: 0, tokens: 0 } }, 120, 12, 0)[0]).toMatch(/tokens, recalls since 0$/);
  });
});

/** A scripted proxy: a fixed status (ages relative to now) and a backlog of events. */
function scriptedProxy(): Promise<{ port: number; close: () => void }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/_cliff/status")) {
      res.writeHead(200, { "content-type": "application/json" });
      return void res.end(JSON.stringify(scriptedStatus(Date.now())));
    }
    if (req.url === "/_cliff/events") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(EVENT)}\n\n: live\n\n`);
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ port: (server.address() as AddressInfo).port, close: () => (server.close(), server.closeAllConnections()) })));
}

const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => runChild(process.execPath, ["dist/cli.mjs", ...args], process.cwd(), { ...process.env, COLUMNS: "120", ...env }, 30_000);

describe("watch --once", () => {
  it("prints one plain frame of a scripted proxy and exits 0", async () => {
    const p = await scriptedProxy();
    // A state folder of its own: a token another test's proxy left would have to be proven by the
    // scripted listener, which knows no token (that refusal is tested with the proof itself).
    const r = await cli(["watch", "--once", "--port", String(p.port)], { XDG_STATE_HOME: mkdtempSync(join(tmpdir(), "cliff-watch-state-")) });
    p.close();
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("\x1b");
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toBe(`cliffcompaction 0.2.0 · http://127.0.0.1:${p.port} · up 1h02m · threshold 12,000 · keepRecent 1`);
    expect(lines.find((l) => l.startsWith("● 3f9a1c2b0d"))).toMatch(/claude-sonnet-4-5 +▂▄▆×▃▆×▃ +205\/214 +15k→4\.1k +3 +2 \(7\.9k\) +91% +\$0\.042 +3h00m$/);
    expect(lines.find((l) => l.startsWith("○ 77ab01cd9e"))).toContain("gpt-5.1-codex");
    expect(lines[lines.length - 1]).toMatch(/^09:59:58 3f9a1c2b0d cliff +214→9 msgs/);
  });

  it("no proxy: one line saying so, exit 1; a bad --proxy: exit 2", async () => {
    const port = await freePort();
    const r = await cli(["watch", "--once", "--port", String(port)]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`cliffcompaction: no proxy answers at http://127.0.0.1:${port} (ECONNREFUSED)\n`);
    const bad = await cli(["watch", "--once", "--proxy", "not a url"]);
    expect(bad.code).toBe(2);
    expect(bad.err.split("\n")[0]).toBe('cliffcompaction: --proxy must be a URL such as http://127.0.0.1:8257, got "not a url"');
    expect((await cli(["watch", "--threshold", "5"])).err).toContain("--threshold does not apply to watch");
  });
});

describe("run names the command that watches it", () => {
  it("run --port N listens on N and says `watch --port N` on its one line", async () => {
    const port = await freePort();
    const agent = `const s = await (await fetch("http://127.0.0.1:${port}/_cliff/status")).json(); console.log("LISTEN", s.listen);`;
    const r = await cli(["run", "--port", String(port), "--", process.execPath, "--input-type=module", "-e", agent], { ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "" });
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim()).toBe(`LISTEN http://127.0.0.1:${port}`);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toContain(`watch it: npx cliffcompaction watch --port ${port}; log: `);
  });
});

describe("watch against a real proxy", () => {
  let mock: MockUpstream;
  let proxy: RunningProxy;
  const MARKER = "MARKER-0c7e44";
  beforeAll(async () => {
    mock = await mockUpstream();
    proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" } });
    const msgs: unknown[] = [{ role: "user", content: `Fix the build. ${MARKER}` }];
    for (let i = 0; i < 16; i++) {
      msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i} ${MARKER}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `make ${MARKER}` } }] });
      msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `FAIL ${MARKER}\n`.repeat(i % 2 ? 1 : 100) }] });
      const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": MARKER, "x-claude-code-session-id": MARKER }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: msgs }) });
      await r.arrayBuffer();
    }
    for (let i = 0; i < 100 && proxy.observer.events.published < 16; i++) await new Promise((r) => setTimeout(r, 10));
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });

  it("watch --once shows the session with its cliffs and no text of any body or header", async () => {
    const r = await cli(["watch", "--once", "--port", String(proxy.port)]);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain(MARKER);
    const s = proxy.observer.sessions.list()[0];
    const row = r.out.split("\n").find((l) => l.startsWith(`● ${s.id}`))!;
    expect(row).toContain("claude-sonnet-4-5");
    expect(row).toContain("×");
    expect(row).toMatch(new RegExp(` ${s.cliffs} +0 +0% +-?\\$`));
    expect(r.out.split("\n").filter((l) => / cliff +\d+→\d+ msgs/.test(l)).length).toBeGreaterThan(0);
  });

  it("the keys under a pseudo-terminal: pause, open the last cliff and back, resize, quit; Ctrl-C; the terminal restored", async () => {
    // Run without blocking this process: the proxy the view watches answers from here.
    const runPty = async (keys: [string | null, string][]) => {
      const r = await runChild("python3", ["-c", PTY_SCRIPT, process.execPath, "dist/cli.mjs", "watch", "--port", String(proxy.port)], process.cwd(), { ...process.env, KEYS: JSON.stringify(keys) }, 60_000);
      expect(r.code, r.err).toBe(0);
      return JSON.parse(r.out) as { seen: Record<string, boolean>; code: number | null; out: string };
    };
    const a = await runPty([[null, "EVENTS"], ["p", "PAUSED"], ["p", "p: pause"], ["\r", "SUMMARY SENT"], ["\x1b", "enter: last cliff"], ["RESIZE", "…"], ["q", "\x1b[?1049l"]]);
    expect(a.seen).toEqual({ EVENTS: true, PAUSED: true, "p: pause": true, "SUMMARY SENT": true, "enter: last cliff": true, "…": true, "\x1b[?1049l": true });
    expect(a.code).toBe(0);
    expect(a.out.startsWith("\x1b[?1049h\x1b[?25l")).toBe(true);
    expect(a.out.endsWith("\x1b[?25h\x1b[?1049l")).toBe(true);
    expect(a.out).toContain("DROPPED (");
    expect(a.out).not.toContain("internal error");
    const b = await runPty([[null, "EVENTS"], ["\x03", "\x1b[?1049l"]]);
    expect(b.code).toBe(0);
    expect(b.out.endsWith("\x1b[?25h\x1b[?1049l")).toBe(true);
  });

  it("redraws at most four times a second however fast events come", async () => {
    // Two hundred events a second for as long as the view runs: unthrottled, as many frames.
    const flood = setInterval(() => proxy.observer.events.publish({ time: new Date().toISOString(), session: null, api: "anthropic", model: "other", action: "pass", messagesIn: 1, messagesOut: 1, tokensIn: 1, tokensOut: 1, addedMs: 0, status: 200, usage: null }), 5);
    try {
      const r = await runChild("python3", ["-c", PTY_SCRIPT, process.execPath, "dist/cli.mjs", "watch", "--port", String(proxy.port)], process.cwd(), { ...process.env, KEYS: JSON.stringify([[null, "EVENTS"], ["FRAMES", "frames"], ["q", "\x1b[?1049l"]]) }, 60_000);
      const seen = (JSON.parse(r.out) as { seen: Record<string, number> }).seen;
      expect(seen.frames).toBeGreaterThanOrEqual(4);
      expect(seen.frames).toBeLessThanOrEqual(9);
    } finally {
      clearInterval(flood);
    }
  });
});

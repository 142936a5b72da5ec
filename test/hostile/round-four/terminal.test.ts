/**
 * Round four: what `watch` draws from session text is inert. A session full of hostile sequences
 * (OSC 52 setting the clipboard, clearing the screen, colours, C1 controls, DEL, bidi overrides)
 * reaches the frame, the last-cliff view and `watch --once` on a terminal only as visible escapes,
 * and columns stay aligned with wide characters. On a pipe, `compact` keeps the exact bytes.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cliffFrame, type CliffView } from "../../../cli/watch/cliff.js";
import { frame, type FrameState } from "../../../cli/watch/frame.js";
import { textWidth } from "../../../cli/terminal-text.js";

export const HOSTILE = "\x1b]52;c;ZXZpbA==\x07\x1b[2J\x1b[38;5;196mRED\x9b2J\x7f\u202eevil\u2066x\u2069\x00\x08\r";
/** The sequences a frame draws on its own: reverse, dim, red, bold, reset. */
const OURS = /\x1b\[(7|2|31|1|0)m/g;
const ACTIVE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
/** The same, a line break and a tab aside (a block of lines keeps them). */
const ACTIVE_BLOCK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const NOW = Date.parse("2026-12-01T10:00:00Z");

function hostileStatus(): any {
  const at = (ms: number) => new Date(NOW - ms).toISOString();
  return {
    version: `0.2.0${HOSTILE}`, uptimeSeconds: 60, compactable: 1, cliffs: 1, reuses: 0, tokensSaved: 1, netDollars: null,
    config: { thresholdTokens: 1000, keepRecent: 1 }, usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 }, sessionCount: 2,
    sessions: [
      { id: "3f9a1c2b0d", model: `claude${HOSTILE}`, requests: 3, cliffs: 1, messagesIn: 20, messagesOut: 5, tokensIn: 1000, tokensOut: 300, cacheHitRate: null, ledger: { cliffs: 0 }, context: [100, 900, 300], cliffAt: [2], started: at(60_000), lastSeen: at(1000) },
      { id: "77ab01cd9e", model: "模型名称模型名称模型名称", requests: 1, cliffs: 0, messagesIn: 2, messagesOut: 2, tokensIn: 10, tokensOut: 10, cacheHitRate: null, ledger: { cliffs: 0 }, context: [10], cliffAt: [], started: at(60_000), lastSeen: at(1000) },
    ],
  };
}

const event = { time: "2026-12-01T09:59:58.123Z", session: `ab${HOSTILE}`, api: "anthropic", model: `m${HOSTILE}`, action: `cliff${HOSTILE}`, messagesIn: 2, messagesOut: 1, tokensIn: 10, tokensOut: 5, addedMs: 1, status: 200, usage: null };

describe("the frame", () => {
  it.each([true, false])("plain %s: no control from session text, only visible escapes; every line within the width", (plain) => {
    const state: FrameState = { url: "http://127.0.0.1:8257", status: hostileStatus(), events: [event], paused: false, selected: 0, problem: `problem${HOSTILE}`, now: NOW };
    const lines = frame(state, 100, 40, plain);
    for (const line of lines) {
      const bare = line.replace(OURS, "");
      expect(bare, JSON.stringify(line)).not.toMatch(ACTIVE);
      expect(textWidth(bare)).toBeLessThanOrEqual(100);
    }
    expect(lines.join("\n")).toContain("\\x1b]52;c;ZXZpbA==\\x07");
  });

  it("a row with a wide model name keeps the columns after it where the others have them", () => {
    const lines = frame({ url: "u", status: hostileStatus(), events: [], paused: false, selected: -1, problem: null, now: NOW }, 130, 40, true);
    const rows = lines.filter((l) => /^[●○] /.test(l));
    expect(rows).toHaveLength(2);
    const cell = (l: string, needle: string) => textWidth(l.slice(0, l.indexOf(needle)));
    // The column of the age (the last) is the same cell on both rows.
    expect(cell(rows[0], "1m00s")).toBe(cell(rows[1], "1m00s"));
  });
});

describe("the last-cliff view", () => {
  const view: CliffView = {
    id: "3f9a1c2b0d", model: `claude${HOSTILE}`, time: "2026-12-01T09:59:00.000Z", messagesIn: 20, messagesOut: 5, tokensIn: 1000, tokensOut: 300,
    summary: `## Summary\n${HOSTILE}\n日本語のまとめ 日本語のまとめ 日本語のまとめ 日本語のまとめ 日本語のまとめ\ne\u0301\u0301 combining\n${"x".repeat(200)}`,
    dropped: [
      { role: "user", chars: 900, text: `cat .env ${HOSTILE} 全角ＡＢＣ全角ＡＢＣ全角ＡＢＣ全角ＡＢＣ全角ＡＢＣ` },
      { role: `tool${HOSTILE}`, chars: 50, text: "🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀🚀" },
    ],
  };

  it("shows hostile text as visible escapes, and the divider sits in the same cell on every line", () => {
    for (const width of [60, 101, 140]) {
      const lines = cliffFrame(view, width, 50, 0);
      for (const line of lines) {
        expect(line, JSON.stringify(line)).not.toMatch(ACTIVE);
        expect(textWidth(line), JSON.stringify(line)).toBeLessThanOrEqual(width);
      }
      const body = lines.slice(2, -1).filter((l) => l.includes("│"));
      expect(body.length).toBeGreaterThan(4);
      const at = new Set(body.map((l) => textWidth(l.slice(0, l.indexOf("│")))));
      expect([...at], `${width}`).toHaveLength(1);
      expect(lines.join("\n")).toContain("\\u202eevil");
    }
  });
});

/** Runs the CLI under a pseudo-terminal (Python's pty) and returns what the terminal received. */
const PTY = `
import os, pty, sys, select
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        r, _, _ = select.select([fd], [], [], 10)
        if not r: break
        chunk = os.read(fd, 65536)
        if not chunk: break
        out += chunk
    except OSError:
        break
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
`;

describe("compact's output", () => {
  const file = join(mkdtempSync(join(tmpdir(), "cliff-hostile-")), "session.json");
  const msgs: unknown[] = [{ role: "user", content: "Deploy the widgets." }];
  for (let i = 0; i < 8; i++) {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: "cat notes" } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `ok ${HOSTILE} `.repeat(3) }] });
  }
  writeFileSync(file, JSON.stringify({ messages: msgs }));
  const argv = [resolve("dist/cli.mjs"), "compact", file, "--threshold", "100", "--keep-recent", "1", "--lines", "0"];

  it("to a pipe: the exact bytes", () => {
    const r = spawnSync(process.execPath, argv, { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("\x1b]52;c;ZXZpbA==\x07");
  });

  it.skipIf(spawnSync("python3", ["-c", "import pty"]).status !== 0)("to a terminal: every control shown as a visible escape", () => {
    const r = spawnSync("python3", ["-c", PTY, process.execPath, ...argv], { encoding: "utf8", timeout: 60_000 });
    expect(r.stdout).toContain("\\x1b]52;c;ZXZpbA==\\x07");
    // The terminal's own line ends (\r\n) aside, nothing a terminal would act on.
    expect(r.stdout.replace(/\r\n/g, "\n")).not.toMatch(ACTIVE_BLOCK);
  });
});

describe("watch --once against a proxy with a hostile session", () => {
  it("the frame holds no control from the session, only visible escapes", async () => {
    const { startProxy } = await import("../../../proxy/index.js");
    const { mockUpstream } = await import("../../helpers/mock-upstream.js");
    const { runChild } = await import("../../helpers/child.js");
    const { resolveConfig } = await import("../../../core/index.js");
    const mock = await mockUpstream();
    const proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url } });
    try {
      const msgs: unknown[] = [{ role: "user", content: `Fix it ${HOSTILE}` }];
      for (let i = 0; i < 12; i++) {
        msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: `cat x ${HOSTILE}` } }] });
        msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `out ${HOSTILE}\n`.repeat(60) }] });
      }
      // Request by request, as an agent sends its growing history.
      for (let n = 3; n <= msgs.length; n += 2) {
        const body = JSON.stringify({ model: `claude-${HOSTILE}`, max_tokens: 10, messages: msgs.slice(0, n) });
        await (await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": "hostile" }, body })).arrayBuffer();
      }
      const r = await runChild(process.execPath, [resolve("dist/cli.mjs"), "watch", "--once", "--port", String(proxy.port)], process.cwd(), process.env, 30_000);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^● [0-9a-f]{10} .*×/m);
      expect(r.out).not.toMatch(ACTIVE_BLOCK);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});

describe("the live view's last cliff, under a pseudo-terminal", () => {
  it.skipIf(spawnSync("python3", ["-c", "import pty"]).status !== 0)("opening a hostile session's last cliff draws no sequence of the session's own", async () => {
    const { PTY_SCRIPT } = await import("../../helpers/pty.js");
    const { startProxy } = await import("../../../proxy/index.js");
    const { mockUpstream } = await import("../../helpers/mock-upstream.js");
    const { runChild } = await import("../../helpers/child.js");
    const { resolveConfig } = await import("../../../core/index.js");
    const mock = await mockUpstream();
    const proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url } });
    try {
      const msgs: unknown[] = [{ role: "user", content: `Fix it ${HOSTILE} 日本語のタスク` }];
      for (let i = 0; i < 12; i++) {
        msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: `cat x ${HOSTILE}` } }] });
        msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `out ${HOSTILE} 全角ＡＢＣ\n`.repeat(60) }] });
      }
      for (let n = 3; n <= msgs.length; n += 2) {
        const body = JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: msgs.slice(0, n) });
        await (await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": "hostile" }, body })).arrayBuffer();
      }
      const keys = [[null, "EVENTS"], ["\r", "SUMMARY SENT"], ["q", "\x1b[?1049l"]];
      const r = await runChild("python3", ["-c", PTY_SCRIPT, process.execPath, resolve("dist/cli.mjs"), "watch", "--port", String(proxy.port)], process.cwd(), { ...process.env, KEYS: JSON.stringify(keys) }, 60_000);
      const seen = JSON.parse(r.out) as { seen: Record<string, boolean>; out: string };
      expect(seen.seen["SUMMARY SENT"]).toBe(true);
      expect(seen.out).toContain("\\x1b]52;c;ZXZpbA==\\x07");
      // What the view draws of its own: the screen and cursor, line ends, its colours; nothing else may act on the terminal.
      const bare = seen.out.replace(/\x1b\[\?(1049|25)[hl]|\x1b\[[HKJ]|\x1b\[(7|2|31|1|0)m|\r+\n/g, "");
      expect(bare).not.toMatch(ACTIVE_BLOCK);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });
});

/**
 * Round five, item 6: `status` shows what the listener answered (version, log path, model keys,
 * reasons) inert: whoever holds the port cannot reach the terminal with escapes or forge a row.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runChild } from "../../helpers/child.js";

describe("round five: status's text", () => {
  it("6. status prints the listener's answer inert: no escape, no extra row", async () => {
    const osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07";
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        name: "cliffcompaction", version: `1.0${osc52}`, requests: 1, sessions: [], logFile: "/tmp/x\x1b[2J.log",
        windows: { "m\u202eodel\nproxy    forged row": { thresholdTokens: 1, window: 2, reason: "share\x1b[31m", why: "\x9b2J", warning: "\x1b[H" } },
      }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const home = mkdtempSync(join(tmpdir(), "cliff-status-text-"));
    try {
      const r = await runChild(process.execPath, ["dist/cli.mjs", "status", "--port", String(port)], process.cwd(), { PATH: process.env.PATH, HOME: home, XDG_STATE_HOME: home }, 30_000);
      expect(r.out).toContain("1.0\\x1b]52;c;cm0gLXJmIH4=\\x07");
      expect(r.out).toContain("\\u202e");
      expect(r.out).not.toMatch(/[\x1b\x07\x9b\u202e]/);
      expect(r.out.split("\n").filter((l) => l.includes("forged row"))).toHaveLength(1);
      expect(r.out).not.toMatch(/^proxy {4}forged row/m);
    } finally {
      server.close();
    }
  });
});

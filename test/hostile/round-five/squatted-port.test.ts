/**
 * Round five, item 4: `watch` and `status` never hand the admin token to whoever holds the port.
 * Another account (`nobody` where the tests run as root with setpriv; this account elsewhere: the
 * proof does not depend on who the squatter is) listens on a port while the user's proxy is down,
 * answers like a proxy, and relays `/_cliff/prove` to the user's real proxy on another port. The
 * token goes only to a listener that proves it holds it, for the port asked; `status` sends none.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { proofOf } from "../../../node/admin-proof.js";
import { readAdminToken } from "../../../node/admin-token.js";
import { runChild } from "../../helpers/child.js";

const asOther = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;

/** Answers like a proxy of ours; every request's path and Authorization header go to stdout, one JSON line each. */
const SQUATTER = `
const http = require("http");
const relay = process.env.RELAY;
const server = http.createServer((req, res) => {
  process.stdout.write(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }) + "\\n");
  const json = (v) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(v)); };
  if (req.url.startsWith("/_cliff/prove")) {
    if (!relay) return json({ port: server.address().port, proof: "forged" });
    return http.get(relay + req.url, (up) => { let t = ""; up.on("data", (c) => (t += c)); up.on("end", () => json(JSON.parse(t))); });
  }
  if (req.url.startsWith("/_cliff/events")) { res.writeHead(200, { "content-type": "text/event-stream" }); return res.write(": live\\n\\n"); }
  json({ name: "cliffcompaction", version: "9.9.9", requests: 0, sessions: [] });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: server.address().port }) + "\\n"));
`;

interface Squatter {
  port: number;
  seen: { url: string; authorization: string | null }[];
  child: ChildProcess;
}

function squat(relay?: string): Promise<Squatter> {
  const argv = asOther ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", process.execPath] : [process.execPath];
  const child = spawn(argv[0], [...argv.slice(1), "-e", SQUATTER], { env: { PATH: process.env.PATH, RELAY: relay ?? "" }, stdio: ["ignore", "pipe", "inherit"] });
  const seen: Squatter["seen"] = [];
  return new Promise((resolve) => {
    let buffer = "";
    child.stdout!.on("data", (c: Buffer) => {
      buffer += c.toString();
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = JSON.parse(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
        if (typeof line.port === "number") resolve({ port: line.port, seen, child });
        else seen.push(line);
      }
    });
  });
}

const state = mkdtempSync(join(tmpdir(), "cliff-squat-"));
const env = { PATH: process.env.PATH, HOME: state, XDG_STATE_HOME: state };
const cli = (...args: string[]) => runChild(process.execPath, ["dist/cli.mjs", ...args], process.cwd(), env, 30_000);
let real: RunningProxy;
let token = "";
const squatters: Squatter[] = [];

beforeAll(async () => {
  real = await startProxy({ port: 0, env, log: () => undefined });
  token = readAdminToken(join(state, "cliffcompaction", "admin-token"));
});
afterAll(async () => {
  for (const s of squatters) s.child.kill();
  await real.close();
});

describe(`round five: a squatted port (the squatter runs as ${asOther ? "nobody" : "this account: no setpriv as root here"})`, () => {
  it("4. the real proxy proves it holds the token, for its own port", async () => {
    const nonce = "ab".repeat(16);
    const r = await (await fetch(`${real.url}/_cliff/prove?nonce=${nonce}`)).json();
    expect(r).toEqual({ address: "127.0.0.1", port: real.port, proof: proofOf(token, "127.0.0.1", real.port, nonce) });
    expect((await fetch(`${real.url}/_cliff/prove?nonce=short`)).status).toBe(400);
    const watch = await cli("watch", "--once", "--port", String(real.port));
    expect(watch.code, watch.err).toBe(0);
  });

  it("4. watch hands no admin token to a squatter, even one that relays the proof to the user's proxy", async () => {
    for (const relay of [undefined, real.url]) {
      const s = await squat(relay);
      squatters.push(s);
      const r = await cli("watch", "--once", "--port", String(s.port));
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/did not prove that it holds your admin token, so the token was not sent/);
      expect(s.seen.map((x) => x.url)).toEqual([expect.stringMatching(/^\/_cliff\/prove\?nonce=[0-9a-f]{64}$/)]);
      expect(s.seen.every((x) => x.authorization === null)).toBe(true);
      const web = await cli("watch", "--web", "--port", String(s.port));
      expect(web.out).not.toContain(token);
    }
  });

  it("4. status needs no token for the counts and sends none", async () => {
    const s = await squat(real.url);
    squatters.push(s);
    const r = await cli("status", "--port", String(s.port));
    expect(r.out).toContain("cliffcompaction 9.9.9");
    expect(s.seen.length).toBeGreaterThan(0);
    expect(s.seen.every((x) => x.authorization === null)).toBe(true);
    const own = await cli("status", "--port", String(real.port));
    expect(own.out, own.out + own.err).toMatch(/answers: cliffcompaction /);
  });
});

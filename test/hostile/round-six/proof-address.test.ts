/**
 * Round six, case 8: the admin proof is bound to the address and the port the client dialled. The
 * user's proxy listens on 127.0.0.1:P; another listener takes the same port at 127.0.0.2 and relays
 * `/_cliff/prove` to the proxy, so the proof it hands back is for port P, made with the user's own
 * token. `watch --proxy http://127.0.0.2:P` must not send it the token (`--once` and `--web`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { proofOf } from "../../../node/admin-proof.js";
import { readAdminToken } from "../../../node/admin-token.js";
import { runChild } from "../../helpers/child.js";

/** Listens on HOST:PORT, relays `/_cliff/prove` to RELAY, answers the rest like a proxy; each request's path and token to stdout. */
const RELAYING = `
const http = require("http");
const server = http.createServer((req, res) => {
  process.stdout.write(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }) + "\\n");
  const json = (v) => { res.writeHead(200, { "content-type": "application/json" }); res.end(JSON.stringify(v)); };
  if (req.url.startsWith("/_cliff/prove")) return http.get(process.env.RELAY + req.url, (up) => { let t = ""; up.on("data", (c) => (t += c)); up.on("end", () => json(JSON.parse(t))); });
  if (req.url.startsWith("/_cliff/events")) { res.writeHead(200, { "content-type": "text/event-stream" }); return res.end(": live\\n\\n"); }
  json({ name: "cliffcompaction", version: "9.9.9", requests: 0, sessions: [] });
});
server.listen(Number(process.env.PORT), process.env.HOST, () => process.stdout.write(JSON.stringify({ listening: true }) + "\\n"));
`;

const state = mkdtempSync(join(tmpdir(), "cliff-proof-address-"));
const env = { PATH: process.env.PATH, HOME: state, XDG_STATE_HOME: state };
const cli = (...args: string[]) => runChild(process.execPath, ["dist/cli.mjs", ...args], process.cwd(), env, 30_000);
let real: RunningProxy;
let token = "";
let relay: ChildProcess;
const seen: { url: string; authorization: string | null }[] = [];

beforeAll(async () => {
  real = await startProxy({ port: 0, host: "127.0.0.1", env, log: () => undefined });
  token = readAdminToken(join(state, "cliffcompaction", "admin-token"));
  relay = spawn(process.execPath, ["-e", RELAYING], { env: { PATH: process.env.PATH, HOST: "127.0.0.2", PORT: String(real.port), RELAY: real.url }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve) => {
    let buffer = "";
    relay.stdout!.on("data", (c: Buffer) => {
      buffer += c.toString();
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = JSON.parse(buffer.slice(0, at));
        buffer = buffer.slice(at + 1);
        if (line.listening === true) resolve();
        else seen.push(line);
      }
    });
  });
});
afterAll(async () => {
  relay.kill();
  await real.close();
});

describe("round six, case 8: the proof names the address and the port", () => {
  it("the proxy proves for the address and port it accepted the connection on", async () => {
    const nonce = "cd".repeat(16);
    const r = await (await fetch(`${real.url}/_cliff/prove?nonce=${nonce}`)).json();
    expect(r).toEqual({ address: "127.0.0.1", port: real.port, proof: proofOf(token, "127.0.0.1", real.port, nonce) });
    const own = await cli("watch", "--once", "--proxy", real.url);
    expect(own.code, own.err).toBe(0);
  });

  it("a listener at 127.0.0.2 on the same port that relays the proof gets no token from watch --once or --web", async () => {
    const once = await cli("watch", "--once", "--proxy", `http://127.0.0.2:${real.port}`);
    const web = await cli("watch", "--web", "--proxy", `http://127.0.0.2:${real.port}`);
    const handed = seen.filter((x) => x.authorization !== null).length + (web.out.includes(token) ? 1 : 0);
    console.log(`round six, case 8: the token handed to the listener at 127.0.0.2 ${handed} times (watch --once exit ${once.code})`);
    expect(seen.some((x) => x.url.startsWith("/_cliff/prove"))).toBe(true);
    expect(once.err).toMatch(/did not prove that it holds your admin token, so the token was not sent/);
    expect(handed).toBe(0);
  });
});

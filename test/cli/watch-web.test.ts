/** `watch --web`: the address of a running proxy's web view, printed once the proxy answers; no proxy: one line, exit 1. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type AddressInfo } from "node:net";
import { webUrl } from "../../cli/watch/web.js";
import { runChild } from "../helpers/child.js";
import { webRig, type WebRig } from "../helpers/web-sessions.js";

const cli = (args: string[]) => runChild(process.execPath, ["dist/cli.mjs", ...args], process.cwd(), { ...process.env }, 30_000);

let rig: WebRig;
beforeAll(async () => {
  rig = await webRig();
});
afterAll(async () => {
  await rig.close();
});

describe("watch --web", () => {
  it("prints the web view's address of the proxy it finds, and the page answers there", async () => {
    const r = await cli(["watch", "--web", "--port", String(rig.proxy.port)]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const url = /^ {2}(http:\/\/\S+)$/m.exec(r.out)![1];
    expect(url).toBe(`http://127.0.0.1:${rig.proxy.port}/_cliff/`);
    expect(r.out).toContain("this replica only");
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });

  it("with a token, the address is the login link that goes on to the page", () => {
    expect(webUrl("http://127.0.0.1:8257", "a/b+c")).toBe("http://127.0.0.1:8257/_cliff/login?token=a%2Fb%2Bc&next=%2F_cliff%2F");
  });

  it("no proxy: one line saying so, exit 1", async () => {
    const s = createServer();
    await new Promise<void>((res) => s.listen(0, "127.0.0.1", () => res()));
    const port = (s.address() as AddressInfo).port;
    await new Promise((res) => s.close(res));
    const r = await cli(["watch", "--web", "--port", String(port)]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(`cliffcompaction: no proxy answers at http://127.0.0.1:${port} (ECONNREFUSED)\n`);
  });
});

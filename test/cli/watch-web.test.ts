/** `watch --web`: the address of a running proxy's web view, printed once the proxy answers; no proxy: one line, exit 1. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type AddressInfo } from "node:net";
import { webUrl } from "../../cli/watch/web.js";
import { runChild } from "../helpers/child.js";
import { TOKEN, webRig, type WebRig } from "../helpers/web-sessions.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const cli = (args: string[]) => runChild(process.execPath, ["dist/cli.mjs", ...args], process.cwd(), { ...process.env }, 30_000);

let rig: WebRig;
beforeAll(async () => {
  rig = await webRig();
});
afterAll(async () => {
  await rig.close();
});

describe("watch --web", () => {
  it("prints the login link with the user's token, which signs a browser in and goes on to the page", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "cliff-web-")), "admin-token");
    writeFileSync(file, TOKEN + "\n", { mode: 0o600 });
    const r = await cli(["watch", "--web", "--port", String(rig.proxy.port), "--admin-token-file", file]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const url = /^ {2}(http:\/\/\S+)$/m.exec(r.out)![1];
    expect(url).toBe(webUrl(`http://127.0.0.1:${rig.proxy.port}`, TOKEN));
    expect(r.out).toContain("this replica only");
    const login = await fetch(url, { redirect: "manual" });
    expect(login.status).toBe(303);
    const page = await fetch(new URL(login.headers.get("location")!, url), { headers: { cookie: login.headers.get("set-cookie")!.split(";")[0] } });
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

/**
 * Round four: `restart [--name N]` restarts an instance's service with the flags it was enabled
 * with, and `status` warns when the running proxy's version differs from the package.json beside
 * the script the service runs (after `npm i -g cliffcompaction@new` the old build keeps serving).
 * Driven on temporary homes with a service manager that runs each proxy in this process.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "../../../cli/args.js";
import { serviceCommand } from "../../../cli/service/command.js";
import type { Exec, Platform } from "../../../cli/service/service.js";
import { VERSION } from "../../../proxy/version.js";
import { fakeManager, type FakeManager } from "../../helpers/fake-manager.js";

const managers: FakeManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.closeAll();
});
const okExec: Exec = () => ({ status: 0, stdout: "", stderr: "" });
const freePort = (): Promise<number> => new Promise((done) => {
  const s = http.createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as AddressInfo).port;
    s.close(() => done(port));
  });
});

/** A home, and an installed package whose package.json says `version`. */
function setup(version: string): { p: Platform; m: FakeManager; cli: string[]; pkg: string } {
  const home = mkdtempSync(join(tmpdir(), "cliff-restart-"));
  const pkg = join(home, "lib", "node_modules", "cliffcompaction");
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "cliffcompaction", version }));
  writeFileSync(join(pkg, "dist", "cli.mjs"), "");
  const m = fakeManager(home);
  managers.push(m);
  return { m, pkg, cli: ["/usr/bin/node", join(pkg, "dist", "cli.mjs")], p: { platform: "linux", home, env: { HOME: home, SHELL: "/bin/bash" }, exec: okExec, uid: 501 } };
}

async function run(argv: string[], s: { p: Platform; m: FakeManager; cli: string[] }): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const code = await serviceCommand(parseArgs(argv), { platform: s.p, cli: s.cli, say: (l) => said.push(l), waitMs: 10_000, manager: s.m });
  return { code, said };
}

describe("restart", () => {
  it("restarts the instance's service with its flags and waits until it answers; an instance never enabled is one line and exit 1", async () => {
    const s = setup(VERSION);
    const port = await freePort();
    expect((await run(["enable", "--port", String(port), "--no-env", "--keep-recent", "3"], s)).code).toBe(0);
    const before = s.m.running.get("default")!.proxy;
    const r = await run(["restart"], s);
    expect(r.code, r.said.join("\n")).toBe(0);
    expect(s.m.calls).toEqual(["install default", "restart default"]);
    expect(r.said).toEqual([expect.stringMatching(new RegExp(`^cliffcompaction: cliffcompaction\\.service \\(systemd --user\\) restarted: the proxy answers on http://127\\.0\\.0\\.1:${port} \\(cliffcompaction ${VERSION}, pid \\d+\\)$`))]);
    expect(s.m.running.get("default")!.proxy).not.toBe(before);
    expect(s.m.running.get("default")!.instance.argv).toContain("--keep-recent");
    const ghost = await run(["restart", "--name", "ghost"], s);
    expect(ghost.code).toBe(1);
    expect(ghost.said).toEqual(['cliffcompaction: "ghost" is not enabled (cliffcompaction enable --name ghost installs it)']);
  });
});

describe("status's stale-version warning", () => {
  it("says when the running proxy is older than the installed package, and not when they match", async () => {
    const stale = setup("9.9.9");
    const port = await freePort();
    expect((await run(["enable", "--port", String(port), "--no-env"], stale)).code).toBe(0);
    const st = await run(["status"], stale);
    expect(st.said).toContainEqual(`proxy    WARNING: the proxy runs cliffcompaction ${VERSION}, but ${join(stale.pkg, "package.json")} is 9.9.9; cliffcompaction restart starts the installed one`);

    const fresh = setup(VERSION);
    const port2 = await freePort();
    expect((await run(["enable", "--port", String(port2), "--no-env"], fresh)).code).toBe(0);
    const ok = await run(["status"], fresh);
    expect(ok.said.join("\n")).not.toContain("WARNING");
  });
});

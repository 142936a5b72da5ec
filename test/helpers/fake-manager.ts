/**
 * A service manager for tests that runs each instance's proxy in this process: `install` starts
 * `startProxy` on the instance's port (as the unit's `serve --port N` would), `uninstall` and
 * `restart` stop and start it, `state` reports it. What it was asked is kept in `calls`; the
 * rendered file is written where a real manager would put it, 0600 as the real ones do.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import type { Instance, ServiceManager, ServiceState } from "../../cli/service/service.js";
import { unitText } from "../../cli/service/systemd.js";

export interface FakeManager extends ServiceManager {
  calls: string[];
  running: Map<string, { proxy: RunningProxy; instance: Instance }>;
  closeAll(): Promise<void>;
}

const portOf = (argv: string[]): number => Number(argv[argv.indexOf("--port") + 1]);

export function fakeManager(home: string): FakeManager {
  const running = new Map<string, { proxy: RunningProxy; instance: Instance }>();
  const installed = new Map<string, Instance>();
  const calls: string[] = [];
  const file = (name: string) => join(home, ".config", "systemd", "user", name === "default" ? "cliffcompaction.service" : `cliffcompaction-${name}.service`);
  const stop = async (name: string) => {
    const r = running.get(name);
    running.delete(name);
    await r?.proxy.close();
  };
  const start = async (i: Instance) => {
    await stop(i.name);
    const proxy = await startProxy({ port: portOf(i.argv), adminToken: "fake-manager-token-0123456789" });
    running.set(i.name, { proxy, instance: i });
  };
  const m: FakeManager = {
    kind: "systemd --user",
    calls,
    running,
    file,
    unitName: (name) => (name === "default" ? "cliffcompaction.service" : `cliffcompaction-${name}.service`),
    render: unitText,
    install(i) {
      calls.push(`install ${i.name}`);
      mkdirSync(join(home, ".config", "systemd", "user"), { recursive: true });
      writeFileSync(file(i.name), unitText(i), { mode: 0o600 });
      installed.set(i.name, i);
      void start(i);
    },
    uninstall(name) {
      calls.push(`uninstall ${name}`);
      installed.delete(name);
      rmSync(file(name), { force: true });
      void stop(name);
    },
    restart(name) {
      calls.push(`restart ${name}`);
      const i = installed.get(name);
      if (i === undefined) throw new Error(`${m.unitName(name)} is not installed`);
      void start(i);
    },
    state(name): ServiceState {
      const r = running.get(name);
      return { installed: installed.has(name), running: r !== undefined, pid: r !== undefined ? process.pid : undefined, file: file(name) };
    },
    async closeAll() {
      for (const name of [...running.keys()]) await stop(name);
    },
  };
  return m;
}

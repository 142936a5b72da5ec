/**
 * `cliffcompaction restart [--name N]`: the instance's service restarted as it was enabled (the
 * unit or plist keeps its command and flags), then waited for until the proxy answers on its port:
 * how an installed upgrade takes effect. Exit 0 when it answers, 1 otherwise.
 */
import { UsageError, type Parsed } from "../args.js";
import { instanceName, readState, type ServiceDeps } from "./enable.js";
import { waitForProxy } from "./probe.js";
import { serviceManager } from "./manager.js";

export async function restartCommand(p: Parsed, d: ServiceDeps): Promise<number> {
  if (p.positionals.length > 0 || p.rest.length > 0) throw new UsageError("restart takes no FILE or command");
  const name = instanceName(p);
  const state = readState(d, name);
  const manager = d.manager !== undefined ? d.manager : serviceManager(d.platform);
  const enable = name === "default" ? "cliffcompaction enable" : `cliffcompaction enable --name ${name}`;
  if (state === null || manager === null || !manager.state(name).installed) {
    d.say(manager === null ? "cliffcompaction: no service manager here (no systemd user session, no launchd)" : `cliffcompaction: "${name}" is not enabled (${enable} installs it)`);
    return 1;
  }
  try {
    manager.restart(name);
  } catch (e) {
    d.say(`cliffcompaction: ${(e as Error).message}`);
    return 1;
  }
  const url = `http://127.0.0.1:${state.port}`;
  const status = await waitForProxy(state.port, () => manager.state(name).pid, d.waitMs ?? 15_000);
  if (status === null) {
    d.say(`cliffcompaction: ${manager.unitName(name)} (${manager.kind}) restarted, but nothing answers on ${url}; its log: ${state.log}`);
    return 1;
  }
  d.say(`cliffcompaction: ${manager.unitName(name)} (${manager.kind}) restarted: the proxy answers on ${url} (cliffcompaction ${String(status.version)}, pid ${String(status.pid)})`);
  return 0;
}

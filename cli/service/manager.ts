/**
 * The service manager this machine has: systemd --user on Linux, launchd on macOS, each asked
 * whether it answers. Its own module, so the managers import what an instance is (service.ts)
 * and nothing imports them back but this.
 */
import { launchdManager } from "./launchd.js";
import { systemdManager } from "./systemd.js";
import type { Platform, ServiceManager } from "./service.js";

/** The manager this machine has, or null (a container, a machine without a user session). */
export function serviceManager(p: Platform): ServiceManager | null {
  if (p.platform === "linux") {
    const r = p.exec("systemctl", ["--user", "show-environment"]);
    return r.status === 0 ? systemdManager(p) : null;
  }
  if (p.platform === "darwin") {
    const r = p.exec("launchctl", ["print", `gui/${p.uid}`]);
    return r.status === 0 ? launchdManager(p) : null;
  }
  return null;
}

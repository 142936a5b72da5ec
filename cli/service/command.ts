/** `enable`, `disable`, `restart`, `status`: the always-on proxy, on this machine's service manager. */
import { realpathSync } from "node:fs";
import type { Parsed } from "../args.js";
import { disableCommand, enableCommand, type ServiceDeps } from "./enable.js";
import { restartCommand } from "./restart.js";
import { hostPlatform } from "./service.js";
import { statusCommand } from "./status.js";

/** This CLI as a service runs it: the same node, the script's real path (not a symlink that may move). */
function thisCli(): string[] {
  const script = process.argv[1];
  let path = script;
  try {
    path = realpathSync(script);
  } catch {
    // keep the path as given
  }
  return [process.execPath, path];
}

export async function serviceCommand(p: Parsed, deps?: Partial<ServiceDeps>): Promise<number> {
  const d: ServiceDeps = { platform: hostPlatform(), cli: thisCli(), say: (line) => process.stdout.write(line + "\n"), ...deps };
  if (p.command === "enable") return enableCommand(p, d);
  if (p.command === "disable") return disableCommand(p, d);
  if (p.command === "restart") return restartCommand(p, d);
  return statusCommand(p, d);
}

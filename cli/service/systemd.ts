/** The proxy as a systemd user service: `~/.config/systemd/user/cliffcompaction[-NAME].service`, driven by `systemctl --user`. */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Instance, Platform, ServiceManager, ServiceState } from "./service.js";
import { SERVICE_FILE_MODE } from "./values.js";

/** One word of ExecStart: quoted, with systemd's specifiers (%) and variables ($) kept literal. */
export const systemdWord = (s: string): string => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%").replace(/\$/g, "$$$$")}"`;

export function unitText(i: Instance): string {
  const what = i.name === "default" ? "" : ` (${i.name})`;
  return [
    "[Unit]",
    `Description=cliffcompaction proxy${what} on 127.0.0.1:${i.port}`,
    "After=network.target",
    "",
    "[Service]",
    `ExecStart=${i.argv.map(systemdWord).join(" ")}`,
    "Restart=on-failure",
    "RestartSec=2",
    `StandardOutput=append:${i.log}`,
    `StandardError=append:${i.log}`,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

function properties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const eq = line.indexOf("=");
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1).trim();
  }
  return out;
}

export function systemdManager(p: Platform): ServiceManager {
  const unitName = (name: string): string => (name === "default" ? "cliffcompaction.service" : `cliffcompaction-${name}.service`);
  const file = (name: string): string => join(p.env.XDG_CONFIG_HOME || join(p.home, ".config"), "systemd", "user", unitName(name));
  const systemctl = (...args: string[]) => p.exec("systemctl", ["--user", ...args]);
  const must = (...args: string[]): void => {
    const r = systemctl(...args);
    if (r.status !== 0) throw new Error(`systemctl --user ${args.join(" ")} failed: ${(r.stderr || r.stdout).trim().split("\n")[0] ?? ""}`);
  };
  return {
    kind: "systemd --user",
    file,
    unitName,
    render: unitText,
    install(i) {
      mkdirSync(dirname(file(i.name)), { recursive: true });
      mkdirSync(dirname(i.log), { recursive: true, mode: 0o700 });
      writeFileSync(file(i.name), unitText(i), { mode: SERVICE_FILE_MODE });
      chmodSync(file(i.name), SERVICE_FILE_MODE);
      must("daemon-reload");
      must("enable", unitName(i.name));
      // restart, not start: enabling again with other flags must run the new command.
      must("restart", unitName(i.name));
    },
    restart(name) {
      must("restart", unitName(name));
    },
    uninstall(name) {
      systemctl("disable", "--now", unitName(name));
      rmSync(file(name), { force: true });
      systemctl("daemon-reload");
    },
    state(name): ServiceState {
      const r = systemctl("show", unitName(name), "--property=LoadState,ActiveState,MainPID,ExecMainStatus,ExecMainExitTimestampMonotonic");
      const s = properties(r.stdout);
      const pid = Number(s.MainPID);
      const exited = s.ExecMainExitTimestampMonotonic !== undefined && s.ExecMainExitTimestampMonotonic !== "0";
      return {
        installed: existsSync(file(name)) && s.LoadState === "loaded",
        running: s.ActiveState === "active",
        pid: pid > 0 ? pid : undefined,
        lastExit: exited && s.ExecMainStatus !== undefined ? Number(s.ExecMainStatus) : undefined,
        file: file(name),
      };
    },
  };
}

/** The proxy as a launchd agent: `~/Library/LaunchAgents/dev.cliffcompaction[.NAME].plist`, driven by `launchctl` in the user's GUI domain. */
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Instance, Platform, ServiceManager, ServiceState } from "./service.js";
import { SERVICE_FILE_MODE } from "./values.js";

const xml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export const launchdLabel = (name: string): string => (name === "default" ? "dev.cliffcompaction" : `dev.cliffcompaction.${name}`);

export function plistText(i: Instance): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    `  <key>Label</key><string>${xml(launchdLabel(i.name))}</string>`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...i.argv.map((a) => `    <string>${xml(a)}</string>`),
    "  </array>",
    "  <key>RunAtLoad</key><true/>",
    // Started again when it stops with a failure, not when it was stopped on purpose.
    "  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>",
    `  <key>StandardOutPath</key><string>${xml(i.log)}</string>`,
    `  <key>StandardErrorPath</key><string>${xml(i.log)}</string>`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}

export function launchdManager(p: Platform): ServiceManager {
  const file = (name: string): string => join(p.home, "Library", "LaunchAgents", `${launchdLabel(name)}.plist`);
  const target = (name: string): string => `gui/${p.uid}/${launchdLabel(name)}`;
  return {
    kind: "launchd",
    file,
    unitName: launchdLabel,
    render: plistText,
    install(i) {
      mkdirSync(dirname(file(i.name)), { recursive: true });
      mkdirSync(dirname(i.log), { recursive: true, mode: 0o700 });
      writeFileSync(file(i.name), plistText(i), { mode: SERVICE_FILE_MODE });
      chmodSync(file(i.name), SERVICE_FILE_MODE);
      // An agent loaded before keeps its old command until it is booted out.
      p.exec("launchctl", ["bootout", target(i.name)]);
      const r = p.exec("launchctl", ["bootstrap", `gui/${p.uid}`, file(i.name)]);
      if (r.status !== 0) throw new Error(`launchctl bootstrap failed: ${(r.stderr || r.stdout).trim().split("\n")[0] ?? ""}`);
    },
    restart(name) {
      // -k: the running agent is stopped first, then started again with its plist's command.
      const r = p.exec("launchctl", ["kickstart", "-k", target(name)]);
      if (r.status !== 0) throw new Error(`launchctl kickstart failed: ${(r.stderr || r.stdout).trim().split("\n")[0] ?? ""}`);
    },
    uninstall(name) {
      p.exec("launchctl", ["bootout", target(name)]);
      rmSync(file(name), { force: true });
    },
    state(name): ServiceState {
      const r = p.exec("launchctl", ["print", target(name)]);
      const loaded = r.status === 0;
      const pid = /^\s*pid = (\d+)/m.exec(r.stdout);
      const exit = /^\s*last exit code = (-?\d+)/m.exec(r.stdout);
      return {
        installed: existsSync(file(name)) && loaded,
        running: loaded && /^\s*state = running/m.test(r.stdout),
        pid: pid === null ? undefined : Number(pid[1]),
        lastExit: exit === null ? undefined : Number(exit[1]),
        file: file(name),
      };
    },
  };
}

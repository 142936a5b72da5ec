/**
 * `enable`, `disable`, `status` on temporary homes. systemd is played by a fake `systemctl --user`
 * that runs the ExecStart of the unit as written (so the unit's quoting is what starts a real
 * `serve`); launchd's plist is checked as written and its `launchctl print` read; no service
 * manager gives one line and the serve command.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "../../cli/args.js";
import { serviceCommand } from "../../cli/service/command.js";
import { launchdManager, plistText } from "../../cli/service/launchd.js";
import type { Exec, Platform } from "../../cli/service/service.js";

const CLI = [process.execPath, resolve("dist/cli.mjs")];
const children: ChildProcess[] = [];
// systemd's `disable --now` returns once the unit has stopped; the fake's stops are awaited after each command for the same reason.
const stopping: Promise<void>[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

/** ExecStart's words, read back as systemd reads them (quotes, backslash escapes, %% and $$). */
function execStartWords(unit: string): string[] {
  const line = /^ExecStart=(.*)$/m.exec(unit)![1];
  const words: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"/g)) words.push(m[1].replace(/\\(.)/g, "$1").replace(/%%/g, "%").replace(/\$\$/g, "$"));
  return words;
}

/** A `systemctl --user` that keeps its units in memory and starts a unit's ExecStart as a real process. */
function fakeSystemd(home: string): { exec: Exec; calls: string[][] } {
  const calls: string[][] = [];
  const running = new Map<string, ChildProcess>();
  const unitFile = (unit: string) => join(home, ".config", "systemd", "user", unit);
  const stop = (unit: string) => {
    const child = running.get(unit);
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      stopping.push(new Promise<void>((done) => child.once("exit", () => done())));
      child.kill("SIGTERM");
    }
    running.delete(unit);
  };
  const exec: Exec = (command, args) => {
    calls.push([command, ...args]);
    const [, verb, ...rest] = args;
    const unit = rest.find((a) => a.endsWith(".service")) ?? "";
    if (verb === "restart") {
      stop(unit);
      const text = readFileSync(unitFile(unit), "utf8");
      const [cmd, ...argv] = execStartWords(text);
      const log = /^StandardOutput=append:(.*)$/m.exec(text)![1];
      const fd = openSync(log, "a");
      const child = spawn(cmd, argv, { stdio: ["ignore", fd, fd], env: { PATH: process.env.PATH } });
      closeSync(fd);
      children.push(child);
      running.set(unit, child);
    }
    if (verb === "disable") stop(unit);
    if (verb === "show") {
      const child = running.get(unit);
      const alive = child !== undefined && child.exitCode === null;
      const out = [`LoadState=${existsSync(unitFile(unit)) ? "loaded" : "not-found"}`, `ActiveState=${alive ? "active" : "inactive"}`, `MainPID=${alive ? child!.pid : 0}`, "ExecMainStatus=0", "ExecMainExitTimestampMonotonic=0"];
      return { status: 0, stdout: out.join("\n") + "\n", stderr: "" };
    }
    return { status: 0, stdout: "", stderr: "" };
  };
  return { exec, calls };
}

function tempHome(): string {
  return mkdtempSync(join(tmpdir(), "cliff-service-home-"));
}

function platform(home: string, exec: Exec, env: NodeJS.ProcessEnv = {}, os: NodeJS.Platform = "linux"): Platform {
  return { platform: os, home, env: { HOME: home, SHELL: "/bin/bash", ...env }, exec, uid: 501 };
}

async function command(argv: string[], p: Platform): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const code = await serviceCommand(parseArgs(argv), { platform: p, cli: CLI, say: (l) => said.push(l), waitMs: 20_000 });
  await Promise.all(stopping.splice(0));
  return { code, said };
}

const freePort = (): Promise<number> =>
  new Promise((done) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => done(port));
    });
  });

describe("enable / status / disable with systemd --user", () => {
  it("writes the unit, waits until the proxy answers, wires the profile once, and disable gives every file back as it was", async () => {
    const home = tempHome();
    const port = await freePort();
    const { exec, calls } = fakeSystemd(home);
    const p = platform(home, exec);
    const bashrc = join(home, ".bashrc");
    const original = "# my settings\nalias ll='ls -l'"; // no newline at the end
    writeFileSync(bashrc, original);

    const first = await command(["enable", "--port", String(port), "--keep-recent", "2", "--threshold", "100000"], p);
    expect(first.code, first.said.join("\n")).toBe(0);
    const unitPath = join(home, ".config", "systemd", "user", "cliffcompaction.service");
    const log = join(home, ".local", "state", "cliffcompaction", "default.log");
    expect(readFileSync(unitPath, "utf8")).toBe([
      "[Unit]",
      `Description=cliffcompaction proxy on 127.0.0.1:${port}`,
      "After=network.target",
      "",
      "[Service]",
      `ExecStart="${CLI[0]}" "${CLI[1]}" "serve" "--port" "${port}" "--keep-recent" "2" "--threshold" "100000" "--admin-token-file" "${join(home, ".local", "state", "cliffcompaction", "admin-token")}"`,
      "Restart=on-failure",
      "RestartSec=2",
      `StandardOutput=append:${log}`,
      `StandardError=append:${log}`,
      "",
      "[Install]",
      "WantedBy=default.target",
      "",
    ].join("\n"));
    expect(calls.map((c) => c.slice(1, 3).join(" "))).toEqual(expect.arrayContaining(["--user daemon-reload", "--user enable", "--user restart"]));
    expect(first.said[0]).toMatch(new RegExp(`^cliffcompaction: cliffcompaction\\.service \\(systemd --user\\) runs the proxy on http://127\\.0\\.0\\.1:${port} \\(pid \\d+\\); log: ${log}$`));
    const block = [
      "# >>> cliffcompaction >>>",
      "# Added by cliffcompaction enable; `cliffcompaction disable` removes it.",
      `export ANTHROPIC_BASE_URL="http://127.0.0.1:${port}"`,
      `export OPENAI_BASE_URL="http://127.0.0.1:${port}/v1"`,
      `export OPENAI_API_BASE="http://127.0.0.1:${port}/v1"`,
      `export GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:${port}"`,
      `export GOOGLE_VERTEX_BASE_URL="http://127.0.0.1:${port}"`,
      `export CODE_ASSIST_ENDPOINT="http://127.0.0.1:${port}"`,
      "# <<< cliffcompaction <<<",
      "",
    ].join("\n");
    // The file had no final newline: one goes before the block, and the block's first line says so.
    const wired = original + "\n" + block.replace("# >>> cliffcompaction >>>", "# >>> cliffcompaction >>> (line break added above)");
    expect(readFileSync(bashrc, "utf8")).toBe(wired);

    const again = await command(["enable", "--port", String(port), "--keep-recent", "2", "--threshold", "100000"], p);
    expect(again.code, again.said.join("\n")).toBe(0);
    expect(readFileSync(bashrc, "utf8")).toBe(wired);

    const status = await command(["status"], p);
    expect(status.code).toBe(0);
    const pid = /pid (\d+)/.exec(status.said[0])![1];
    expect(status.said).toEqual([
      `service  cliffcompaction.service (systemd --user): running, pid ${pid}; ${unitPath}`,
      expect.stringMatching(new RegExp(`^proxy    http://127\\.0\\.0\\.1:${port} answers: cliffcompaction \\S+, threshold 100,000 tokens, recall profile, keepRecent 2, .*store 0 entries \\(0 KiB\\), \\d+ requests`)),
      "proxy    message threads: declined as the API declines an unsupported thread (400 thread_unsupported_request), so the client sends the whole conversation and it is compacted (--pass-threads sends them on untouched); 0 declined",
      `shell    ${bashrc} exports ANTHROPIC_BASE_URL, OPENAI_BASE_URL, OPENAI_API_BASE, GOOGLE_GEMINI_BASE_URL, GOOGLE_VERTEX_BASE_URL and CODE_ASSIST_ENDPOINT for http://127.0.0.1:${port} (this shell not yet: source ${bashrc})`,
      `log      ${log}`,
    ]);

    const off = await command(["disable"], p);
    expect(off.code).toBe(0);
    expect(off.said).toEqual([`cliffcompaction: cliffcompaction.service stopped and removed; ${bashrc} no longer sets the base URLs`]);
    expect(readFileSync(bashrc, "utf8")).toBe(original);
    expect(existsSync(unitPath)).toBe(false);
    expect(calls.at(-2)!.slice(1)).toEqual(["--user", "disable", "--now", "cliffcompaction.service"]);
    const after = await command(["status", "--port", String(port)], p);
    expect(after.code).toBe(1);
    expect(after.said.slice(0, 3)).toEqual([
      "service  cliffcompaction.service (systemd --user): not installed (cliffcompaction enable installs it)",
      `proxy    nothing answers on http://127.0.0.1:${port}`,
      `shell    ${bashrc}: not wired`,
    ]);
  });

  it("--codex for a ChatGPT sign-in writes the provider entry, a second instance (--name) has its own unit, log and port, fish gets fish syntax; disable takes out only its own", async () => {
    const home = tempHome();
    const [port, port2] = [await freePort(), await freePort()];
    const { exec } = fakeSystemd(home);
    const codexHome = join(home, ".codex");
    mkdirSync(codexHome);
    writeFileSync(join(codexHome, "auth.json"), JSON.stringify({ auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { access_token: "a.b.c" } }));
    const toml = 'model = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
    writeFileSync(join(codexHome, "config.toml"), toml);
    const p = platform(home, exec, { SHELL: "/usr/bin/fish" });
    const fishConfig = join(home, ".config", "fish", "config.fish");

    const on = await command(["enable", "--port", String(port), "--codex"], p);
    expect(on.code, on.said.join("\n")).toBe(0);
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe([
      "# >>> cliffcompaction: top-level key (default) >>>",
      'model_provider = "cliffcompaction"',
      "# <<< cliffcompaction: top-level key (default) <<<",
      'model = "gpt-5"',
      "",
      "[mcp_servers.docs]",
      'command = "docs"',
      "# >>> cliffcompaction: provider default >>>",
      "[model_providers.cliffcompaction]",
      'name = "cliffcompaction"',
      `base_url = "http://127.0.0.1:${port}/backend-api/codex"`,
      'wire_api = "responses"',
      "requires_openai_auth = true",
      "# <<< cliffcompaction: provider default <<<",
      "",
    ].join("\n"));
    expect(readFileSync(fishConfig, "utf8")).toContain(`set -gx ANTHROPIC_BASE_URL "http://127.0.0.1:${port}"\nset -gx OPENAI_BASE_URL "http://127.0.0.1:${port}/v1"\nset -gx OPENAI_API_BASE "http://127.0.0.1:${port}/v1"\n`);

    const clash = await command(["enable", "--name", "team", "--port", String(port), "--no-env"], p).catch((e: Error) => e);
    expect(String(clash)).toContain(`port ${port} is the "default" instance's; give this one another --port`);
    const team = await command(["enable", "--name", "team", "--port", String(port2), "--no-env"], p);
    expect(team.code, team.said.join("\n")).toBe(0);
    expect(existsSync(join(home, ".config", "systemd", "user", "cliffcompaction-team.service"))).toBe(true);
    expect(team.said[0]).toContain(`log: ${join(home, ".local", "state", "cliffcompaction", "team.log")}`);

    expect((await command(["disable"], p)).code).toBe(0);
    expect(readFileSync(join(codexHome, "config.toml"), "utf8")).toBe(toml);
    expect(readFileSync(fishConfig, "utf8")).toBe("");
    const teamStatus = await command(["status", "--name", "team"], p);
    expect(teamStatus.code).toBe(0);
    expect(teamStatus.said[0]).toMatch(/^service  cliffcompaction-team\.service \(systemd --user\): running/);
    expect((await command(["disable", "--name", "team"], p)).code).toBe(0);
  });

  it("refuses before changing anything: a port another process holds, a Codex config that names its own provider, a shell it cannot place", async () => {
    const home = tempHome();
    const { exec, calls } = fakeSystemd(home);
    const other = http.createServer((_, res) => res.writeHead(404).end("no")).listen(0, "127.0.0.1");
    await new Promise((r) => other.once("listening", r));
    const held = (other.address() as AddressInfo).port;
    const p = platform(home, exec);
    await expect(command(["enable", "--port", String(held)], p)).rejects.toThrow(`port ${held} is held by another process (HTTP 404); choose another --port`);
    const status = await command(["status", "--port", String(held)], p);
    expect(status.said[1]).toBe(`proxy    WARNING: another process holds port ${held} (HTTP 404); it is not a cliffcompaction proxy`);
    other.close();
    mkdirSync(join(home, ".codex"));
    writeFileSync(join(home, ".codex", "config.toml"), 'model_provider = "azure"\n');
    await expect(command(["enable", "--port", String(await freePort()), "--codex"], p)).rejects.toThrow(`${join(home, ".codex", "config.toml")} already sets model_provider = "azure"; remove it, or enable without --codex`);
    await expect(command(["enable", "--port", String(await freePort())], platform(home, exec, { SHELL: "/bin/tcsh" }))).rejects.toThrow("cannot tell which profile your shell (/bin/tcsh) reads; pass --shell-profile FILE, or --no-env");
    expect(calls.filter((c) => c[2] === "restart")).toEqual([]);
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
  });
});

describe("without a service manager", () => {
  it.each([["linux", 1], ["win32", 0]] as const)("%s: one line with the serve command to run instead, nothing written", async (os, systemctlCalls) => {
    const home = tempHome();
    const calls: string[][] = [];
    const exec: Exec = (c, a) => (calls.push([c, ...a]), { status: 1, stdout: "", stderr: "Failed to connect to bus: No medium found" });
    const r = await command(["enable", "--threshold", "90000", "--shadow", "--allow-host", "a.example", "--allow-host", "b.example"], platform(home, exec, {}, os));
    expect(r.code).toBe(1);
    expect(r.said).toEqual([`cliffcompaction: no service manager here (no systemd user session, no launchd); run the proxy yourself instead: ${CLI[0]} ${CLI[1]} serve --port 8257 --threshold 90000 --shadow --allow-host a.example --allow-host b.example --admin-token-file ${join(home, ".local", "state", "cliffcompaction", "admin-token")}`]);
    expect(calls).toHaveLength(systemctlCalls);
    expect(existsSync(join(home, ".bashrc"))).toBe(false);
  });
});

describe("Gemini CLI's variables", () => {
  it("a Gemini base URL or Code Assist endpoint the shell already exports stays the service's upstream", async () => {
    const home = tempHome();
    const exec: Exec = () => ({ status: 1, stdout: "", stderr: "Failed to connect to bus: No medium found" });
    const r = await command(["enable"], platform(home, exec, { GOOGLE_GEMINI_BASE_URL: "https://gw.example/gemini", CODE_ASSIST_ENDPOINT: "https://ca.example", GOOGLE_VERTEX_BASE_URL: "http://127.0.0.1:8257" }));
    expect(r.code).toBe(1);
    // One pointing at this very port (an earlier enable's) is not an upstream.
    expect(r.said).toEqual([`cliffcompaction: no service manager here (no systemd user session, no launchd); run the proxy yourself instead: ${CLI[0]} ${CLI[1]} serve --port 8257 --admin-token-file ${join(home, ".local", "state", "cliffcompaction", "admin-token")} --gemini-upstream https://gw.example/gemini --codeassist-upstream https://ca.example`]);
  });
});

describe("launchd", () => {
  it("the plist as written, bootstrapped in the user's domain, and its state read from launchctl print", () => {
    const home = tempHome();
    const calls: string[][] = [];
    const print = "gui/501/dev.cliffcompaction.team = {\n\tstate = running\n\tpid = 4242\n\tlast exit code = 0\n}\n";
    const exec: Exec = (c, a) => (calls.push([c, ...a]), { status: 0, stdout: a[0] === "print" ? print : "", stderr: "" });
    const m = launchdManager(platform(home, exec, {}, "darwin"));
    const log = join(home, "Library", "Logs", "cliffcompaction", "team.log");
    const instance = { name: "team", port: 8258, argv: ["/opt/node", "/opt/cli & co/cli.mjs", "serve", "--port", "8258"], log };
    m.install(instance);
    const file = join(home, "Library", "LaunchAgents", "dev.cliffcompaction.team.plist");
    expect(readFileSync(file, "utf8")).toBe(plistText(instance));
    expect(plistText(instance)).toBe([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
      "<dict>",
      "  <key>Label</key><string>dev.cliffcompaction.team</string>",
      "  <key>ProgramArguments</key>",
      "  <array>",
      "    <string>/opt/node</string>",
      "    <string>/opt/cli &amp; co/cli.mjs</string>",
      "    <string>serve</string>",
      "    <string>--port</string>",
      "    <string>8258</string>",
      "  </array>",
      "  <key>RunAtLoad</key><true/>",
      "  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>",
      `  <key>StandardOutPath</key><string>${log}</string>`,
      `  <key>StandardErrorPath</key><string>${log}</string>`,
      "</dict>",
      "</plist>",
      "",
    ].join("\n"));
    expect(calls).toEqual([["launchctl", "bootout", "gui/501/dev.cliffcompaction.team"], ["launchctl", "bootstrap", "gui/501", file]]);
    expect(m.state("team")).toEqual({ installed: true, running: true, pid: 4242, lastExit: 0, file });
    m.uninstall("team");
    expect(existsSync(file)).toBe(false);
  });
});

describe("status's proxy line", () => {
  it("a threshold as a share of the window, the sessions and the store", async () => {
    const { proxyLine } = await import("../../cli/service/status.js");
    const status = { name: "cliffcompaction", version: "0.3.0", thresholdShare: 0.5, thresholdTokens: 200000, contextWindow: null, keepRecent: 3, sessions: 4, store: { entries: 12, bytes: 40960 }, requests: 1234, logFile: "/tmp/x.log" };
    expect(proxyLine("http://127.0.0.1:8257", status)).toBe("http://127.0.0.1:8257 answers: cliffcompaction 0.3.0, threshold 50% of the model's window, keepRecent 3, 4 sessions, store 12 entries (40 KiB), 1,234 requests; log /tmp/x.log");
    expect(proxyLine("u", { ...status, contextWindow: 1000000, sessions: undefined })).toContain("threshold 50% of a 1,000,000-token window, keepRecent 3, store");
    // The model's recalls the proxy answered, and their tokens; none said as 0.
    expect(proxyLine("u", { ...status, logFile: undefined, recalls: { calls: 4, rounds: 3, tokens: 2146 } })).toMatch(/, 1,234 requests, 4 recalls \(2,146 tokens\)$/);
    expect(proxyLine("u", { ...status, logFile: undefined, recalls: { calls: 0, rounds: 0, tokens: 0 } })).toMatch(/, 1,234 requests, 0 recalls$/);
  });
});

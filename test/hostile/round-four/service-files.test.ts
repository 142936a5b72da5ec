/**
 * Round four: the service files written as the platform parses them. Paths absolute before they
 * are written; a value that cannot be written safely into a unit or a plist refused in one line
 * naming its flag or variable, before anything is written; the unit and the plist 0600 and
 * without secrets; `systemd-analyze verify` on a written unit where the command exists; the plist
 * read back by a strict XML parser; `enable` exports OPENAI_API_BASE too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { parseArgs } from "../../../cli/args.js";
import { serviceCommand } from "../../../cli/service/command.js";
import { launchdManager, plistText } from "../../../cli/service/launchd.js";
import { systemdManager, unitText } from "../../../cli/service/systemd.js";
import type { Exec, Instance, Platform } from "../../../cli/service/service.js";
import { fakeManager, type FakeManager } from "../../helpers/fake-manager.js";

const managers: FakeManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.closeAll();
});

const okExec: Exec = () => ({ status: 0, stdout: "", stderr: "" });
const CLI = [process.execPath, resolve("dist/cli.mjs")];
const freePort = (): Promise<number> => new Promise((done) => {
  const s = http.createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as AddressInfo).port;
    s.close(() => done(port));
  });
});

function home(env: NodeJS.ProcessEnv = {}, os: NodeJS.Platform = "linux"): { home: string; p: Platform; m: FakeManager } {
  const h = mkdtempSync(join(tmpdir(), "cliff-service-files-"));
  const m = fakeManager(h);
  managers.push(m);
  return { home: h, m, p: { platform: os, home: h, env: { HOME: h, SHELL: "/bin/bash", ...env }, exec: okExec, uid: 501 } };
}

async function run(argv: string[], p: Platform, m: FakeManager | null): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const code = await serviceCommand(parseArgs(argv), { platform: p, cli: CLI, say: (l) => said.push(l), waitMs: 10_000, ...(m === null ? {} : { manager: m }) });
  return { code, said };
}

const unitOf = (h: string, name = "cliffcompaction.service"): string => readFileSync(join(h, ".config", "systemd", "user", name), "utf8");

/** ExecStart's words, read back as systemd reads them. */
function execStart(unit: string): string[] {
  const line = /^ExecStart=(.*)$/m.exec(unit)![1];
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, "$1").replace(/%%/g, "%").replace(/\$\$/g, "$"));
}

describe("paths made absolute before they are written", () => {
  it("--archive, --archive-dir, --config, --debug-dir and --admin-token-file reach the unit as absolute paths", async () => {
    const { home: h, p, m } = home();
    const cfg = join(h, "c.json");
    writeFileSync(cfg, "{}");
    const r = await run(["enable", "--port", String(await freePort()), "--no-env", "--archive", "arch/ive", "--archive-dir", "arch/two", "--config", cfg, "--debug-dir", "dbg", "--admin-token-file", "tok/file"], p, m);
    expect(r.code, r.said.join("\n")).toBe(0);
    const words = execStart(unitOf(h));
    for (const flag of ["--archive", "--archive-dir", "--config", "--debug-dir", "--admin-token-file"]) {
      const v = words[words.indexOf(flag) + 1];
      expect(isAbsolute(v), `${flag} ${v}`).toBe(true);
    }
    expect(words[words.indexOf("--archive") + 1]).toBe(resolve("arch/ive"));
  });
});

describe("values a unit or a plist cannot hold are refused, naming where they came from", () => {
  it.each([
    ["XDG_STATE_HOME", { XDG_STATE_HOME: "/tmp/state\nExecStartPre=/bin/sh -c 'id'" }, []],
    ["XDG_STATE_HOME", { XDG_STATE_HOME: "/tmp/50%s" }, []],
    ["XDG_STATE_HOME", { XDG_STATE_HOME: "/tmp/$HOME" }, []],
    ["--allow-host", {}, ["--allow-host", "a.example\nb.example"]],
    ["--keep-files", {}, ["--keep-files", "a\u0000b"]],
    ["ANTHROPIC_BASE_URL", { ANTHROPIC_BASE_URL: "https://user:secret@gateway.example" }, []],
    ["OPENAI_BASE_URL", { OPENAI_BASE_URL: "https://gw.example/v1\nExecStartPre=/bin/true" }, []],
  ] as const)("%s", async (source, env, flags) => {
    const { home: h, p, m } = home(env);
    const r = await run(["enable", "--port", String(await freePort()), "--no-env", ...flags], p, m).catch((e: Error) => e);
    expect(r).toBeInstanceOf(Error);
    const message = (r as Error).message;
    expect(message).toContain(source);
    expect(message).not.toContain("\n");
    expect(message).not.toContain("secret");
    expect(m.calls).toEqual([]);
    expect(existsSync(join(h, ".config", "systemd"))).toBe(false);
  });

  it("a plist: a line break in HOME (the log's folder) or a flag is refused too", async () => {
    const { p: base } = home({ HOME: "/Users/a\nb" }, "darwin");
    const p = { ...base, home: "/Users/a\nb" };
    const m = launchdManager(p);
    const r = await serviceCommand(parseArgs(["enable", "--port", String(await freePort()), "--no-env"]), { platform: p, cli: CLI, say: () => undefined, waitMs: 100, manager: m }).catch((e: Error) => e);
    expect(String(r)).toContain("HOME");
  });
});

describe("the files as written", () => {
  const instance = (h: string): Instance => ({ name: "team", port: 8258, argv: [process.execPath, resolve("dist/cli.mjs"), "serve", "--port", "8258", "--allow-host", "a&b<c>\"d'e", "--x", "50%", "$HOME"], log: join(h, "state", "team.log") });

  it("the unit: 0600, and systemd-analyze verify has nothing to say about it (where the command exists)", () => {
    const h = mkdtempSync(join(tmpdir(), "cliff-unit-"));
    const p: Platform = { platform: "linux", home: h, env: { HOME: h }, exec: okExec, uid: 501 };
    const m = systemdManager(p);
    m.install(instance(h));
    const file = m.file("team");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).toBe(unitText(instance(h)));
    expect(execStart(readFileSync(file, "utf8"))).toEqual(instance(h).argv);
    if (spawnSync("systemd-analyze", ["--version"]).status !== 0) return void console.log("systemd-analyze is not here: the unit is checked by its own reading only");
    const v = spawnSync("systemd-analyze", ["verify", file], { encoding: "utf8" });
    const about = (v.stdout + v.stderr).split("\n").filter((l) => l.includes(file) || l.includes("cliffcompaction"));
    expect(about, v.stderr).toEqual([]);
  });

  it("the plist: 0600, well-formed to a strict XML parser, its arguments and paths read back exactly and absolute", () => {
    const h = mkdtempSync(join(tmpdir(), "cliff-plist-"));
    const p: Platform = { platform: "darwin", home: h, env: { HOME: h }, exec: okExec, uid: 501 };
    const m = launchdManager(p);
    m.install(instance(h));
    const file = m.file("team");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, "utf8");
    expect(text).toBe(plistText(instance(h)));
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreDeclaration: true, parseTagValue: false, trimValues: false, processEntities: true }).parse(text);
    const dict = doc.plist.dict;
    const keys: string[] = dict.key;
    const strings: string[] = dict.string;
    expect(keys).toEqual(["Label", "ProgramArguments", "RunAtLoad", "KeepAlive", "StandardOutPath", "StandardErrorPath"]);
    expect(dict.array.string).toEqual(instance(h).argv);
    expect(strings).toEqual(["dev.cliffcompaction.team", instance(h).log, instance(h).log]);
    for (const path of [dict.array.string[0], dict.array.string[1], ...strings.slice(1)]) expect(isAbsolute(path), path).toBe(true);
  });
});

describe("the shell profile", () => {
  it("exports OPENAI_API_BASE beside the two base URLs (older SDKs read it)", async () => {
    const { home: h, p, m } = home();
    const port = await freePort();
    const r = await run(["enable", "--port", String(port)], p, m);
    expect(r.code, r.said.join("\n")).toBe(0);
    const bashrc = readFileSync(join(h, ".bashrc"), "utf8");
    expect(bashrc).toContain(`export OPENAI_API_BASE="http://127.0.0.1:${port}/v1"\n`);
    expect(bashrc).toContain(`export OPENAI_BASE_URL="http://127.0.0.1:${port}/v1"\n`);
  });
});

describe("the state folder", () => {
  it("the instance records are the user's own (0600 in a 0700 folder)", async () => {
    const { home: h, p, m } = home();
    mkdirSync(join(h, ".config"), { recursive: true });
    expect((await run(["enable", "--port", String(await freePort()), "--no-env"], p, m)).code).toBe(0);
    const dir = join(h, ".config", "cliffcompaction", "instances");
    expect(statSync(join(dir, "default.json")).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

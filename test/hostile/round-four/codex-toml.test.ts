/**
 * Round four: Codex's config.toml edited as TOML, per instance. Two instances with --codex give one
 * top-level `model_provider` (the first's) and one provider table each, and the file parses (Python's
 * tomllib, a strict TOML 1.0 parser, where python3 is here; our own duplicate check always).
 * `disable --name` of a name never enabled changes nothing and says so; disabling every instance
 * gives the file back byte for byte; a file outside what we can edit safely is refused, untouched.
 */
import { afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "../../../cli/args.js";
import { serviceCommand } from "../../../cli/service/command.js";
import type { Exec, Platform } from "../../../cli/service/service.js";
import { fakeManager, type FakeManager } from "../../helpers/fake-manager.js";

const managers: FakeManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.closeAll();
});

const noExec: Exec = () => ({ status: 1, stdout: "", stderr: "" });
const freePort = (): Promise<number> => new Promise((done) => {
  const s = http.createServer().listen(0, "127.0.0.1", () => {
    const port = (s.address() as AddressInfo).port;
    s.close(() => done(port));
  });
});

function setup(auth: object): { home: string; p: Platform; m: FakeManager; toml: string } {
  const home = mkdtempSync(join(tmpdir(), "cliff-codex-toml-"));
  mkdirSync(join(home, ".codex"));
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify(auth));
  const m = fakeManager(home);
  managers.push(m);
  return { home, m, toml: join(home, ".codex", "config.toml"), p: { platform: "linux", home, env: { HOME: home, SHELL: "/bin/bash" }, exec: noExec, uid: 501 } };
}

async function run(argv: string[], p: Platform, m: FakeManager): Promise<{ code: number; said: string[] }> {
  const said: string[] = [];
  const code = await serviceCommand(parseArgs(argv), { platform: p, cli: ["/usr/bin/node", "/opt/cliff/dist/cli.mjs"], say: (l) => said.push(l), waitMs: 10_000, manager: m });
  return { code, said };
}

/** The file as TOML: Python's tomllib where there is a python3 with it, else null. */
function strictToml(text: string): { ok: boolean; value?: any; error?: string } | null {
  const r = spawnSync("python3", ["-c", "import sys,tomllib,json\ntry:\n  print(json.dumps({'ok':True,'value':tomllib.loads(sys.stdin.read())}))\nexcept Exception as e:\n  print(json.dumps({'ok':False,'error':str(e)}))"], { input: text, encoding: "utf8" });
  if (r.status !== 0 || r.stdout.trim() === "") return null;
  return JSON.parse(r.stdout);
}

/** Top-level keys set twice, or a table header given twice: what makes TOML invalid here. */
function duplicates(text: string): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  let table = "";
  for (const line of text.split(/\r?\n/)) {
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (header) {
      table = header[1].trim();
      if (seen.has(`[${table}]`)) dup.push(`[${table}]`);
      seen.add(`[${table}]`);
      continue;
    }
    const key = /^\s*([\w.-]+)\s*=/.exec(line);
    if (key) {
      const k = `${table}.${key[1]}`;
      if (seen.has(k)) dup.push(k);
      seen.add(k);
    }
  }
  return dup;
}

const CHATGPT = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { access_token: "a.b.c" } };

describe("enable --codex for two instances", () => {
  it("one model_provider, one provider table per instance, valid TOML; a name never enabled changes nothing; disabling both restores the file", async () => {
    const { p, m, toml } = setup(CHATGPT);
    const original = 'model = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
    writeFileSync(toml, original);
    const [a, b] = [await freePort(), await freePort()];
    expect((await run(["enable", "--port", String(a), "--codex", "--no-env"], p, m)).code).toBe(0);
    const second = await run(["enable", "--name", "team", "--port", String(b), "--codex", "--no-env"], p, m);
    expect(second.code, second.said.join("\n")).toBe(0);
    const both = readFileSync(toml, "utf8");
    expect(duplicates(both)).toEqual([]);
    expect(both.match(/^model_provider\s*=/gm)).toHaveLength(1);
    const parsed = strictToml(both);
    if (parsed !== null) {
      expect(parsed.ok, parsed.error).toBe(true);
      expect(parsed.value.model_provider).toBe("cliffcompaction");
      expect(Object.keys(parsed.value.model_providers).sort()).toEqual(["cliffcompaction", "cliffcompaction-team"]);
      expect(parsed.value.model_providers["cliffcompaction-team"].base_url).toBe(`http://127.0.0.1:${b}/backend-api/codex`);
      expect(parsed.value.model_providers.cliffcompaction.base_url).toBe(`http://127.0.0.1:${a}/backend-api/codex`);
    }
    expect(second.said.join("\n")).toContain("model_provider=cliffcompaction-team");

    const ghost = await run(["disable", "--name", "ghost"], p, m);
    expect(ghost.code).toBe(0);
    expect(ghost.said).toEqual(['cliffcompaction: nothing to disable for "ghost" (never enabled)']);
    expect(readFileSync(toml, "utf8")).toBe(both);

    expect((await run(["disable", "--name", "team"], p, m)).code).toBe(0);
    const one = readFileSync(toml, "utf8");
    expect(one).not.toContain("cliffcompaction-team");
    expect(one).toContain('model_provider = "cliffcompaction"');
    expect(duplicates(one)).toEqual([]);
    expect((await run(["disable"], p, m)).code).toBe(0);
    expect(readFileSync(toml, "utf8")).toBe(original);
  });

  it("the first instance disabled first: its model_provider goes, the file stays valid, the second's table stays until its own disable", async () => {
    const { p, m, toml } = setup(CHATGPT);
    const original = 'model = "gpt-5"';
    writeFileSync(toml, original);
    const [a, b] = [await freePort(), await freePort()];
    await run(["enable", "--port", String(a), "--codex", "--no-env"], p, m);
    await run(["enable", "--name", "team", "--port", String(b), "--codex", "--no-env"], p, m);
    await run(["disable"], p, m);
    const left = readFileSync(toml, "utf8");
    expect(left).not.toMatch(/^model_provider/m);
    expect(duplicates(left)).toEqual([]);
    expect(strictToml(left)?.ok ?? true).toBe(true);
    await run(["disable", "--name", "team"], p, m);
    expect(readFileSync(toml, "utf8")).toBe(original);
  });
});

describe("a config.toml we cannot edit safely", () => {
  it.each([
    ["a multi-line string", 'instructions = """\n[model_providers.cliffcompaction]\n"""\n'],
    ["a multi-line array", 'notify = [\n  "say",\n]\n'],
    ["our provider's table of its own", '[model_providers.cliffcompaction]\nbase_url = "http://x"\n'],
    ["a dotted key for our provider", 'model_providers.cliffcompaction.base_url = "http://x"\n'],
  ])("%s: refused in one line, the file untouched, nothing installed", async (_what, text) => {
    const { p, m, toml } = setup(CHATGPT);
    writeFileSync(toml, text);
    const r = await run(["enable", "--port", String(await freePort()), "--codex", "--no-env"], p, m).catch((e: Error) => e);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toContain(toml);
    expect((r as Error).message).not.toContain("\n");
    expect(readFileSync(toml, "utf8")).toBe(text);
    expect(m.calls).toEqual([]);
  });
});

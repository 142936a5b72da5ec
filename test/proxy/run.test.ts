/** `cliffcompaction run -- <agent>`: base URLs set, Codex pointed at the proxy, exit codes and signals passed, the log in a file. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { runChild } from "../helpers/child.js";

let mock: MockUpstream;
const dir = mkdtempSync(join(tmpdir(), "cliff-run-"));
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(() => mock.close());

const CLI = ["dist/cli.mjs", "run"];

/** The CLI as a child, without blocking this process (the mock upstream answers from here). */
async function runCli(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = await runChild(process.execPath, args, process.cwd(), env, 60_000);
  return { status: r.code, stdout: r.out, stderr: r.err };
}
const agent = (name: string, source: string): string => {
  const file = join(dir, name);
  writeFileSync(file, `#!${process.execPath}\n${source}`);
  chmodSync(file, 0o755);
  return file;
};

describe("run", () => {
  it("starts the agent with its base URLs on the proxy, relays through it, returns its exit code and names the log file", async () => {
    const script = agent("agent.mjs", `
const base = process.env.ANTHROPIC_BASE_URL;
const r = await fetch(base + "/v1/messages?beta=true", { method: "POST", headers: { "x-api-key": "k", "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }) });
console.log("AGENT", r.status, process.env.OPENAI_BASE_URL, (await r.json()).content[0].text);
process.exit(3);`);
    const r = await runCli([...CLI, "--anthropic-upstream", mock.url, "--", script], { ...process.env, ANTHROPIC_BASE_URL: "" });
    expect(r.status).toBe(3);
    expect(r.stdout).toMatch(/^AGENT 200 http:\/\/127\.0\.0\.1:\d+\/v1 mock answer to \/v1\/messages$/m);
    const log = /log: ([^\s;]+)/.exec(r.stderr)![1];
    expect(existsSync(log)).toBe(true);
    expect(readFileSync(log, "utf8")).toMatch(/ anthropic 1→1 msgs .* pass /);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a base URL the user already set becomes the upstream", async () => {
    const script = agent("agent2.mjs", `
const r = await fetch(process.env.ANTHROPIC_BASE_URL + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
process.exit(r.status === 200 ? 0 : 1);`);
    const r = await runCli([...CLI, "--", script], { ...process.env, ANTHROPIC_BASE_URL: mock.url });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`Anthropic → ${mock.url}`);
  });

  it("Codex gets the proxy as its openai_base_url, and a loop back to the proxy is refused in one line", async () => {
    const codex = agent("codex", `console.log(JSON.stringify(process.argv.slice(2)));`);
    const home = mkdtempSync(join(tmpdir(), "cliff-run-home-"));
    const r = spawnSync(process.execPath, [...CLI, "--", codex, "exec", "hi"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, HOME: home, CODEX_HOME: "" } });
    expect(r.status).toBe(0);
    const args = JSON.parse(r.stdout) as string[];
    expect(args[0]).toBe("-c");
    expect(args[1]).toMatch(/^openai_base_url="http:\/\/127\.0\.0\.1:\d+\/v1"$/);
    expect(args.slice(2)).toEqual(["exec", "hi"]);
    const { runAgent } = await import("../../proxy/index.js");
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const said: string[] = [];
    const code = await runAgent({ command: codex, args: [], port, env: { HOME: home, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }, say: (l) => said.push(l), logPath: join(dir, "loop.log") });
    expect(code).toBe(2);
    expect(said).toEqual([expect.stringMatching(/the anthropic upstream http:\/\/127\.0\.0\.1:\d+\/ is this proxy itself/)]);
  });

  it("Codex signed in with ChatGPT (npx codex): our provider entry after the word codex, the user's -c kept, openai_base_url's value never left as a bare -c", () => {
    const bin = mkdtempSync(join(tmpdir(), "cliff-run-bin-"));
    const npx = join(bin, "npx");
    writeFileSync(npx, `#!${process.execPath}\nconsole.log(JSON.stringify(process.argv.slice(2)));`);
    chmodSync(npx, 0o755);
    const home = mkdtempSync(join(tmpdir(), "cliff-run-home-"));
    mkdirSync(join(home, "codex"));
    writeFileSync(join(home, "codex", "auth.json"), JSON.stringify({ auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { id_token: "a.b.c", access_token: "a.b.c", refresh_token: "r", account_id: "acct" }, last_refresh: new Date().toISOString() }));
    const env = { ...process.env, HOME: home, CODEX_HOME: join(home, "codex"), OPENAI_BASE_URL: "" };
    const r = spawnSync(process.execPath, [...CLI, "--", npx, "-y", "codex", "-c", "model=\"o3\"", "exec", "hi"], { encoding: "utf8", timeout: 60_000, env });
    expect(r.status, r.stderr).toBe(0);
    const args = JSON.parse(r.stdout) as string[];
    const port = /127\.0\.0\.1:(\d+)/.exec(r.stderr)![1];
    expect(args).toEqual([
      "-y", "codex", "-c", 'model="o3"',
      "-c", 'model_provider="cliffcompaction"',
      "-c", `model_providers.cliffcompaction={ name = "cliffcompaction", base_url = "http://127.0.0.1:${port}/backend-api/codex", wire_api = "responses", requires_openai_auth = true }`,
      "-c", `chatgpt_base_url="http://127.0.0.1:${port}/backend-api"`,
      "exec", "hi",
    ]);
    const api = spawnSync(process.execPath, [...CLI, "--", npx, "codex", "-c", "openai_base_url=http://127.0.0.1:9/v1", "exec", "hi"], { encoding: "utf8", timeout: 60_000, env });
    const apiArgs = JSON.parse(api.stdout) as string[];
    expect(apiArgs).toEqual(["codex", "-c", expect.stringMatching(/^openai_base_url="http:\/\/127\.0\.0\.1:\d+\/v1"$/), "exec", "hi"]);
    expect(api.stderr).toContain("OpenAI → http://127.0.0.1:9/");
  });

  it.each([
    [{ ANTHROPIC_BASE_URL: "localhost:4000" }, [], /^cliffcompaction: ANTHROPIC_BASE_URL "localhost:4000" is not an http:\/\/ or https:\/\/ URL/],
    [{ OPENAI_BASE_URL: "ftp://x" }, [], /^cliffcompaction: OPENAI_BASE_URL "ftp:\/\/x" is not/],
    [{}, ["--anthropic-upstream", "not a url"], /^cliffcompaction: --anthropic-upstream "not a url" is not/],
    [{ CLIFF_OPENAI_UPSTREAM: "http//x" }, [], /^cliffcompaction: CLIFF_OPENAI_UPSTREAM "http\/\/x" is not/],
  ])("a bad base URL (%j %j): one line naming where it came from, exit 2", (env, flags, line) => {
    const r = spawnSync(process.execPath, [...CLI, ...flags, "--", process.execPath, "-e", "0"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "", ...env } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("a bad base URL in Codex's -c: named as Codex's setting", () => {
    const codex = agent("codex", `console.log("ran");`);
    const r = spawnSync(process.execPath, [...CLI, "--", codex, "-c", "openai_base_url=localhost:1234", "exec", "x"], { encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(`cliffcompaction: Codex's -c openai_base_url "localhost:1234" is not an http:// or https:// URL (e.g. http://localhost:4000)`);
    expect(r.stdout).toBe("");
  });

  it("a signal sent to run reaches the agent once, and run exits with the agent's code", async () => {
    const script = agent("agent3.mjs", `
let got = 0;
process.on("SIGTERM", () => { got++; setTimeout(() => process.exit(40 + got), 200); });
console.log("READY");
setInterval(() => {}, 1000);`);
    const child = spawn(process.execPath, [...CLI, "--", script], { stdio: ["ignore", "pipe", "pipe"] });
    await new Promise<void>((resolve) => child.stdout.on("data", (d) => String(d).includes("READY") && resolve()));
    child.kill("SIGTERM");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(code).toBe(41);
  });

  it("a command that does not exist: one line before any proxy starts, exit 127", () => {
    const r = spawnSync(process.execPath, [...CLI, "--", join(dir, "no-such-agent")], { encoding: "utf8", timeout: 60_000 });
    expect(r.status).toBe(127);
    expect(r.stderr).toBe(`cliffcompaction: cannot run ${join(dir, "no-such-agent")} (ENOENT: no such executable file)\n`);
    const bare = spawnSync(process.execPath, [...CLI, "--", "no-such-agent-here", "--flag"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, PATH: dir } });
    expect(bare.status).toBe(127);
    expect(bare.stderr).toBe("cliffcompaction: cannot run no-such-agent-here (ENOENT: not found on PATH)\n");
    // A file that is there but not executable is no agent either.
    writeFileSync(join(dir, "not-executable"), "#!/bin/sh\n");
    const plain = spawnSync(process.execPath, [...CLI, "--", "not-executable"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, PATH: dir } });
    expect(plain.stderr).toBe("cliffcompaction: cannot run not-executable (ENOENT: not found on PATH)\n");
  });

  it("serve on a port another program holds: one line that says how to find it, no pointer to --help, exit 2", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const r = spawnSync(process.execPath, ["dist/cli.mjs", "serve", "--port", String(port)], { encoding: "utf8", timeout: 60_000 });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`cliffcompaction: cannot listen on 127.0.0.1:${port} (EADDRINUSE: another program holds it; cliffcompaction status --port ${port} says which, or pass --port N)\n`);
      const viaRun = spawnSync(process.execPath, [...CLI, "--port", String(port), "--", process.execPath, "-e", ""], { encoding: "utf8", timeout: 60_000 });
      expect(viaRun.status).toBe(2);
      expect(viaRun.stderr).toBe(`cliffcompaction: cannot listen on 127.0.0.1:${port} (EADDRINUSE: another program holds it; cliffcompaction status --port ${port} says which, or pass --port N)\n`);
    } finally {
      holder.close();
    }
  });
});

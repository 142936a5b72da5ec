/**
 * `run -- opencode` and `run -- copilot`: each client told the proxy's address by its own
 * variables (OpenCode's inline config, Copilot's provider or API URL), the user's own settings
 * naming the upstream, the user's files untouched, requests relayed with the user's own sign-in.
 * The clients are stand-ins that print what they were given and send one request the way each
 * real client builds its URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { runChild } from "../helpers/child.js";
import { planCopilot } from "../../node/clients/copilot.js";
import { jsoncText, planOpenCode } from "../../node/clients/opencode.js";

let mock: MockUpstream;
const dir = mkdtempSync(join(tmpdir(), "cliff-run-clients-"));
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(() => mock.close());

/** A stand-in client: prints the variables it was given as JSON, then sends one request built as `request` says. */
function client(name: string, request = ""): string {
  const folder = mkdtempSync(join(dir, "bin-"));
  const file = join(folder, name);
  writeFileSync(file, `#!${process.execPath}
const keys = ["OPENCODE_CONFIG_CONTENT", "COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_TRANSPORT", "COPILOT_API_URL"];
const env = Object.fromEntries(keys.filter((k) => process.env[k]).map((k) => [k, process.env[k]]));
let status = null;
${request}
console.log(JSON.stringify({ env, status, argv: process.argv.slice(2) }));`);
  chmodSync(file, 0o755);
  return file;
}

/** The OpenCode stand-in posts to its Anthropic provider's base URL + /messages, as the AI SDK does. */
const OPENCODE_REQUEST = `
const c = JSON.parse(process.env.OPENCODE_CONFIG_CONTENT);
const r = await fetch(c.provider.anthropic.options.baseURL + "/messages", { method: "POST", headers: { "x-api-key": "sk-ant-user", "content-type": "application/json" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }) });
status = r.status;`;

const home = (): string => {
  const h = mkdtempSync(join(dir, "home-"));
  mkdirSync(join(h, ".config", "opencode"), { recursive: true });
  return h;
};

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: any; err: string }> {
  const r = await runChild(process.execPath, ["dist/cli.mjs", "run", ...args], process.cwd(), { ...process.env, ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "", OPENCODE_CONFIG_CONTENT: "", COPILOT_PROVIDER_BASE_URL: "", COPILOT_API_URL: "", ...env }, 60_000);
  let out: any = null;
  try {
    out = JSON.parse(r.out.trim().split("\n").at(-1) ?? "");
  } catch {
    // left null: the assertions name what was printed
  }
  return { code: r.code, out, err: r.err };
}

const portOf = (err: string): string => /proxy on http:\/\/127\.0\.0\.1:(\d+)/.exec(err)![1];

describe("run -- opencode", () => {
  it("OpenCode's inline config points its Anthropic and OpenAI providers at the proxy, keeps the user's inline settings, and a request is relayed", async () => {
    const h = home();
    const inline = JSON.stringify({ model: "anthropic/claude-sonnet-4-5", provider: { anthropic: { options: { timeout: 5000 } } } });
    const r = await run(["--anthropic-upstream", mock.url, "--", client("opencode", OPENCODE_REQUEST), "run", "hi"], { HOME: h, XDG_CONFIG_HOME: "", OPENCODE_CONFIG_CONTENT: inline });
    expect(r.code, r.err).toBe(0);
    const port = portOf(r.err);
    const config = JSON.parse(r.out.env.OPENCODE_CONFIG_CONTENT);
    expect(config).toEqual({
      model: "anthropic/claude-sonnet-4-5",
      provider: { anthropic: { options: { timeout: 5000, baseURL: `http://127.0.0.1:${port}/v1` } }, openai: { options: { baseURL: `http://127.0.0.1:${port}/v1` } } },
    });
    expect(r.out.argv).toEqual(["run", "hi"]);
    expect(r.out.status).toBe(200);
    expect(mock.received.at(-1)!.path).toBe("/v1/messages");
    expect(mock.received.at(-1)!.headers["x-api-key"]).toBe("sk-ant-user");
  });

  it("a base URL in the user's global config (JSONC) becomes the upstream, its path kept, and the file is left as it was", async () => {
    const h = home();
    const file = join(h, ".config", "opencode", "opencode.jsonc");
    const text = `{\n  // my gateway\n  "provider": { "anthropic": { "options": { "baseURL": "${mock.url}/gateway/anthropic", }, }, },\n}\n`;
    writeFileSync(file, text);
    const r = await run(["--", client("opencode", OPENCODE_REQUEST)], { HOME: h, XDG_CONFIG_HOME: "" });
    expect(r.code, r.err).toBe(0);
    const port = portOf(r.err);
    expect(r.err).toContain(`Anthropic → ${mock.url}/gateway/anthropic`);
    expect(JSON.parse(r.out.env.OPENCODE_CONFIG_CONTENT).provider.anthropic.options.baseURL).toBe(`http://127.0.0.1:${port}/gateway/anthropic`);
    expect(mock.received.at(-1)!.path).toBe("/gateway/anthropic/messages");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("signed in with ChatGPT (auth.json oauth): OpenAI requests go to the proxy's Codex backend path, with a note", async () => {
    const h = home();
    mkdirSync(join(h, ".local", "share", "opencode"), { recursive: true });
    const auth = JSON.stringify({ openai: { type: "oauth", access: "a.b.c", refresh: "r", expires: Date.now() + 3600_000, accountId: "acct" } });
    writeFileSync(join(h, ".local", "share", "opencode", "auth.json"), auth);
    const request = `
const c = JSON.parse(process.env.OPENCODE_CONFIG_CONTENT);
const r = await fetch(c.provider.openai.options.baseURL + "/responses", { method: "POST", headers: { authorization: "Bearer a.b.c", "chatgpt-account-id": "acct", "content-type": "application/json" }, body: JSON.stringify({ model: "gpt-5.5", input: [{ role: "user", content: "hi" }] }) });
status = r.status;`;
    const r = await run(["--chatgpt-upstream", mock.url, "--", client("opencode", request)], { HOME: h, XDG_DATA_HOME: "", XDG_CONFIG_HOME: "" });
    expect(r.code, r.err).toBe(0);
    const port = portOf(r.err);
    expect(JSON.parse(r.out.env.OPENCODE_CONFIG_CONTENT).provider.openai.options.baseURL).toBe(`http://127.0.0.1:${port}/backend-api/codex`);
    expect(r.err).toMatch(/^cliffcompaction: OpenCode is signed in with ChatGPT/m);
    expect(r.out.status).toBe(200);
    expect(mock.received.at(-1)!.path).toBe("/backend-api/codex/responses");
    expect(mock.received.at(-1)!.headers.authorization).toBe("Bearer a.b.c");
    expect(readFileSync(join(h, ".local", "share", "opencode", "auth.json"), "utf8")).toBe(auth);
  });

  it("npx opencode-ai is OpenCode too; an inline config that is not JSON: one line, exit 2, the client never started", async () => {
    const npx = client("npx");
    const ok = await run(["--", npx, "-y", "opencode-ai@1.18.33", "run", "x"], { HOME: home() });
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out.env.OPENCODE_CONFIG_CONTENT).provider.anthropic.options.baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const bad = await run(["--", client("opencode")], { HOME: home(), OPENCODE_CONFIG_CONTENT: "{not json" });
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toBe("cliffcompaction: OPENCODE_CONFIG_CONTENT is not a JSON object; run passes it on with the proxy's provider settings added");
    expect(bad.out).toBeNull();
  });

  it("JSONC: comments and trailing commas go, strings (a URL's //) stay", () => {
    expect(JSON.parse(jsoncText('{ "a": "http://x//y", // c\n /* b */ "b": [1, 2,], }'))).toEqual({ a: "http://x//y", b: [1, 2] });
    expect(JSON.parse(jsoncText('{ "q": "say \\"//\\" /* no */" }'))).toEqual({ q: 'say "//" /* no */' });
  });

  it("the plan: the project's config overrides the global one, the inline one both", () => {
    const h = home();
    const project = mkdtempSync(join(h, "project-"));
    writeFileSync(join(h, ".config", "opencode", "opencode.json"), JSON.stringify({ provider: { openai: { options: { baseURL: "https://global.example/v1" } } } }));
    writeFileSync(join(project, "opencode.json"), JSON.stringify({ provider: { openai: { options: { baseURL: "https://project.example/v1" } } } }));
    const plan = planOpenCode({ HOME: h }, project);
    expect(typeof plan).not.toBe("string");
    if (typeof plan === "string") return;
    expect(plan.upstreams).toEqual([{ name: "openai", url: "https://project.example/v1", source: `${join(project, "opencode.json")} provider.openai.options.baseURL` }]);
    const inline = planOpenCode({ HOME: h, OPENCODE_CONFIG_CONTENT: JSON.stringify({ provider: { openai: { options: { baseURL: "https://inline.example/v1" } } } }) }, project);
    expect(typeof inline !== "string" && inline.upstreams[0]).toEqual({ name: "openai", url: "https://inline.example/v1", source: "OPENCODE_CONFIG_CONTENT provider.openai.options.baseURL" });
  });
});

describe("run -- copilot", () => {
  const CHAT_REQUEST = `
const r = await fetch(process.env.COPILOT_PROVIDER_BASE_URL + "/chat/completions", { method: "POST", headers: { authorization: "Bearer sk-byok", "content-type": "application/json" }, body: JSON.stringify({ model: "gpt-5.4", messages: [{ role: "user", content: "hi" }] }) });
status = r.status;`;

  it("BYOK (openai type): the provider's base URL becomes the upstream, Copilot gets the proxy's with the same path, and a request is relayed with the user's key", async () => {
    const r = await run(["--", client("copilot", CHAT_REQUEST), "-p", "hi"], { HOME: home(), COPILOT_PROVIDER_BASE_URL: `${mock.url}/v1`, COPILOT_PROVIDER_TYPE: "" });
    expect(r.code, r.err).toBe(0);
    const port = portOf(r.err);
    expect(r.out.env).toEqual({ COPILOT_PROVIDER_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expect(r.err).toContain(`OpenAI → ${mock.url}/v1`);
    expect(r.out.status).toBe(200);
    expect(mock.received.at(-1)!.path).toBe("/v1/chat/completions");
    expect(mock.received.at(-1)!.headers.authorization).toBe("Bearer sk-byok");
  });

  it("BYOK (anthropic type) is the Anthropic upstream; a WebSocket transport is set to HTTP for the run, with a note", () => {
    const plan = planCopilot({ COPILOT_PROVIDER_BASE_URL: "https://gw.example/anthropic", COPILOT_PROVIDER_TYPE: "anthropic", COPILOT_PROVIDER_TRANSPORT: "websockets" });
    expect(plan.upstreams).toEqual([{ name: "anthropic", url: "https://gw.example/anthropic", source: "COPILOT_PROVIDER_BASE_URL" }]);
    expect(plan.env("http://127.0.0.1:5")).toEqual({ COPILOT_PROVIDER_BASE_URL: "http://127.0.0.1:5/anthropic", COPILOT_PROVIDER_TRANSPORT: "http" });
    expect(plan.note).toMatch(/transport is HTTP/);
  });

  it("signed in with GitHub: COPILOT_API_URL moves Copilot to the proxy, the Copilot API is both upstreams, and its token goes along", async () => {
    const request = `
const base = process.env.COPILOT_API_URL;
const h = { authorization: "Bearer gho_user", "copilot-integration-id": "copilot-developer-cli", "content-type": "application/json" };
const models = await fetch(base + "/models", { headers: h });
const chat = await fetch(base + "/chat/completions", { method: "POST", headers: h, body: JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }) });
const claude = await fetch(base + "/v1/messages", { method: "POST", headers: { ...h, "anthropic-version": "2023-06-01" }, body: JSON.stringify({ model: "claude-sonnet-4.5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }) });
status = [models.status, chat.status, claude.status];`;
    const before = mock.received.length;
    const r = await run(["--", client("copilot", request)], { HOME: home(), COPILOT_API_URL: mock.url });
    expect(r.code, r.err).toBe(0);
    const port = portOf(r.err);
    expect(r.out.env).toEqual({ COPILOT_API_URL: `http://127.0.0.1:${port}` });
    expect(r.err).toContain(`Anthropic → ${mock.url}/, OpenAI → ${mock.url}/`);
    const got = mock.received.slice(before);
    expect(got.map((x) => x.path)).toEqual(["/models", "/chat/completions", "/v1/messages"]);
    for (const x of got) expect(x.headers.authorization).toBe("Bearer gho_user");
    expect(r.out.status).toEqual([expect.any(Number), 200, 200]);
  });

  it("signed in with GitHub and no COPILOT_API_URL: the upstreams are api.githubcopilot.com", () => {
    const plan = planCopilot({});
    expect(plan.upstreams.map((u) => [u.name, u.url])).toEqual([["anthropic", "https://api.githubcopilot.com"], ["openai", "https://api.githubcopilot.com"]]);
    expect(plan.env("http://127.0.0.1:7")).toEqual({ COPILOT_API_URL: "http://127.0.0.1:7" });
  });

  it("npx @github/copilot is Copilot too; another command gets neither client's variables", async () => {
    const npx = client("npx");
    const r = await run(["--", npx, "@github/copilot", "-p", "x"], { HOME: home() });
    expect(r.out.env.COPILOT_API_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const other = await run(["--", client("my-agent")], { HOME: home() });
    expect(other.code, other.err).toBe(0);
    expect(other.out.env).toEqual({});
  });
});

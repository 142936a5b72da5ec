/**
 * Round six, case 3: `run` exports only the variables of the agent it starts and of the upstreams
 * that agent's plan uses. The agent is a stand-in that, like a user's own script run from it, calls
 * Anthropic and OpenAI through whatever base URL variables it was given, with keys of the user's
 * own, then makes its own request the way the agent does. The stand-in upstream (the Copilot API,
 * Copilot's own provider, OpenCode's OpenAI gateway) must see its agent's credential and no key
 * that belonged to another provider.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mockUpstream, type MockUpstream } from "../../helpers/mock-upstream.js";
import { runChild } from "../../helpers/child.js";

let mock: MockUpstream;
const dir = mkdtempSync(join(tmpdir(), "cliff-round-six-keys-"));
beforeAll(async () => void (mock = await mockUpstream()));
afterAll(() => mock.close());

/** Keys of the user's own, for other providers than the agent's. */
const FOREIGN = ["sk-ant-users-own-anthropic-key", "sk-users-own-openai-key", "sk-users-own-openai-api-base-key", "AIza-users-own-gemini-key"];
const VARIABLES = ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE", "GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL", "CODE_ASSIST_ENDPOINT"];

/** The stand-in agent: the user's script's calls through any base URL variable it was given, then its own request (`own`). */
function agent(name: string, own: string): string {
  const folder = mkdtempSync(join(dir, "bin-"));
  const file = join(folder, name);
  writeFileSync(file, `#!${process.execPath}
const e = process.env;
const post = (url, headers, body) => fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) }).then((r) => r.arrayBuffer()).catch(() => null);
const chat = { model: "gpt-5.5", messages: [{ role: "user", content: "my own script" }] };
if (e.ANTHROPIC_BASE_URL) await post(e.ANTHROPIC_BASE_URL + "/v1/messages", { "x-api-key": ${JSON.stringify(FOREIGN[0])} }, { model: "claude-sonnet-4-5", max_tokens: 8, messages: [{ role: "user", content: "my own script" }] });
if (e.OPENAI_BASE_URL) await post(e.OPENAI_BASE_URL + "/chat/completions", { authorization: "Bearer ${FOREIGN[1]}" }, chat);
if (e.OPENAI_API_BASE) await post(e.OPENAI_API_BASE + "/chat/completions", { authorization: "Bearer ${FOREIGN[2]}" }, chat);
if (e.GOOGLE_GEMINI_BASE_URL) await post(e.GOOGLE_GEMINI_BASE_URL + "/v1beta/openai/chat/completions?key=${FOREIGN[3]}", {}, chat);
if (e.GOOGLE_VERTEX_BASE_URL) await post(e.GOOGLE_VERTEX_BASE_URL + "/v1/chat/completions", { "x-goog-api-key": "${FOREIGN[3]}" }, chat);
${own}
console.log(JSON.stringify({ exported: ${JSON.stringify(VARIABLES)}.filter((k) => e[k]) }));`);
  chmodSync(file, 0o755);
  return file;
}

async function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; exported: string[]; err: string }> {
  const clear = Object.fromEntries([...VARIABLES, "OPENCODE_CONFIG_CONTENT", "COPILOT_PROVIDER_BASE_URL", "COPILOT_PROVIDER_TYPE", "COPILOT_API_URL"].map((k) => [k, ""]));
  const r = await runChild(process.execPath, ["dist/cli.mjs", "run", ...args], process.cwd(), { ...process.env, ...clear, ...env }, 60_000);
  let exported: string[] = [];
  try {
    exported = JSON.parse(r.out.trim().split("\n").at(-1) ?? "").exported;
  } catch {
    // left empty: the assertions name what was printed
  }
  return { code: r.code, exported, err: r.err };
}

/** Every credential the stand-in upstream saw since `from`: keys in headers and query strings. */
function seen(from: number): string[] {
  const out: string[] = [];
  for (const r of mock.received.slice(from)) {
    const h = r.headers;
    for (const v of [h["x-api-key"], h.authorization, h["x-goog-api-key"], new URL(r.path, "http://x").searchParams.get("key")]) if (typeof v === "string" && v !== "") out.push(v.replace(/^Bearer /, ""));
  }
  return out;
}

const home = (): string => {
  const h = mkdtempSync(join(dir, "home-"));
  mkdirSync(join(h, ".config", "opencode"), { recursive: true });
  return h;
};

const CASES: [string, () => { args: string[]; env: NodeJS.ProcessEnv; own: string }][] = [
  ["run -- copilot signed in with GitHub (the Copilot API)", () => ({
    args: ["--", agent("copilot", `await post(e.COPILOT_API_URL + "/chat/completions", { authorization: "Bearer gho-copilot-token" }, chat);`)],
    env: { HOME: home(), COPILOT_API_URL: mock.url + "/copilot-api" },
    own: "gho-copilot-token",
  })],
  ["run -- copilot with its own provider (BYOK, openai)", () => ({
    args: ["--", agent("copilot", `await post(e.COPILOT_PROVIDER_BASE_URL + "/chat/completions", { authorization: "Bearer byok-provider-key" }, chat);`)],
    env: { HOME: home(), COPILOT_PROVIDER_BASE_URL: mock.url + "/byok/v1", COPILOT_PROVIDER_TYPE: "openai" },
    own: "byok-provider-key",
  })],
  ["run -- opencode whose config names another OpenAI base URL", () => {
    const h = home();
    writeFileSync(join(h, ".config", "opencode", "opencode.json"), JSON.stringify({ provider: { openai: { options: { baseURL: mock.url + "/gateway/v1" } } } }));
    return {
      args: ["--", agent("opencode", `const c = JSON.parse(e.OPENCODE_CONFIG_CONTENT); await post(c.provider.openai.options.baseURL + "/chat/completions", { authorization: "Bearer gateway-key" }, chat);`)],
      env: { HOME: h, XDG_CONFIG_HOME: "" },
      own: "gateway-key",
    };
  }],
];

describe("round six, case 3: run exports its agent's variables only", () => {
  for (const [name, make] of CASES) {
    it(`${name}: the stand-in upstream sees the agent's own credential and none of the ${FOREIGN.length} keys of other providers`, async () => {
      const c = make();
      const from = mock.received.length;
      const r = await run(c.args, c.env);
      expect(r.code, r.err).toBe(0);
      const keys = seen(from);
      const foreign = keys.filter((k) => FOREIGN.includes(k));
      console.log(`round six, case 3, ${name}: ${foreign.length} foreign keys seen by the stand-in (${foreign.join(", ")}); exported ${r.exported.join(", ") || "none"}`);
      expect(keys).toContain(c.own);
      expect(foreign).toEqual([]);
      expect(r.exported).toEqual([]);
    });
  }
});

describe("the base URL variables each agent gets", () => {
  it("Claude Code: Anthropic's; Gemini CLI: Google's; Codex, OpenCode, Copilot: none; a command run knows nothing of: all", async () => {
    const { baseUrlVariables } = await import("../../../node/clients/index.js");
    expect(baseUrlVariables("/usr/bin/claude", [])).toEqual(["ANTHROPIC_BASE_URL"]);
    expect(baseUrlVariables("npx", ["-y", "@anthropic-ai/claude-code@2.1.332"])).toEqual(["ANTHROPIC_BASE_URL"]);
    expect(baseUrlVariables("gemini", [])).toEqual(["GOOGLE_GEMINI_BASE_URL", "GOOGLE_VERTEX_BASE_URL", "CODE_ASSIST_ENDPOINT"]);
    for (const [c, a] of [["codex", []], ["npx", ["@openai/codex"]], ["opencode", []], ["copilot", []], ["npx", ["@github/copilot"]]] as const) expect(baseUrlVariables(c, a), c).toEqual([]);
    expect(baseUrlVariables("bash", ["-c", "my-agent"])).toEqual(VARIABLES);
  });
});

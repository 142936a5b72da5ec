/** Codex pointed at the proxy: how Codex is recognised, which of the user's settings stay, which become the upstream, and ours last. */
import { describe, expect, it } from "vitest";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codexArgs, codexCommand, planCodex, userConfigArgs } from "../../node/clients/codex.js";
import { codexConfigRoute, codexSignIn } from "../../node/clients/codex-home.js";

const PROXY = "http://127.0.0.1:4567";
const NO_FILE = { providerBaseUrls: {} };
const plan = (args: string[], signIn: "chatgpt" | "api-key" | "none" = "api-key", file = NO_FILE) => planCodex(args, signIn, file, "~/.codex/config.toml");

describe("recognising Codex", () => {
  it.each([
    ["codex", ["exec", "hi"], [], ["exec", "hi"]],
    ["/usr/local/lib/node_modules/@openai/codex/bin/codex", ["exec"], [], ["exec"]],
    ["C:\\Users\\me\\AppData\\Roaming\\npm\\codex.cmd", [], [], []],
    ["codex.exe", ["-m", "o3"], [], ["-m", "o3"]],
    ["npx", ["codex", "exec", "hi"], ["codex"], ["exec", "hi"]],
    ["npx", ["-y", "@openai/codex@0.171.0", "-c", "x=1"], ["-y", "@openai/codex@0.171.0"], ["-c", "x=1"]],
    ["/usr/bin/npx", ["--yes", "@openai/codex"], ["--yes", "@openai/codex"], []],
  ])("%s %j", (command, args, lead, own) => {
    expect(codexCommand(command, args)).toEqual({ lead, args: own });
  });

  it.each([["claude", ["-p", "codex"]], ["npx", ["prettier", "codex.ts"]], ["codexx", []], ["/bin/sh", ["codex"]]])("not Codex: %s %j", (command, args) => {
    expect(codexCommand(command, args)).toBeNull();
  });
});

describe("the user's -c settings", () => {
  it("a bypassing setting goes with its value, never leaving a bare -c (-c openai_base_url=URL exec …)", () => {
    const p = plan(["-c", "openai_base_url=http://gw.example:9000/v1", "exec", "hello"]);
    expect(p.upstream).toEqual({ name: "openai", url: "http://gw.example:9000", source: "Codex's -c openai_base_url" });
    expect(codexArgs(p, PROXY)).toEqual(["-c", `openai_base_url="${PROXY}/v1"`, "exec", "hello"]);
  });

  it("every other setting is passed on whole, ours after the user's last -c", () => {
    const args = ["-c", "model=\"o3\"", "--config", "features.plugins=false", "exec", "--config=sandbox_mode=\"read-only\"", "-c", "openai_base_url=\"https://gw.example/openai/v1\"", "do it"];
    const out = codexArgs(plan(args), PROXY);
    expect(out).toEqual(["-c", "model=\"o3\"", "--config", "features.plugins=false", "exec", "--config=sandbox_mode=\"read-only\"", "-c", `openai_base_url="${PROXY}/openai/v1"`, "do it"]);
  });

  it("settings after -- are the prompt's, not Codex's", () => {
    const u = userConfigArgs(["exec", "--", "-c", "openai_base_url=x"]);
    expect(u.kept).toEqual(["exec", "--", "-c", "openai_base_url=x"]);
    expect(u.openaiBaseUrl).toBeUndefined();
  });

  it("a ChatGPT sign-in gets our provider entry and the ChatGPT backend through the proxy", () => {
    const out = codexArgs(plan(["exec", "hi"], "chatgpt"), PROXY);
    expect(out.slice(-2)).toEqual(["exec", "hi"]);
    expect(out.slice(0, -2)).toEqual([
      "-c", 'model_provider="cliffcompaction"',
      "-c", `model_providers.cliffcompaction={ name = "cliffcompaction", base_url = "${PROXY}/backend-api/codex", wire_api = "responses", requires_openai_auth = true }`,
      "-c", `chatgpt_base_url="${PROXY}/backend-api"`,
    ]);
  });

  it("a ChatGPT sign-in's own chatgpt_base_url becomes the ChatGPT upstream", () => {
    const p = plan(["-c", "chatgpt_base_url=https://chat.internal.example/backend-api", "exec", "hi"], "chatgpt");
    expect(p.upstream).toEqual({ name: "chatgpt", url: "https://chat.internal.example", source: "Codex's -c chatgpt_base_url" });
    expect(codexArgs(p, PROXY).filter((a) => a.includes("chat.internal"))).toEqual([]);
  });

  it("the user's own provider keeps its table (key variable, headers); its base_url becomes the upstream and ours overrides it", () => {
    const table = 'model_providers.azure={ name = "Azure", base_url = "https://me.openai.azure.com/openai/v1", env_key = "AZURE_KEY", wire_api = "responses" }';
    const p = plan(["-c", table, "-c", "model_provider=azure", "exec", "hi"], "chatgpt");
    expect(p.upstream).toEqual({ name: "openai", url: "https://me.openai.azure.com", source: "Codex's -c model_providers.azure.base_url" });
    expect(codexArgs(p, PROXY)).toEqual(["-c", table, "-c", 'model_provider="azure"', "-c", `model_providers.azure.base_url="${PROXY}/openai/v1"`, "exec", "hi"]);
  });

  it("a provider's base_url given on its own is left out and becomes the upstream", () => {
    const p = plan(["-c", "model_providers.local.base_url=http://10.0.0.5:8000/v1", "-c", "model_provider=local"]);
    expect(p.upstream?.url).toBe("http://10.0.0.5:8000");
    expect(codexArgs(p, PROXY)).toEqual(["-c", 'model_provider="local"', "-c", `model_providers.local.base_url="${PROXY}/v1"`]);
  });

  it("a provider whose base_url cannot be seen is kept, with a note that it bypasses the proxy", () => {
    const p = plan(["-c", "model_provider=ollama"]);
    expect(p.upstream).toBeUndefined();
    expect(codexArgs(p, PROXY)).toEqual(["-c", 'model_provider="ollama"']);
    expect(p.note).toMatch(/provider "ollama" .* do not go through the proxy/);
  });
});

describe("Codex's home", () => {
  it("config.toml: top-level keys and provider tables, never what enable --codex wrote", () => {
    const text = [
      'model = "o3"',
      'model_provider = "corp"',
      "# >>> cliffcompaction >>>",
      'openai_base_url = "http://127.0.0.1:8257/v1"',
      "# <<< cliffcompaction <<<",
      "[model_providers.corp]",
      'name = "Corp"',
      "base_url = 'https://llm.corp.example/v1' # the gateway",
      "[profiles.x]",
      'openai_base_url = "http://not-top-level"',
    ].join("\n");
    expect(codexConfigRoute(text)).toEqual({ provider: "corp", providerBaseUrls: { corp: "https://llm.corp.example/v1" } });
    const p = planCodex([], "api-key", codexConfigRoute(text), "/h/.codex/config.toml");
    expect(p.upstream).toEqual({ name: "openai", url: "https://llm.corp.example", source: "/h/.codex/config.toml model_providers.corp.base_url" });
  });

  it("auth.json: a ChatGPT sign-in, an API key, or none", () => {
    const home = mkdtempSync(join(tmpdir(), "cliff-codex-home-"));
    const at = (auth: unknown, env: NodeJS.ProcessEnv = {}) => {
      mkdirSync(join(home, ".codex"), { recursive: true });
      writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify(auth));
      return codexSignIn({ HOME: home, ...env });
    };
    expect(at({ auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { access_token: "a" } })).toBe("chatgpt");
    expect(at({ OPENAI_API_KEY: null, tokens: { access_token: "a" } })).toBe("chatgpt");
    expect(at({ auth_mode: "chatgpt", tokens: {} }, { CODEX_API_KEY: "sk-x" })).toBe("api-key");
    expect(at({ auth_mode: "apikey", OPENAI_API_KEY: "sk-x" })).toBe("api-key");
    expect(codexSignIn({ HOME: join(home, "nowhere") })).toBe("none");
    expect(codexSignIn({ HOME: join(home, "nowhere"), OPENAI_API_KEY: "sk" })).toBe("api-key");
  });
});

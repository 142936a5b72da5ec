/** Which client `run` starts: the clients pointed at the proxy by their variables alone (OpenCode, Copilot CLI), and the base URL variables each agent gets. */
import { basename } from "node:path";
import { isCopilot, planCopilot } from "./copilot.js";
import { isOpenCode, planOpenCode, type ClientPlan } from "./opencode.js";
import { GEMINI_BASE_URLS } from "./gemini.js";

/** The client's plan, null for a command that is neither, or a one-line error. */
export function clientPlan(command: string, args: readonly string[], env: NodeJS.ProcessEnv): ClientPlan | string | null {
  if (isOpenCode(command, args)) return planOpenCode(env);
  if (isCopilot(command, args)) return planCopilot(env);
  return null;
}

/** The providers' base URL variables `run` may point at the proxy, each with the path it gets there. */
export const BASE_URL_VARIABLES = {
  ANTHROPIC_BASE_URL: "",
  OPENAI_BASE_URL: "/v1",
  OPENAI_API_BASE: "/v1",
  GOOGLE_GEMINI_BASE_URL: "",
  GOOGLE_VERTEX_BASE_URL: "",
  CODE_ASSIST_ENDPOINT: "",
} as const;
export type BaseUrlVariable = keyof typeof BASE_URL_VARIABLES;

const PACKAGE_RUNNER = /^(npx|pnpx|bunx)(\.cmd|\.exe)?$/i;
const nameOf = (command: string): string => basename(command.replace(/\\/g, "/"));
const runs = (command: string, args: readonly string[], binary: RegExp, pkg: RegExp): boolean =>
  binary.test(nameOf(command)) || (PACKAGE_RUNNER.test(nameOf(command)) && args.some((a) => pkg.test(a)));

const isClaudeCode = (command: string, args: readonly string[]): boolean => runs(command, args, /^claude(\.exe|\.cmd|\.ps1)?$/i, /^@anthropic-ai\/claude-code(@.+)?$/);
export const isGeminiCli = (command: string, args: readonly string[] = []): boolean => runs(command, args, /^gemini(\.js|\.cmd)?$/, /^@google\/gemini-cli(@.+)?$/);
const isCodex = (command: string, args: readonly string[]): boolean => runs(command, args, /^codex(\.exe|\.cmd|\.ps1)?$/i, /^(codex|@openai\/codex(@.+)?)$/);

/**
 * The base URL variables `run` points at the proxy for the agent it starts: only those the agent
 * reads (Claude Code: Anthropic's; Gemini CLI: Google's). Codex, OpenCode and Copilot CLI are told
 * the proxy's address otherwise (`-c` settings, an inline config, Copilot's own variables), and
 * their plans may make another service the proxy's Anthropic or OpenAI upstream (the Copilot API,
 * a BYOK provider, a gateway): a variable named for Anthropic or OpenAI would send a program the
 * agent runs, with its own key, there. A command run knows nothing of gets them all: its upstreams
 * are the providers' own or the ones the user named.
 */
export function baseUrlVariables(command: string, args: readonly string[]): BaseUrlVariable[] {
  if (isClaudeCode(command, args)) return ["ANTHROPIC_BASE_URL"];
  if (isGeminiCli(command, args)) return GEMINI_BASE_URLS.map(([variable]) => variable);
  if (isCodex(command, args) || isOpenCode(command, args) || isCopilot(command, args)) return [];
  return Object.keys(BASE_URL_VARIABLES) as BaseUrlVariable[];
}

/** What the CLI and the proxy share about the clients: Codex's home, config and arguments, the shell profile, marked blocks in a user's files. */
export { codexConfigRoute, codexHome, codexSignIn, readCodexConfig } from "./codex-home.js";
export { CODEX_PROVIDER_ID, codexArgs, codexCommand, type CodexCommand, type CodexPlan, planCodex, tomlQuote } from "./codex.js";
export { addBlock, findBlock, removeBlock } from "./marked-block.js";
export { baseUrls, blockId, exportedNames, listed, profileLines, shellProfile, type ShellProfile } from "./shell-profile.js";
export { isOpenCode, planOpenCode, type ClientPlan, type ClientUpstream } from "./opencode.js";
export { BASE_URL_VARIABLES, baseUrlVariables, clientPlan, isGeminiCli, type BaseUrlVariable } from "./agents.js";
export { claudeTrigger, claudeWindows, settingsKey, triggerWarnings, windowFor, type ClaudeWindows } from "./claude-settings.js";
export { GEMINI_BASE_URLS, geminiEnv } from "./gemini.js";

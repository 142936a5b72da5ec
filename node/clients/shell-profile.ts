/**
 * The shell profile `enable` wires: which file the user's shell reads (by `$SHELL`: bash, zsh,
 * fish, or `--shell-profile FILE`), and the block that exports the base URLs in its syntax.
 */
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { geminiEnv } from "./gemini.js";

export type ShellSyntax = "posix" | "fish";

export interface ShellProfile {
  file: string;
  syntax: ShellSyntax;
}

/** The profile for `$SHELL`, or null when the shell is not one we know (the caller asks for --shell-profile). */
export function shellProfile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, chosen?: string): ShellProfile | null {
  const home = env.HOME || homedir();
  if (chosen !== undefined) return { file: chosen, syntax: chosen.endsWith(".fish") ? "fish" : "posix" };
  const shell = basename(env.SHELL ?? "");
  if (shell === "zsh") return { file: join(env.ZDOTDIR || home, ".zshrc"), syntax: "posix" };
  // macOS terminals start login shells, which read .bash_profile rather than .bashrc.
  if (shell === "bash") return { file: join(home, platform === "darwin" ? ".bash_profile" : ".bashrc"), syntax: "posix" };
  if (shell === "fish") return { file: join(env.XDG_CONFIG_HOME || join(home, ".config"), "fish", "config.fish"), syntax: "fish" };
  return null;
}

/** The base URLs a shell should export for a proxy at `url` (OPENAI_API_BASE for older OpenAI SDKs; Gemini CLI's three). */
export const baseUrls = (url: string): [string, string][] => [["ANTHROPIC_BASE_URL", url], ["OPENAI_BASE_URL", `${url}/v1`], ["OPENAI_API_BASE", `${url}/v1`], ...Object.entries(geminiEnv(url))];

/** The lines of the block: a comment saying what added it, then one export per variable. */
export function profileLines(url: string, syntax: ShellSyntax, name: string): string[] {
  const how = name === "default" ? "cliffcompaction disable" : `cliffcompaction disable --name ${name}`;
  const lines = [`# Added by cliffcompaction enable; \`${how}\` removes it.`];
  for (const [k, v] of baseUrls(url)) lines.push(syntax === "fish" ? `set -gx ${k} "${v}"` : `export ${k}="${v}"`);
  return lines;
}

/** The marker of an instance's blocks. */
export const blockId = (name: string): string => (name === "default" ? "cliffcompaction" : `cliffcompaction ${name}`);

/** The variables a block's lines export (either syntax), in order. */
export function exportedNames(block: string): string[] {
  const names: string[] = [];
  for (const m of block.matchAll(/^(?:export|set -gx) ([A-Za-z_][A-Za-z0-9_]*)/gm)) names.push(m[1]);
  return names;
}

/** Names joined for a sentence: "A, B and C". */
export const listed = (names: readonly string[]): string => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

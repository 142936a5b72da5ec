/**
 * `enable --codex`: Codex's `config.toml` pointed at the standing proxy, as `run` points it with
 * `-c` (the same settings): a provider entry for a ChatGPT sign-in, the OpenAI base URL for an
 * API key. Top-level keys go in a block at the top (TOML keys after a table belong to the table),
 * the provider table in a block at the end.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CODEX_PROVIDER_ID, tomlQuote } from "../../node/clients/index.js";
import { codexConfigRoute, codexHome, codexSignIn } from "../../node/clients/index.js";
import { addBlock, removeBlock } from "../../node/clients/index.js";
import { blockId } from "../../node/clients/index.js";
import { UsageError } from "../args.js";

export interface CodexWiring {
  file: string;
  signIn: "chatgpt" | "api-key";
  newline: boolean;
}

const tableId = (name: string): string => `${blockId(name)} provider`;

function blocks(url: string, signIn: "chatgpt" | "api-key"): { top: string[]; table: string[] | null } {
  if (signIn === "api-key") return { top: [`openai_base_url = ${tomlQuote(`${url}/v1`)}`], table: null };
  return {
    top: [`model_provider = ${tomlQuote(CODEX_PROVIDER_ID)}`],
    table: [
      `[model_providers.${CODEX_PROVIDER_ID}]`,
      `name = ${tomlQuote(CODEX_PROVIDER_ID)}`,
      `base_url = ${tomlQuote(`${url}/backend-api/codex`)}`,
      'wire_api = "responses"',
      "requires_openai_auth = true",
    ],
  };
}

/** What would be written, checked first: a setting of the user's own that ours would clash with is refused. */
export function planCodexWiring(env: NodeJS.ProcessEnv): { file: string; signIn: "chatgpt" | "api-key"; text: string } {
  const file = join(codexHome(env), "config.toml");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const own = codexConfigRoute(text);
  for (const key of ["model_provider", "openai_base_url"] as const) {
    const v = key === "model_provider" ? own.provider : own.openaiBaseUrl;
    if (v !== undefined) throw new UsageError(`${file} already sets ${key} = ${JSON.stringify(v)}; remove it, or enable without --codex`);
  }
  return { file, signIn: codexSignIn(env) === "chatgpt" ? "chatgpt" : "api-key", text };
}

export function writeCodexWiring(plan: ReturnType<typeof planCodexWiring>, url: string, name: string): CodexWiring {
  const b = blocks(url, plan.signIn);
  let text = addBlock(plan.text, blockId(name), b.top, "start").text;
  let newline = false;
  if (b.table !== null) {
    const added = addBlock(text, tableId(name), b.table, "end");
    text = added.text;
    newline = added.newline;
  } else text = removeBlock(text, tableId(name));
  mkdirSync(dirname(plan.file), { recursive: true });
  writeFileSync(plan.file, text);
  return { file: plan.file, signIn: plan.signIn, newline };
}

/** Takes out exactly what `writeCodexWiring` put in. */
export function removeCodexWiring(file: string, name: string, newline: boolean): boolean {
  if (!existsSync(file)) return false;
  const before = readFileSync(file, "utf8");
  const after = removeBlock(removeBlock(before, tableId(name), newline), blockId(name));
  if (after !== before) writeFileSync(file, after);
  return after !== before;
}

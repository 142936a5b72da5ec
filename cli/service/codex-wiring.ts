/**
 * `enable --codex`: Codex's `config.toml` pointed at the standing proxy, as `run` points it with
 * `-c` (the same settings), edited per instance: each instance with a ChatGPT sign-in has its own
 * provider table (`cliffcompaction`, `cliffcompaction-NAME`) in a block at the end, and the one
 * top-level key that chooses (`model_provider`, or `openai_base_url` for an API key) is written
 * once, by the first instance wired, in a block at the top (TOML keys after a table belong to the
 * table). `disable` takes out exactly its instance's blocks, so the last one out gives the file
 * back byte for byte. A file outside what we can edit safely (codex-toml.ts) is refused untouched.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { addBlock, blockId, CODEX_PROVIDER_ID, codexConfigRoute, codexHome, codexSignIn, removeBlock, tomlQuote } from "../../node/clients/index.js";
import { UsageError } from "../args.js";
import { codexTomlProblem } from "./codex-toml.js";

export interface CodexWiring {
  file: string;
  signIn: "chatgpt" | "api-key";
  /** A line break was added before a block at the end (0.2.0's record; blocks now say so themselves). */
  newline: boolean;
  /** This instance wrote the top-level key. */
  top?: boolean;
}

export interface CodexWiringPlan {
  file: string;
  signIn: "chatgpt" | "api-key";
  text: string;
}

/** The provider an instance's table defines. */
export const providerId = (name: string): string => (name === "default" ? CODEX_PROVIDER_ID : `${CODEX_PROVIDER_ID}-${name}`);
// A colon is in no instance name: these ids never meet another instance's, nor 0.2.0's.
const tableId = (name: string): string => `cliffcompaction: provider ${name}`;
const topId = (name: string): string => `cliffcompaction: top-level key (${name})`;
const ANY_TOP = /^# >>> cliffcompaction: top-level key \(([\w-]+)\) >>>/m;
/** What 0.2.0 wrote: the top block under the instance's profile id, the table under it plus " provider". */
const legacyTop = (name: string): string => blockId(name);
const legacyTable = (name: string): string => `${blockId(name)} provider`;
const LEGACY_TOP = /^# >>> cliffcompaction( [\w-]+)? >>>\r?\n(model_provider|openai_base_url) =/m;

const providerTable = (name: string, url: string): string[] => [
  `[model_providers.${providerId(name)}]`,
  `name = ${tomlQuote(providerId(name))}`,
  `base_url = ${tomlQuote(`${url}/backend-api/codex`)}`,
  'wire_api = "responses"',
  "requires_openai_auth = true",
];

const topKey = (name: string, url: string, signIn: CodexWiringPlan["signIn"]): string => (signIn === "api-key" ? `openai_base_url = ${tomlQuote(`${url}/v1`)}` : `model_provider = ${tomlQuote(providerId(name))}`);

/** What would be written, checked first: a setting of the user's own that ours would clash with, or a file we cannot edit safely, is refused. */
export function planCodexWiring(env: NodeJS.ProcessEnv, name: string): CodexWiringPlan {
  const file = join(codexHome(env), "config.toml");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  const problem = codexTomlProblem(text, [providerId(name)]);
  if (problem !== null) throw new UsageError(`${file}: ${problem}; enable --codex leaves it as it is (enable without --codex, or set Codex's provider by hand)`);
  const own = codexConfigRoute(text);
  for (const key of ["model_provider", "openai_base_url"] as const) {
    const v = key === "model_provider" ? own.provider : own.openaiBaseUrl;
    if (v !== undefined) throw new UsageError(`${file} already sets ${key} = ${JSON.stringify(v)}; remove it, or enable without --codex`);
  }
  return { file, signIn: codexSignIn(env) === "chatgpt" ? "chatgpt" : "api-key", text };
}

/** The instance that holds the top-level key, or null. */
function topOwner(text: string): string | null {
  const m = ANY_TOP.exec(text);
  if (m !== null) return m[1];
  const legacy = LEGACY_TOP.exec(text);
  return legacy === null ? null : (legacy[1]?.trim() ?? "default");
}

/** Writes the instance's blocks; says, when another instance holds the top-level key, how to choose this one. */
export function writeCodexWiring(plan: CodexWiringPlan, url: string, name: string): { wiring: CodexWiring; note: string | null } {
  let text = removeBlock(removeBlock(plan.text, legacyTable(name)), legacyTop(name));
  let newline = false;
  if (plan.signIn === "chatgpt") {
    const added = addBlock(text, tableId(name), providerTable(name, url), "end");
    text = added.text;
    newline = added.newline;
  } else text = removeBlock(text, tableId(name));
  const owner = topOwner(text);
  const top = owner === null || owner === name;
  if (top) text = addBlock(text, topId(name), [topKey(name, url, plan.signIn)], "start").text;
  mkdirSync(dirname(plan.file), { recursive: true });
  writeFileSync(plan.file, text);
  const choose = plan.signIn === "chatgpt" ? `-c model_provider=${providerId(name)}` : `-c openai_base_url=${url}/v1`;
  const note = top ? null : `Codex's ${plan.signIn === "chatgpt" ? "model_provider" : "openai_base_url"} stays the "${owner}" instance's (written once); for this one: codex ${choose}`;
  return { wiring: { file: plan.file, signIn: plan.signIn, newline, top }, note };
}

/** Takes out exactly what `writeCodexWiring` (or 0.2.0's enable) put in for this instance. */
export function removeCodexWiring(w: CodexWiring, name: string): boolean {
  if (!existsSync(w.file)) return false;
  const before = readFileSync(w.file, "utf8");
  let after = removeBlock(before, tableId(name), w.newline);
  after = removeBlock(after, topId(name));
  after = removeBlock(removeBlock(after, legacyTable(name), w.newline), legacyTop(name));
  if (after !== before) writeFileSync(w.file, after);
  return after !== before;
}

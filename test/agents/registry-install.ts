/**
 * What the opt-in agent suites share about the real clients: installing them from the registry into
 * a private folder of the suite's (never the project's dependencies), and a ChatGPT sign-in as
 * `codex login` leaves it.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** `npm install` of `specs` into `dir` (made a private package first); throws naming `what` when npm fails. */
export function installFromRegistry(dir: string, specs: string[], what: string, flags: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{"private":true}');
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const r = spawnSync(npm[0], [...npm.slice(1), "install", "--no-audit", "--no-fund", ...flags, ...specs], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`could not install ${what} from the registry`);
}

const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString("base64url");

/** A ChatGPT sign-in as `codex login` leaves it: JWT-shaped tokens (unsigned) with the claims Codex reads, valid for a month, refreshed just now. */
export function chatgptSignIn(home: string): void {
  const exp = Math.floor(Date.now() / 1000) + 30 * 86400;
  const claims = { email: "user@example.com", exp, "https://api.openai.com/auth": { chatgpt_plan_type: "plus", chatgpt_user_id: "user-test", chatgpt_account_id: "acct-test-123" } };
  const jwt = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.c2ln`;
  mkdirSync(join(home, ".codex"), { recursive: true });
  const auth = { auth_mode: "chatgpt", OPENAI_API_KEY: null, tokens: { id_token: jwt, access_token: jwt, refresh_token: "rt-test", account_id: "acct-test-123" }, last_refresh: new Date().toISOString() };
  writeFileSync(join(home, ".codex", "auth.json"), JSON.stringify(auth));
}

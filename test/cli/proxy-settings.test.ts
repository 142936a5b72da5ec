/** serve's own settings on the one order of layers, and a bad upstream URL refused in one line naming where it came from. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;

function serve(env: Record<string, string>, ...args: string[]): { code: number | null; err: string } {
  const clean: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  for (const k of Object.keys(clean)) if (k.startsWith("CLIFF_")) delete clean[k];
  const r = spawnSync(process.execPath, [CLI, "serve", "--port", "0", ...args], { encoding: "utf8", env: { ...clean, ...env }, timeout: 20_000 });
  return { code: r.status, err: r.stderr };
}

describe("bad upstream URLs", () => {
  const dir = mkdtempSync(join(tmpdir(), "cliff-proxy-settings-"));
  const file = join(dir, "cfg.json");
  writeFileSync(file, JSON.stringify({ chatgptUpstream: "chatgpt.com" }));
  const cases: [Record<string, string>, string[], RegExp][] = [
    [{}, ["--anthropic-upstream", "localhost:4000"], /^cliffcompaction: --anthropic-upstream "localhost:4000" is not an http:\/\/ or https:\/\/ URL/],
    [{ CLIFF_OPENAI_UPSTREAM: "not a url" }, [], /^cliffcompaction: CLIFF_OPENAI_UPSTREAM "not a url" is not an http/],
    [{}, ["--config", file], new RegExp(`^cliffcompaction: ${file.replace(/[.\\/]/g, "\\$&")} chatgptUpstream "chatgpt.com" is not an http`)],
    [{ CLIFF_CHATGPT_UPSTREAM: "https://user:pw@chatgpt.com" }, [], /^cliffcompaction: CLIFF_CHATGPT_UPSTREAM ".*" must be a plain base URL/],
    [{}, ["--allow-host", "a b"], /^cliffcompaction: --allow-host: "a b" is not a host name/],
  ];
  for (const [env, args, message] of cases) {
    it(`${JSON.stringify(env)} ${args.join(" ")}`, () => {
      const r = serve(env, ...args);
      expect(r.code).toBe(2);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      expect(r.err.trim()).toMatch(message);
      expect(r.err).not.toMatch(/cannot listen|    at /);
    });
  }
});

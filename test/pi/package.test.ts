/**
 * A clone installs into Pi the way users install it: `pi install <path>` records it, and Pi's loader
 * finds pi-extension/index.ts, the sources themselves (Pi loads TypeScript), never a build that could
 * be stale; even where a build left pi-extension/index.js beside them (the file the package ships).
 */
import { expect, it } from "vitest";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fauxAssistantMessage, fauxToolCall } from "@earendil-works/pi-ai";
import { DefaultResourceLoader, SettingsManager } from "@earendil-works/pi-coding-agent";
import { makeHarness, piDirs } from "./harness.js";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

it("pi install <path> registers the clone and Pi loads its pi-extension/index.ts", async () => {
  const { agentDir, cwd } = piDirs("cliff-install-");
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
  const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
  const install = spawnSync(process.execPath, [pi, "install", ROOT], { cwd, env, encoding: "utf8", timeout: 150_000 });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stdout).toContain("Installed");
  const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
  expect(settings.packages).toHaveLength(1);
  expect(await loadedExtensions(cwd, agentDir)).toEqual([join(ROOT, "pi-extension", "index.ts")]);
}, 180_000);

/** The extension files Pi's loader loads for the installed packages, failing on any load error. */
async function loadedExtensions(cwd: string, agentDir: string): Promise<string[]> {
  const loader = new DefaultResourceLoader({
    cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir), noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
  } as never);
  await loader.reload();
  const { extensions, errors } = loader.getExtensions();
  expect(errors).toEqual([]);
  return extensions.map((e: { path: string }) => e.path);
}

it("a git clone installed with npm install --omit=dev (no esbuild, no build: Pi's own git install) is loaded by Pi from its TypeScript and compacts", async () => {
  const clone = mkdtempSync(join(tmpdir(), "cliff-clone-"));
  // The tracked files as they are now: what a clone of this commit holds.
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((f) => f !== "" && existsSync(join(ROOT, f)));
  for (const f of tracked) {
    mkdirSync(dirname(join(clone, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(clone, f));
  }
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ["npm"];
  const install = spawnSync(npm[0], [...npm.slice(1), "install", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: clone, encoding: "utf8", timeout: 120_000 });
  expect(install.status, install.stderr).toBe(0);
  expect(existsSync(join(clone, "node_modules", "esbuild"))).toBe(false);
  const { agentDir, cwd } = piDirs("cliff-clone-pi-");
  const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
  expect(spawnSync(process.execPath, [pi, "install", clone], { cwd, env, encoding: "utf8", timeout: 60_000 }).status).toBe(0);
  expect(existsSync(join(clone, "pi-extension", "index.js"))).toBe(false);
  const found = await loadedExtensions(cwd, agentDir);
  expect(found).toEqual([join(clone, "pi-extension", "index.ts")]);
  const h = await makeHarness({ extensions: found });
  h.faux.appendResponses([fauxAssistantMessage([fauxToolCall("big", { n: 80 })], { stopReason: "toolUse" }), fauxAssistantMessage("done 1")]);
  await h.session.prompt("TASK-CLONE: fix the build");
  h.faux.appendResponses([fauxAssistantMessage([fauxToolCall("big", { n: 5 })], { stopReason: "toolUse" }), fauxAssistantMessage("done 2")]);
  await h.session.prompt("and the tests");
  const calls = h.faux.state.callCount;
  const result = await h.session.compact();
  expect(h.faux.state.callCount).toBe(calls);
  expect(h.lastCompaction().details.method).toBe("cliffcompaction");
  expect(result.summary).toContain("user: TASK-CLONE: fix the build");
  h.dispose();
  // An npm install and Pi transpiling the core's TypeScript on a loaded machine.
}, 240_000);

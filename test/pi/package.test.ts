/** The package installs into Pi the way users install it: `pi install <path>` records it, Pi's loader finds the extension. */
import { expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DefaultResourceLoader, SettingsManager } from "@earendil-works/pi-coding-agent";
import { piDirs } from "./harness.js";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");

it("pi install <path> registers the package and Pi loads the prebuilt pi-extension/index.js from it", async () => {
  const { agentDir, cwd } = piDirs("cliff-install-");
  const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1" };
  const pi = join(ROOT, "node_modules", "@earendil-works", "pi-coding-agent", "dist", "cli.js");
  const install = spawnSync(process.execPath, [pi, "install", ROOT], { cwd, env, encoding: "utf8", timeout: 60_000 });
  expect(install.status, install.stderr).toBe(0);
  expect(install.stdout).toContain("Installed");
  const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8"));
  expect(settings.packages).toHaveLength(1);
  const loader = new DefaultResourceLoader({
    cwd, agentDir, settingsManager: SettingsManager.create(cwd, agentDir), noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true,
  } as never);
  await loader.reload();
  const { extensions, errors } = loader.getExtensions();
  expect(errors).toEqual([]);
  expect(extensions.map((e: { path: string }) => e.path)).toContain(join(ROOT, "pi-extension", "index.js"));
});

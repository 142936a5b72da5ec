/**
 * The version of the package a service runs: the `package.json` of cliffcompaction beside the
 * script in its command (`…/node_modules/cliffcompaction/dist/cli.mjs` → `…/cliffcompaction/package.json`).
 * After `npm i -g cliffcompaction@new` a service keeps serving the old build until it restarts:
 * `status` compares this with what the running proxy says.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Installed {
  file: string;
  version: string;
}

/** The package.json of cliffcompaction at most three folders above `script`, with its version; null when none. */
export function installedVersion(script: string): Installed | null {
  let dir = dirname(script);
  for (let i = 0; i < 3; i++) {
    const file = join(dir, "package.json");
    try {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "cliffcompaction" && typeof pkg.version === "string") return { file, version: pkg.version };
    } catch {
      // no package.json here, or not one we can read: look higher
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return null;
}

/** status's warning line when the running proxy's version is not the installed one; null when they agree or one is unknown. */
export function staleWarning(running: unknown, installed: Installed | null, name: string): string | null {
  if (installed === null || typeof running !== "string" || running === installed.version) return null;
  const restart = name === "default" ? "cliffcompaction restart" : `cliffcompaction restart --name ${name}`;
  return `WARNING: the proxy runs cliffcompaction ${running}, but ${installed.file} is ${installed.version}; ${restart} starts the installed one`;
}

/**
 * The tests' own home: every test file runs with HOME and the XDG folders in a temporary folder, so
 * nothing a test starts (a proxy's admin token, the archive, a shell profile, an agent's config,
 * npm's cache) lands in the user's home. The guard (the suite's global setup) notes what the
 * project could write in the real home before the run and fails the run if any of it changed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The environment a test worker gets: a fresh home and XDG folders, npm's cache inside it. */
export function isolatedHome(realHome = process.env.HOME ?? ""): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), "cliff-test-home-"));
  const env: Record<string, string> = {
    HOME: home,
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    npm_config_cache: join(home, ".npm"),
    CLIFF_TEST_REAL_HOME: realHome,
  };
  for (const dir of [env.XDG_STATE_HOME, env.XDG_CACHE_HOME, env.XDG_CONFIG_HOME, env.XDG_DATA_HOME]) mkdirSync(dir, { recursive: true });
  // npm still reads the user's own settings (the registry it is pointed at), from where they are.
  if (realHome !== "" && existsSync(join(realHome, ".npmrc"))) env.npm_config_userconfig = join(realHome, ".npmrc");
  return env;
}

/** What the project writes in a home when a test lets it: its own folders, agents' configs, shell profiles. */
export const WATCHED = [
  ".local/state/cliffcompaction", ".cache/cliffcompaction", ".config/cliffcompaction", ".local/share/cliffcompaction",
  ".bashrc", ".zshrc", ".profile", ".bash_profile", ".config/fish/config.fish",
  ".codex", ".claude.json", ".claude/settings.json", ".gemini", ".config/opencode", ".pi/agent", ".omp", ".copilot",
  ".config/systemd/user", "Library/LaunchAgents",
];

/** Each watched path (and what is directly inside a watched folder) with its size and time. */
export function homeState(home: string): Record<string, string> {
  const out: Record<string, string> = {};
  const note = (rel: string): void => {
    const p = join(home, rel);
    if (!existsSync(p)) return;
    const s = statSync(p);
    out[rel] = `${s.size} ${s.mtimeMs}`;
    if (s.isDirectory()) for (const name of readdirSync(p)) {
      const c = statSync(join(p, name));
      out[`${rel}/${name}`] = `${c.size} ${c.mtimeMs}`;
    }
  };
  for (const rel of WATCHED) note(rel);
  return out;
}

/** The global setup: the real home's watched paths before, compared after the run. */
export default function guard(): () => void {
  const home = process.env.HOME ?? "";
  if (home === "") return () => {};
  const before = homeState(home);
  return () => {
    const after = homeState(home);
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();
    if (changed.length > 0) throw new Error(`the tests changed the real home folder ${home}: ${changed.join(", ")}`);
  };
}

/**
 * Whether an archive folder can be trusted with the texts a summary points at: whoever can write
 * to the folder (or to a folder above it) can replace a file the agent will read back. The folder
 * and each parent up to the user's home (or `/`) must be owned by the user or root and not
 * writable by other users, unless sticky (as /tmp is: others can add files there, not replace
 * ours). A folder that is itself a symlink is resolved once and its target held to the same rule;
 * the writer then uses the resolved path, so a symlink changed later is never followed.
 */
import { lstatSync, realpathSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";

export interface Me {
  uid: number;
  gid: number;
  home: string;
}

export type Trust = { dir: string } | { problem: string };

export const currentUser = (home: string): Me => ({ uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, home });

const WHAT_TO_DO = "use a folder of your own, e.g. ~/.cache/cliffcompaction/archive (the default)";

/** The path with its existing part resolved (symlinks followed once), the part still to be made kept as written. */
function resolveExisting(path: string): string {
  const missing: string[] = [];
  let at = resolve(path);
  for (;;) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
      const up = dirname(at);
      if (up === at) return resolve(path);
      missing.push(at.slice(up.length).replace(/^[/\\]+/, ""));
      at = up;
    }
  }
}

/** What is wrong with one existing folder, or null. */
function folderProblem(path: string, st: Stats, me: Me): string | null {
  // Not a folder: nothing can be kept there anyway, and the writer says so in its own words.
  if (!st.isDirectory()) return null;
  if (st.uid !== me.uid && st.uid !== 0) return `${path} is owned by uid ${st.uid}, not by you or root`;
  const sticky = (st.mode & 0o1000) !== 0;
  const others = (st.mode & 0o002) !== 0 || ((st.mode & 0o020) !== 0 && st.gid !== me.gid);
  if (others && !sticky) return `${path} is writable by other users`;
  return null;
}

/** The folders to check: the folder and its parents, up to the home folder when it is inside it, else up to /. */
function chain(dir: string, home: string): string[] {
  const realHome = resolveExisting(home);
  const rel = relative(realHome, dir);
  const inside = rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  const out: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    out.push(at);
    if ((inside && at === realHome) || dirname(at) === at) return out;
  }
}

/** What a folder is for, in the refusal's words: its name, what a stranger could do there, what to do instead. */
export interface Purpose {
  folder: string;
  harm: string;
  todo: string;
}

const ARCHIVE: Purpose = { folder: "the archive folder", harm: "another user could replace what a summary points at", todo: WHAT_TO_DO };

/** The folder to write to (resolved), or a one-line problem naming the folder and what to do. */
export function archiveTrust(dir: string, me: Me, purpose: Purpose = ARCHIVE): Trust {
  const real = resolveExisting(dir);
  for (const path of chain(real, me.home)) {
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch {
      continue; // not made yet: it will be ours, 0700
    }
    const problem = folderProblem(path, st, me);
    if (problem !== null) {
      const via = real === resolve(dir) ? "" : ` (${dir} leads there)`;
      return { problem: `${purpose.folder} cannot be trusted: ${problem}${via}, so ${purpose.harm}; ${purpose.todo}` };
    }
  }
  return { dir: real };
}

/**
 * The bearer token that opens a proxy's `/_cliff/` content to the user who runs it: one per user,
 * in `$XDG_STATE_HOME/cliffcompaction/admin-token` (folder 0700, file 0600, made at the proxy's
 * first start), or the file `--admin-token-file` / `CLIFF_ADMIN_TOKEN_FILE` names (replicas of a
 * team share one that way). The proxy makes it; `watch` and `status` read it. Deleting it makes a
 * new one at the next start (rotation).
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** A token problem, in one line that names the file and what to do. */
export class AdminTokenError extends Error {}

/** Printable ASCII without spaces, long enough not to be guessed. */
const TOKEN = /^[\x21-\x7e]{16,512}$/;

/** The file the proxy and its clients use: the flag's, else the variable's, else the user's state folder. */
export function adminTokenFile(env: NodeJS.ProcessEnv = process.env, flag?: string, home: string = env.HOME || homedir()): string {
  if (flag !== undefined && flag !== "") return resolve(flag);
  if (env.CLIFF_ADMIN_TOKEN_FILE) return resolve(env.CLIFF_ADMIN_TOKEN_FILE);
  return join(defaultStateDir(env, home), "admin-token");
}

export const defaultStateDir = (env: NodeJS.ProcessEnv, home: string): string => join(env.XDG_STATE_HOME || join(home, ".local", "state"), "cliffcompaction");

/**
 * A named file (a team's, shared on purpose: it may be a mounted secret, a link, group-readable)
 * still has to be one nobody else could have written: owned by you or by root, not writable by
 * others. Otherwise another account could plant a token it knows and read the proxy's session text.
 */
function trustNamed(file: string, uid: number | undefined): void {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return; // missing: the read says so
  }
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) throw new AdminTokenError(`${file} belongs to uid ${st.uid}, neither you nor root: it cannot hold your admin token`);
  if ((st.mode & 0o002) !== 0) throw new AdminTokenError(`${file} is writable by every account: it cannot hold your admin token (chmod o-w it, or make a new one)`);
}

/** The token in `file`, or an error that says what is wrong with it; `named`: a file the user named (held to trustNamed). */
export function readAdminToken(file: string, o: { named?: boolean; uid?: number } = {}): string {
  if (o.named === true) trustNamed(file, "uid" in o ? o.uid : process.getuid?.());
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new AdminTokenError(`no admin token at ${file} (the proxy makes it at its first start; or pass --admin-token-file FILE)`);
    throw new AdminTokenError(`cannot read the admin token ${file} (${code ?? (e as Error).message})`);
  }
  const token = text.trim();
  if (!TOKEN.test(token)) throw new AdminTokenError(`${file} does not hold an admin token (16 to 512 printable characters, no spaces); delete it and the proxy makes a new one at its next start`);
  return token;
}

/** The token in `file`, or undefined when there is none to read (a client then asks without one). */
export function findAdminToken(file: string): string | undefined {
  return fs.existsSync(file) ? readAdminToken(file) : undefined;
}

/** The default folder: ours (made 0700, or held to 0700 when it is the user's own). */
function ownFolder(dir: string, uid: number | undefined): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new AdminTokenError(`${dir} is not a folder (a symlink is not followed); move it away and start again`);
  if (uid !== undefined && st.uid !== uid) throw new AdminTokenError(`${dir} belongs to uid ${st.uid}, not to you; it cannot hold your admin token`);
  if ((st.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** The default file, when it exists: a regular file of the user's, never a symlink. */
function ownFile(file: string, uid: number | undefined): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return;
  }
  if (!st.isFile()) throw new AdminTokenError(`${file} is not a regular file (a symlink is not followed); delete it and the proxy makes a new one`);
  if (uid !== undefined && st.uid !== uid) throw new AdminTokenError(`${file} belongs to uid ${st.uid}, not to you; delete it and the proxy makes a new one`);
}

/**
 * The proxy's token: read from `file`, or made there (0600) when there is none. It is written to a
 * temporary file first and linked into place, which fails when the file exists: two replicas
 * starting at once read the same token, and nobody reads a half-written one. `own` says the file
 * is the default one, whose folder is held to 0700.
 */
export function ensureAdminToken(file: string, own: boolean, uid: number | undefined = process.getuid?.()): { token: string; created: boolean } {
  if (own) {
    ownFolder(dirname(file), uid);
    ownFile(file, uid);
  } else fs.mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const named = { named: !own, uid };
  if (fs.existsSync(file)) return { token: readAdminToken(file, named), created: false };
  const token = randomBytes(32).toString("base64url");
  const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    try {
      fs.writeSync(fd, token + "\n");
    } finally {
      fs.closeSync(fd);
    }
    fs.linkSync(temp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return { token: readAdminToken(file, named), created: false };
    throw new AdminTokenError(`cannot make the admin token ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return { token, created: true };
}

/**
 * The archive on disk, shared by the Node hosts (the Pi/OMP extension, the proxy, the CLI): the
 * writer behind the core's `archive` function. A text is stored once, as `<dir>/ab/ab12….txt`
 * named by the SHA-256 of its UTF-8 (no part of a path comes from the message), written to a
 * temporary file and renamed into place, folders 0700 and files 0600, the folder bounded by
 * `maxBytes` with the least recently archived file out first (archiving a text again refreshes
 * it). Nothing is followed through a symlink inside the folder; the folder itself must be one
 * another user cannot write to (archive-trust.ts: a symlinked folder is resolved once, here). Any
 * failure gives null (the summary keeps its usual line) and is logged once; the writer never throws.
 *
 * It is synchronous because the core's parts are made synchronously; a file is written once per
 * distinct text, and a text archived again costs a stat and a time stamp.
 */
import * as fs from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { archiveName, type ArchiveFn } from "../core/archive.js";
import { archiveTrust, currentUser } from "./archive-trust.js";

/** The file operations the writer uses (a test replaces some to simulate a full disk or a read-only folder). */
export type ArchiveIo = Pick<typeof fs, "mkdirSync" | "lstatSync" | "openSync" | "writeSync" | "closeSync" | "renameSync" | "unlinkSync" | "utimesSync" | "readdirSync" | "chmodSync">;

export interface ArchiveWriterOptions {
  /** The archive folder (made if missing). */
  dir: string;
  /** Bound on the bytes of all files in the folder; 0 archives nothing. */
  maxBytes: number;
  /** Told of the first failure, in one line. */
  log?: (line: string) => void;
  io?: Partial<ArchiveIo>;
}

export interface ArchiveWriter {
  archive: ArchiveFn;
  /** The folder, as an absolute path. */
  dir: string;
  stats(): { files: number; bytes: number; written: number; refreshed: number; failures: number };
}

const NAME = /^[0-9a-f]{64}\.txt$/;
const SHARD = /^[0-9a-f]{2}$/;

/** The default folder of the proxy and the CLI: under the user's cache folder. */
export function defaultArchiveDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "cliffcompaction", "archive");
}

class Failure extends Error {}

/** The folder and what the writer knows of it: its files, least recently archived first, with their sizes. */
class Folder {
  private index: Map<string, number> | null = null;
  bytes = 0;
  readonly counts = { written: 0, refreshed: 0, failures: 0 };

  constructor(readonly dir: string, private readonly maxBytes: number, private readonly io: ArchiveIo) {}

  get files(): number {
    return this.index?.size ?? 0;
  }

  /** A folder of ours: made 0700 when missing; refused when it is a symlink or not a folder. */
  private folder(path: string, recursive: boolean): void {
    let st: fs.Stats | undefined;
    try {
      st = this.io.lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (st === undefined) {
      this.io.mkdirSync(path, { recursive, mode: 0o700 });
      this.io.chmodSync(path, 0o700);
    } else if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new Failure(`${path} is not a folder (a symlink is never followed)`);
    }
  }

  /** The folder's files, oldest first, read once (the bound counts what earlier runs left). */
  private load(): Map<string, number> {
    const io = this.io;
    this.folder(this.dir, true);
    const found: { path: string; size: number; at: number }[] = [];
    for (const shard of io.readdirSync(this.dir)) {
      const sub = join(this.dir, shard);
      if (!SHARD.test(shard) || !io.lstatSync(sub).isDirectory()) continue;
      for (const name of io.readdirSync(sub)) {
        if (!NAME.test(name)) continue;
        const st = io.lstatSync(join(sub, name));
        if (st.isFile()) found.push({ path: join(sub, name), size: st.size, at: st.mtimeMs });
      }
    }
    found.sort((a, b) => a.at - b.at);
    const out = new Map<string, number>();
    for (const f of found) out.set(f.path, f.size);
    this.bytes = found.reduce((s, f) => s + f.size, 0);
    return out;
  }

  private forget(files: Map<string, number>, path: string): void {
    const size = files.get(path);
    if (size === undefined) return;
    files.delete(path);
    this.bytes -= size;
  }

  private remember(files: Map<string, number>, path: string, size: number): void {
    this.forget(files, path);
    files.set(path, size);
    this.bytes += size;
  }

  /** Oldest out until `size` more bytes fit. */
  private makeRoom(files: Map<string, number>, size: number): void {
    for (const [path] of files) {
      if (this.bytes + size <= this.maxBytes) break;
      try {
        this.io.unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      }
      this.forget(files, path);
    }
  }

  /** The text in place under `path`: a temporary file of ours (never an existing one), then a rename. */
  private writeAtomically(path: string, data: Buffer): void {
    const io = this.io;
    const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    const fd = io.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
    try {
      for (let at = 0; at < data.length; ) at += io.writeSync(fd, data, at, data.length - at);
    } catch (e) {
      io.closeSync(fd);
      io.unlinkSync(temp);
      throw e;
    }
    io.closeSync(fd);
    try {
      io.renameSync(temp, path);
    } catch (e) {
      io.unlinkSync(temp);
      throw e;
    }
  }

  /** Where `text` is kept: written once, refreshed when archived again. Throws on any failure. */
  store(text: string): string {
    if (!(this.maxBytes > 0)) throw new Failure("archiveMaxBytes is 0");
    const files = (this.index ??= this.load());
    const data = Buffer.from(text, "utf8");
    const [shard, name] = archiveName(createHash("sha256").update(data).digest("hex"));
    const path = join(this.dir, shard, name);
    // The shard folder first: a file is never looked up (or stamped) through a symlinked folder.
    this.folder(join(this.dir, shard), false);
    let st: fs.Stats | undefined;
    try {
      st = this.io.lstatSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
    if (st !== undefined && st.isFile() && st.size === data.length) {
      const now = new Date();
      this.io.utimesSync(path, now, now);
      this.remember(files, path, data.length);
      this.counts.refreshed++;
      return path;
    }
    if (data.length > this.maxBytes) throw new Failure(`a text of ${data.length} bytes is over archiveMaxBytes (${this.maxBytes})`);
    this.forget(files, path);
    this.makeRoom(files, data.length);
    // Whatever stood there (a symlink, a damaged file) is replaced, never written through.
    this.writeAtomically(path, data);
    this.remember(files, path, data.length);
    this.counts.written++;
    return path;
  }
}

export function archiveWriter(options: ArchiveWriterOptions): ArchiveWriter {
  const trust = archiveTrust(options.dir, currentUser(process.env.HOME || homedir()));
  const folder = new Folder("dir" in trust ? trust.dir : resolve(options.dir), options.maxBytes, { ...fs, ...options.io } as ArchiveIo);
  let told = false;
  const tell = (why: string, line = `cliffcompaction: archive: cannot keep a dropped text in ${folder.dir} (${why}); summaries keep their usual lines where this happens`): void => {
    if (told) return;
    told = true;
    options.log?.(line);
  };
  // A folder another user could write to is said at once (a host starting says it before any request), and never written to.
  if ("problem" in trust) tell(trust.problem, `cliffcompaction: archive off: ${trust.problem}`);
  const archive: ArchiveFn = (text) => {
    try {
      if ("problem" in trust) throw new Failure(trust.problem);
      return folder.store(text);
    } catch (e) {
      folder.counts.failures++;
      tell(e instanceof Failure ? e.message : `${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return null;
    }
  };
  return { archive, dir: folder.dir, stats: () => ({ files: folder.files, bytes: folder.bytes, ...folder.counts }) };
}

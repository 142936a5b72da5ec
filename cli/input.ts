/**
 * The CLI's files: sessions and configs read with a size limit (a device or a pipe may never end),
 * standard input as `-`, and output paths checked before any work is done.
 */
import { accessSync, closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InputError } from "./readers/index.js";

/** Largest session the CLI reads: a JavaScript string cannot hold much more. */
export const MAX_SESSION_BYTES = 512 * 1024 * 1024;
/** Largest config file. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Reads a file (or standard input for "-") as UTF-8, refusing anything over `limit` bytes without reading past it. */
export function readLimited(path: string, limit: number, what = "file"): string {
  const name = path === "-" ? "standard input" : path;
  let fd: number;
  try {
    fd = path === "-" ? 0 : openSync(path, "r");
  } catch (e) {
    throw new InputError(`${name}: cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new InputError(`${name}: is a directory, not a ${what}`);
    if (stat.isFile() && stat.size > limit) throw new InputError(`${name}: ${stat.size} bytes is over the ${limit}-byte limit for a ${what}`);
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EAGAIN") continue; // a non-blocking pipe with nothing yet
        if (code === "EOF") break;
        throw new InputError(`${name}: cannot read (${code ?? (e as Error).message})`);
      }
      if (n === 0) break;
      total += n;
      if (total > limit) throw new InputError(`${name}: more than the ${limit}-byte limit for a ${what} (an endless device or pipe?)`);
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks, total).toString("utf8");
  } finally {
    if (path !== "-") closeSync(fd);
  }
}

/**
 * Checks that `out` can be written and is none of `inputs` (a chart written over the session it
 * was drawn from would replace it). Throws an InputError naming the flag.
 */
export function checkOutput(flag: string, out: string, inputs: readonly string[]): void {
  const fail = (why: string): never => {
    throw new InputError(`--${flag} ${out}: ${why}`);
  };
  const target = resolve(out);
  if (existsSync(target)) {
    if (statSync(target).isDirectory()) fail("is a directory");
    const real = realpathSync(target);
    for (const input of inputs) {
      if (input !== "-" && existsSync(input) && realpathSync(input) === real) fail(`is the input file ${input}; choose another path`);
    }
    try {
      accessSync(target, constants.W_OK);
    } catch {
      fail("cannot be written (permission denied)");
    }
    return;
  }
  const dir = dirname(target);
  if (!existsSync(dir)) fail(`its folder ${dir} does not exist`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    fail(`its folder ${dir} cannot be written (permission denied)`);
  }
}

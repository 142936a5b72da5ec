/**
 * The retention bench's sessions: every file of the corpus (../shared/corpus, or $CLIFF_CORPUS)
 * read through the CLI's own readers, each in its family (the file name up to its first `_` or
 * `-`) and in one of two fixed halves: per family, in name order, the first, third, … session
 * tunes the rules and the second, fourth, … checks them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DialectName } from "../core/index.js";
import { readSession } from "../cli/readers/index.js";

export type Half = "tuning" | "checking";

export interface Source {
  name: string;
  group: "corpus" | "generated";
  dialect: DialectName;
  messages: unknown[];
  /** Corpus sessions only: the file's family and half. */
  family?: string;
  half?: Half;
}

/** The file names the CLI's readers accept (session .jsonl, JSON bodies and exports, .traj/.traj.json trajectories). */
export const SESSION_FILE = /\.(jsonl|json|traj)$/i;

export function corpusDir(): string {
  return process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
}

/** A corpus file's family: its name up to the first `_` or `-`. */
export function familyOf(file: string): string {
  return /^[^_-]*/.exec(file)![0];
}

/** The half of each file: per family, alternate files in name order, the first tuning. */
export function halves(files: readonly string[]): Map<string, Half> {
  const seen = new Map<string, number>();
  const out = new Map<string, Half>();
  for (const f of files.slice().sort()) {
    const n = seen.get(familyOf(f)) ?? 0;
    seen.set(familyOf(f), n + 1);
    out.set(f, n % 2 === 0 ? "tuning" : "checking");
  }
  return out;
}

/** The corpus's session files, in name order ([] when the folder is absent). */
export function corpusFiles(dir = corpusDir()): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => SESSION_FILE.test(f)).sort() : [];
}

/**
 * Every session file of the corpus, read as the CLI reads it (a file it cannot read throws, naming
 * it); `only` keeps one half.
 */
export function corpusSources(dir = corpusDir(), only?: Half): Source[] {
  const files = corpusFiles(dir);
  const half = halves(files);
  const out: Source[] = [];
  for (const name of files) {
    if (only !== undefined && half.get(name) !== only) continue;
    const s = readSession(readFileSync(join(dir, name), "utf8"), name);
    out.push({ name, group: "corpus", dialect: s.dialect, messages: s.messages, family: familyOf(name), half: half.get(name) });
  }
  return out;
}

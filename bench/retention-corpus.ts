/**
 * The retention bench's sessions: every file of the corpus (../shared/corpus, or $CLIFF_CORPUS)
 * read through the CLI's own readers, each in its family (the file name up to its first `_` or
 * `-`), its source group and one of two fixed sides. A source group is the repository a session
 * came from, as the corpus's README names it, with the groups that README merges (one task
 * harness's repositories, the SWE-agent organisation's); a file the README does not list is a
 * group of its own. Whole groups go to a side, never single sessions of one: largest first, each
 * to the side that holds fewer sessions of its families so far (then fewer sessions, then
 * checking), so each family is tuned on some repositories and checked on others where it has
 * several.
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
  /** Corpus sessions only: the file's family, source group and side. */
  family?: string;
  source?: string;
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

/** The owners whose build-a-product task repositories the corpus's README counts as one task harness. */
const HARNESS_OWNERS = new Set(["Strawhat404", "addis-ale", "epha-b1", "Eyob-smax", "BeteabAdmassu", "Hale17OT", "switch247", "whiteowly"]);

/** The source group of a repository (`owner/name`), as the corpus's README merges them. */
export function groupOfRepository(repo: string): string {
  const owner = repo.split("/")[0];
  if (HARNESS_OWNERS.has(owner)) return "task harness";
  if (owner === "SWE-agent") return "SWE-agent";
  return repo;
}

/**
 * Each listed file's source group, read from the README's tables: a row names the file in its
 * first cell and the repository (`owner/name @ commit : path` or `owner/name : path`) in a later one.
 */
export function sourceGroups(readme: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readme.split("\n")) {
    const file = /^\| `([^`]+)` \|/.exec(line);
    if (file === null) continue;
    for (const cell of line.split("|").slice(2)) {
      const repo = /^\s*([\w.-]+\/[\w.-]+) (?:@ [0-9a-f]+ )?: /.exec(cell);
      if (repo !== null) {
        out.set(file[1], groupOfRepository(repo[1]));
        break;
      }
    }
  }
  return out;
}

/** The side of each file: whole groups, largest first (then by name), to the side with fewer sessions of its families. */
export function halves(files: readonly string[], groups: ReadonlyMap<string, string> = new Map()): Map<string, Half> {
  const members = new Map<string, string[]>();
  for (const f of files) {
    const g = groups.get(f) ?? f;
    (members.get(g) ?? members.set(g, []).get(g)!).push(f);
  }
  const order = [...members.keys()].sort((a, b) => members.get(b)!.length - members.get(a)!.length || (a < b ? -1 : a > b ? 1 : 0));
  const count = { tuning: new Map<string, number>(), checking: new Map<string, number>() };
  const total = { tuning: 0, checking: 0 };
  const out = new Map<string, Half>();
  for (const g of order) {
    const fs = members.get(g)!;
    const held = (h: Half): number => fs.reduce((n, f) => n + (count[h].get(familyOf(f)) ?? 0), 0);
    const a = held("tuning");
    const b = held("checking");
    const side: Half = a < b || (a === b && total.tuning < total.checking) ? "tuning" : "checking";
    for (const f of fs) {
      out.set(f, side);
      count[side].set(familyOf(f), (count[side].get(familyOf(f)) ?? 0) + 1);
    }
    total[side] += fs.length;
  }
  return out;
}

/** The corpus's session files, in name order ([] when the folder is absent). */
export function corpusFiles(dir = corpusDir()): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((f) => SESSION_FILE.test(f)).sort() : [];
}

/** The README's source groups of the corpus in `dir` (none when it has no README). */
export function corpusGroups(dir = corpusDir()): Map<string, string> {
  const readme = join(dir, "README.md");
  return existsSync(readme) ? sourceGroups(readFileSync(readme, "utf8")) : new Map();
}

/**
 * Every session file of the corpus, read as the CLI reads it (a file it cannot read throws, naming
 * it), but for a file whose format no reader recognises (a family whose reader has not landed):
 * it is left out and named in `skipped`. `only` keeps one side; the sides are drawn over the files
 * read.
 */
export function corpusSources(dir = corpusDir(), only?: Half, skipped: string[] = []): Source[] {
  const groups = corpusGroups(dir);
  const read: { name: string; s: ReturnType<typeof readSession> }[] = [];
  for (const name of corpusFiles(dir)) {
    try {
      read.push({ name, s: readSession(readFileSync(join(dir, name), "utf8"), name) });
    } catch (e) {
      if (!/unrecognised/.test((e as Error).message)) throw e;
      skipped.push(name);
    }
  }
  const half = halves(read.map((r) => r.name), groups);
  const out: Source[] = [];
  for (const { name, s } of read) {
    if (only !== undefined && half.get(name) !== only) continue;
    out.push({ name, group: "corpus", dialect: s.dialect, messages: s.messages, family: familyOf(name), source: groups.get(name) ?? name, half: half.get(name) });
  }
  return out;
}

/**
 * Listings (a recall rule, listingMaxChars): a result that is mostly paths (`find`, `ls -1`, `git
 * status`, `rg -l`) or `path:line:` hits (`rg -n`, `grep -rn`) keeps its distinct paths, then its
 * `path:line` anchors, each once, in the order they first appear, up to a cap. Every kept line is a
 * piece of one input line (the path, or the path and its line number), never rephrased. Whether a
 * text is a listing is read from its first lines only, and the paths from its first SCAN_MAX
 * characters, so the time stays linear in the text and bounded.
 */
import { toWellFormed } from "../text.js";

export const LISTING_TAG = "result (paths): ";
/** Lines read to tell whether a text is a listing, and the share of them that must be paths or hits. */
const SAMPLE_LINES = 200;
const MIN_SHARE = 0.6;
const MIN_LINES = 4;
/** Longer lines are not read (no listing line is that long): each match costs at most a constant. */
const LINE_MAX = 400;
const SCAN_MAX = 1_000_000;

// A path: a token with a slash, or a file name with an extension (`src/a.ts`, `./x/`, `README.md`).
const PATH = String.raw`(?:\.{0,2}/)?(?:[\w@+.-]+/)+[\w@+.-]*|[\w@+-][\w@+-]*(?:\.[\w@+-]+)*\.[A-Za-z][A-Za-z0-9]{0,9}`;
// `path:12:` or `path-12-` (a hit and its context line in rg and grep), `path:text` (grep without -n).
const HIT = new RegExp(String.raw`^(${PATH}):(\d+)(?::\d+)?[:-]|^(${PATH})-(\d+)-`);
const GREP = new RegExp(String.raw`^(${PATH}):\S`);
// A path alone, or after a status (git status, its short form, svn/hg letters).
const ALONE = new RegExp(String.raw`^\s*(?:(?:[MADRCU?!]{1,2}|modified:|new file:|deleted:|renamed:|both modified:)\s+)?(${PATH})/?\s*$`);

interface Entry {
  path: string;
  anchor: string | null;
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);
// A path's characters ([\w@+./-]), by code.
const isPathChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 64 && c <= 90) || (c >= 45 && c <= 57) || c === 95 || c === 43;
// The first characters of ALONE's statuses (`M`, `??`, `modified:`, `new file:`, `both modified:`…).
const STATUS_START = /* @__PURE__ */ new Set("MADRCU?!mndrb".split("").map((c) => c.charCodeAt(0)));

/**
 * Whether one of the patterns can match `line`, told by character codes alone: every pattern opens
 * the line with a path (a run of path characters holding a slash or a dot), which HIT and GREP
 * follow with `:` (or, inside the run, `-`) and ALONE with nothing but spaces, unless a status opens
 * the line. Prose, version lists and minified code are settled here, never by the patterns, whose
 * backtracking costs most in the sandbox's engine. Any other character than ASCII leaves it to them.
 */
function mayBeEntry(line: string): boolean {
  const n = line.length;
  let s = 0;
  while (s < n && isSpace(line.charCodeAt(s))) s++;
  let e = s;
  let slashOrDot = false;
  let dash = false;
  for (; e < n; e++) {
    const c = line.charCodeAt(e);
    if (c > 127) return true;
    if (!isPathChar(c)) break;
    if (c === 47 || c === 46) slashOrDot = true;
    else if (c === 45) dash = true;
  }
  if (s === 0 && slashOrDot && (dash || line.charCodeAt(e) === 58)) return true;
  let r = e;
  while (r < n && isSpace(line.charCodeAt(r))) r++;
  if (r < n && line.charCodeAt(r) > 127) return true;
  return (r === n && slashOrDot) || (s < n && STATUS_START.has(line.charCodeAt(s)));
}

/** A line's path and anchor, or null when the line is no listing line. */
function entryOf(line: string): Entry | null {
  if (!mayBeEntry(line)) return null;
  const hit = HIT.exec(line);
  if (hit !== null) return hit[1] !== undefined ? { path: hit[1], anchor: `${hit[1]}:${hit[2]}` } : { path: hit[3], anchor: null };
  const alone = ALONE.exec(line);
  if (alone !== null) return { path: alone[1], anchor: null };
  const grep = GREP.exec(line);
  return grep === null ? null : { path: grep[1], anchor: null };
}

/** Each line of `text` (up to SCAN_MAX characters) to `each`, until it returns false; lines over LINE_MAX as null. */
function eachLine(text: string, each: (line: string | null) => boolean): void {
  const stop = Math.min(text.length, SCAN_MAX);
  for (let start = 0; start < stop; ) {
    let end = text.indexOf("\n", start);
    if (end < 0 || end > stop) end = stop;
    const line = end - start > LINE_MAX ? null : text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    if (!each(line)) return;
  }
}

/** Whether `text` is mostly paths or hits, judged on its first SAMPLE_LINES non-empty lines. */
export function isListing(text: string): boolean {
  let lines = 0;
  let matched = 0;
  eachLine(text, (line) => {
    if (line !== null && (line.trim() === "" || line === "--")) return true;
    lines++;
    if (line !== null && entryOf(line) !== null) matched++;
    // Past this many misses no count of lines up to SAMPLE_LINES reaches the share.
    return lines < SAMPLE_LINES && lines - matched <= SAMPLE_LINES * (1 - MIN_SHARE);
  });
  return lines >= MIN_LINES && matched >= lines * MIN_SHARE;
}

/**
 * The listing part of a result: its distinct paths, then its distinct anchors, one a line, up to
 * `maxChars` (each line and its newline counted); null when the text is no listing.
 */
export function listingPart(text: string, maxChars: number): string | null {
  if (maxChars <= 0 || !isListing(text)) return null;
  const paths: string[] = [];
  const anchors: string[] = [];
  const seen = new Set<string>();
  let size = 0;
  eachLine(text, (line) => {
    const e = line === null ? null : entryOf(line);
    if (e === null) return true;
    if (!seen.has(e.path)) {
      seen.add(e.path);
      paths.push(e.path);
      size += e.path.length + 1;
    }
    if (e.anchor !== null && !seen.has(e.anchor)) {
      seen.add(e.anchor);
      anchors.push(e.anchor);
    }
    // Enough paths to fill the cap: the rest of the text cannot change what is kept.
    return size < maxChars;
  });
  const kept: string[] = [];
  let used = LISTING_TAG.length;
  for (const item of paths.concat(anchors)) {
    if (used + item.length + 1 > maxChars) break;
    kept.push(item);
    used += item.length + 1;
  }
  return kept.length === 0 ? null : toWellFormed(LISTING_TAG + kept.join("\n"));
}

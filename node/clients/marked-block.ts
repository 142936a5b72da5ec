/**
 * A marked block in someone else's file (a shell profile, Codex's config.toml): added once (again
 * means replaced in place), removed exactly, so that adding then removing gives back the file as
 * it was, byte for byte. The block's lines end as the file's do (CRLF in a CRLF file). A file that
 * did not end with a line break gets one before the block, and the block's first line says so:
 * removing the block takes the break away again only while the block is still last (a line added
 * after it later is never joined to the line before it), and passes the note on to a block of ours
 * that follows. Blocks written before the note existed (0.2.0) are removed as before, the caller
 * saying whether a break was added (`newline`).
 */

export const blockStart = (id: string): string => `# >>> ${id} >>>`;
export const blockEnd = (id: string): string => `# <<< ${id} <<<`;
/** Said on a block's first line when a line break was added before it. */
export const ADDED_BREAK = " (line break added above)";

export interface Added {
  text: string;
  /** A line break was added before the block (the file did not end with one). */
  newline: boolean;
}

const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const eolOf = (text: string): string => (/\r\n/.test(text) ? "\r\n" : "\n");

export interface Found {
  /** [start, end) character offsets: from the start marker to after the end marker's line end. */
  at: [number, number];
  /** The start marker says a line break was added before the block. */
  addedBreak: boolean;
}

/** Where the block is; null when absent. */
export function locateBlock(text: string, id: string): Found | null {
  const start = new RegExp(`(^|\\n)${literal(blockStart(id))}(${literal(ADDED_BREAK)})?\\r?\\n`).exec(text);
  if (start === null) return null;
  const from = start.index + start[1].length;
  const end = new RegExp(`\\n${literal(blockEnd(id))}(\\r?\\n|$)`, "g");
  end.lastIndex = from;
  const m = end.exec(text);
  if (m === null) return null;
  return { at: [from, m.index + m[0].length], addedBreak: start[2] !== undefined };
}

/** [start, end) of the block, or null. */
export function findBlock(text: string, id: string): [number, number] | null {
  return locateBlock(text, id)?.at ?? null;
}

const render = (id: string, lines: readonly string[], eol: string, addedBreak: boolean): string => [blockStart(id) + (addedBreak ? ADDED_BREAK : ""), ...lines, blockEnd(id)].join(eol) + eol;

/** The block at the end of the file (or at the start: a TOML file's top-level keys must precede its tables). */
export function addBlock(text: string, id: string, lines: readonly string[], at: "start" | "end" = "end"): Added {
  const eol = eolOf(text);
  const found = locateBlock(text, id);
  if (found !== null) return { text: text.slice(0, found.at[0]) + render(id, lines, eol, found.addedBreak) + text.slice(found.at[1]), newline: false };
  if (at === "start") return { text: render(id, lines, eol, false) + text, newline: false };
  const newline = text.length > 0 && !text.endsWith("\n");
  return { text: text + (newline ? eol : "") + render(id, lines, eol, newline), newline };
}

/** A block's start marker at `at`, not yet noting an added break: the offset where the note goes, else -1. */
function nextMarker(text: string, at: number): number {
  const m = /^# >>> [^\r\n]* >>>(\r?\n)/.exec(text.slice(at));
  return m === null || m[0].includes(ADDED_BREAK) ? -1 : at + m[0].length - m[1].length;
}

/** The file without the block. A line break added before it goes too when nothing follows the block. */
export function removeBlock(text: string, id: string, newline = false): string {
  const found = locateBlock(text, id);
  if (found === null) return text;
  const [from, to] = found.at;
  const added = found.addedBreak || newline;
  if (added && to === text.length && from > 0 && text[from - 1] === "\n") return text.slice(0, text[from - 2] === "\r" ? from - 2 : from - 1);
  const rest = text.slice(to);
  const next = added ? nextMarker(text, to) : -1;
  if (next < 0) return text.slice(0, from) + rest;
  // A block of ours follows: it is now the one the added break stands before.
  return text.slice(0, from) + text.slice(to, next) + ADDED_BREAK + text.slice(next);
}

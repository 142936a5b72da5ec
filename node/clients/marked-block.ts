/**
 * A marked block in someone else's file (a shell profile, Codex's config.toml): added once (again
 * means replaced in place), removed exactly, so that adding then removing gives back the file as
 * it was, byte for byte. A file that did not end with a newline gets one before the block; the
 * caller keeps that fact (`newline`) so that removing takes it away too.
 */

export const blockStart = (id: string): string => `# >>> ${id} >>>`;
export const blockEnd = (id: string): string => `# <<< ${id} <<<`;

export interface Added {
  text: string;
  /** A newline was added before the block (the file did not end with one). */
  newline: boolean;
}

/** Where the block is, as [start, end) character offsets including its last newline; null when absent. */
export function findBlock(text: string, id: string): [number, number] | null {
  const start = text.startsWith(blockStart(id) + "\n") ? 0 : text.indexOf("\n" + blockStart(id) + "\n");
  if (start < 0) return null;
  const from = start === 0 ? 0 : start + 1;
  const endMarker = "\n" + blockEnd(id);
  const end = text.indexOf(endMarker, from);
  if (end < 0) return null;
  const after = end + endMarker.length;
  if (after < text.length && text[after] !== "\n") return null;
  return [from, Math.min(text.length, after + 1)];
}

const render = (id: string, lines: readonly string[]): string => [blockStart(id), ...lines, blockEnd(id)].join("\n") + "\n";

/** The block at the end of the file (or at the start: a TOML file's top-level keys must precede its tables). */
export function addBlock(text: string, id: string, lines: readonly string[], at: "start" | "end" = "end"): Added {
  const block = render(id, lines);
  const found = findBlock(text, id);
  if (found !== null) return { text: text.slice(0, found[0]) + block + text.slice(found[1]), newline: false };
  if (at === "start") return { text: block + text, newline: false };
  const newline = text.length > 0 && !text.endsWith("\n");
  return { text: text + (newline ? "\n" : "") + block, newline };
}

/** The file without the block (and without the newline added before it, when `newline`). */
export function removeBlock(text: string, id: string, newline = false): string {
  const found = findBlock(text, id);
  if (found === null) return text;
  const from = newline && found[0] > 0 && text[found[0] - 1] === "\n" ? found[0] - 1 : found[0];
  return text.slice(0, from) + text.slice(found[1]);
}

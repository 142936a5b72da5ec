/**
 * A tool result the client replaced with a placeholder before it ever reached the request: Claude
 * Code saves an output over 30,000 characters to a file of its own (under its config folder) and
 * sends `<persisted-output>` with the path and a short preview. No request holds that output, so a
 * recall of the result's ref can give back only the placeholder; what brings the output back is the
 * client's own file-reading tool, which reads that file in Claude Code's default permission mode.
 * This names the file, for the recall's answer and the summary's ref line alike.
 */

/** The client's file behind a placeholder: its path, the output's size as written, or how much of the output it holds when not all. */
export interface ClientFile {
  readonly path: string;
  /** The whole output's size as the placeholder writes it ("59.5KB"), when it does. */
  readonly size: string | null;
  /** When the file holds only the start of the output: how much ("64MB"); null when it holds it all. */
  readonly first: string | null;
}

const OPENING = "<persisted-output>";
const CLOSING = "</persisted-output>";

// Claude Code's three forms of the line that names the file (2.1.x): an output over the threshold,
// one over its persist limit, and a result cleared after a context refusal.
const WHOLE = /^Output too large \(([^()\n]+)\)\. Full output saved to: (.+)$/;
const OVER_CAP = /^Output exceeded the [^\n]+ persist limit; only the first ([^\n]+?) were saved to: (.+)$/;
const CLEARED = /^Tool result saved to: (.+?)(?: \(truncated to the first ([^()\n]+) of the output\))?$/;

/**
 * The client's file a placeholder names, or null when `text` is not one: it opens with the tag, the
 * file's line stands before any preview, and the tag closes it. Linear in the text's length.
 */
export function clientFileOf(text: string): ClientFile | null {
  const start = text.search(/\S/);
  if (start < 0 || !text.startsWith(OPENING, start) || !endsWithClosing(text)) return null;
  let at = start + OPENING.length;
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    const line = text.slice(at, nl < 0 ? text.length : nl).trim();
    // The preview is the output's own text: a line there only quotes a placeholder.
    if (line.startsWith("Preview (") || line.startsWith(CLOSING)) return null;
    const file = fileOfLine(line.endsWith(CLOSING) ? line.slice(0, -CLOSING.length).trimEnd() : line);
    if (file !== null) return file;
    if (nl < 0) return null;
    at = nl + 1;
  }
  return null;
}

function endsWithClosing(text: string): boolean {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  return text.startsWith(CLOSING, end - CLOSING.length);
}

function fileOfLine(line: string): ClientFile | null {
  let m = WHOLE.exec(line);
  if (m !== null) return named(m[2], m[1], null);
  m = OVER_CAP.exec(line);
  if (m !== null) return named(m[2], null, m[1]);
  m = CLEARED.exec(line);
  return m === null ? null : named(m[1], null, m[2] ?? null);
}

function named(path: string, size: string | null, first: string | null): ClientFile | null {
  const p = path.trim();
  return p === "" ? null : { path: p, size, first };
}

/** "the client saved the whole output (59.5KB) to its own file <path>", or "the first 64MB of the output". */
export function clientFilePhrase(f: ClientFile): string {
  const what = f.first !== null ? `the first ${f.first} of the output` : f.size !== null ? `the whole output (${f.size})` : "the whole output";
  return `the client saved ${what} to its own file ${f.path}`;
}

/** The line a summary writes after a placeholder's ref line. */
export function clientFileLine(f: ClientFile): string {
  return `result: ${clientFilePhrase(f)}; read it there, in pages`;
}

/** The line a recall's answer opens with when the ref's text is a placeholder; the placeholder follows it. */
export function clientFileNote(ref: string, f: ClientFile): string {
  return (
    `[ref ${ref} is the client's placeholder for an output too long for its context, not the output: ${clientFilePhrase(f)}. ` +
    "Read that file with the client's file-reading tool (Claude Code: Read, in pages of offset and limit lines when it is long); the placeholder follows]"
  );
}

/**
 * A tool result the client replaced with a placeholder before it ever reached the request: Claude
 * Code saves an output over 30,000 characters to a file of its own (under its config folder) and
 * sends `<persisted-output>` with the path and a short preview; OpenCode saves an output over 2,000
 * lines or 51,200 bytes (under its data folder) and sends a part of it with a line naming the file;
 * Copilot CLI saves a large one to the system's temporary folder (for the session) and sends a
 * line naming the file and a 500-character preview.
 * No request holds that output, so a recall of the result's ref can give back only the placeholder;
 * what brings the output back is the client's own file-reading tool, which reads that file in the
 * client's default permissions. This names the file, for the recall's answer and the summary's ref
 * line alike.
 */

/** The client's file behind a placeholder: its path, the output's size as written, or how much of the output it holds when not all. */
export interface ClientFile {
  readonly path: string;
  /** The whole output's size as the placeholder writes it ("59.5KB"), when it does. */
  readonly size: string | null;
  /** When the file holds only the start of the output: how much ("64MB"); null when it holds it all. */
  readonly first: string | null;
  /** The client's tool that reads the file and how it pages, as the recall's note names them. */
  readonly reader: string;
}

const OPENING = "<persisted-output>";
const CLOSING = "</persisted-output>";

// Claude Code's three forms of the line that names the file (2.1.x): an output over the threshold,
// one over its persist limit, and a result cleared after a context refusal.
const WHOLE = /^Output too large \(([^()\n]+)\)\. Full output saved to: (.+)$/;
const OVER_CAP = /^Output exceeded the [^\n]+ persist limit; only the first ([^\n]+?) were saved to: (.+)$/;
const CLEARED = /^Tool result saved to: (.+?)(?: \(truncated to the first ([^()\n]+) of the output\))?$/;

// OpenCode's three (1.18.x): its shell tool puts the line before the output's last lines; its other
// tools put it after the first lines, with a hint to end the text; its v2 runner between the first and
// the last lines. The file holds the whole output.
const OPENCODE_SHELL = /^\.\.\.output truncated\.\.\.\n\nFull output saved to: ([^\n]+)\n\n/;
const OPENCODE_TOOL =
  /(?:^|\n\n)\.\.\.\d+ (?:lines|bytes) truncated\.\.\.\n\nThe tool call succeeded but the output was truncated\. Full output saved to: ([^\n]+)\n(?:Use Grep to search the full content or Read with offset\/limit to view specific sections\.|Use the Task tool to have explore agent process this file with Grep and Read \(with offset\/limit\)\. Do NOT read the full file yourself - delegate to save context\.)$/;
const OPENCODE_V2 = /(?:^|\n\n)\.\.\. output truncated; full content saved to ([^\n]+?) \.\.\.(?:\n\n|$)/;

// Copilot CLI's (1.0.x): the line opens the result, its advice follows, then the preview.
const COPILOT = /^Output too large to read at once \(([^()\n]+)\)\. Saved to: ([^\n]+)\nConsider using tools like /;

/**
 * The client's file a placeholder names, or null when `text` is not one. Claude Code's opens with the
 * tag, the file's line stands before any preview, and the tag closes it; OpenCode's and Copilot CLI's
 * line stands where the client puts it, apart from the output's own lines. Linear in the text's length.
 */
export function clientFileOf(text: string): ClientFile | null {
  const start = text.search(/\S/);
  if (start >= 0 && text.startsWith(OPENING, start)) return endsWithClosing(text) ? persistedOutputFile(text, start) : null;
  const copilot = COPILOT.exec(text);
  if (copilot !== null) return named(copilot[2], copilot[1], null, "Copilot CLI: view, in pages of view_range lines");
  const m = OPENCODE_SHELL.exec(text) ?? OPENCODE_TOOL.exec(text) ?? OPENCODE_V2.exec(text);
  return m === null ? null : named(m[1], null, null, "OpenCode: read, in pages of offset and limit lines");
}

function persistedOutputFile(text: string, start: number): ClientFile | null {
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
  if (m !== null) return named(m[2], m[1], null, CLAUDE_READ);
  m = OVER_CAP.exec(line);
  if (m !== null) return named(m[2], null, m[1], CLAUDE_READ);
  m = CLEARED.exec(line);
  return m === null ? null : named(m[1], null, m[2] ?? null, CLAUDE_READ);
}

const CLAUDE_READ = "Claude Code: Read, in pages of offset and limit lines";

function named(path: string, size: string | null, first: string | null, reader: string): ClientFile | null {
  const p = path.trim();
  return p === "" ? null : { path: p, size, first, reader };
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
    `Read that file with the client's file-reading tool (${f.reader} when it is long); the placeholder follows]`
  );
}

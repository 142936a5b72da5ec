/**
 * The part of TOML that `enable --codex` edits Codex's `config.toml` in, checked before any
 * change: every line outside our blocks is blank, a comment, a table header, or a key whose value
 * ends on its line. Inside that subset a line that looks like a header is a header and a key
 * before the first header is a top-level key, so our blocks can be placed without changing what
 * the rest means. Anything else (a multi-line string or array, a table of our provider's name, a
 * dotted key into it) is refused in one line and the file is left as it is.
 */

/** Our blocks in the file (their lines are ours, not the user's). */
const OURS_START = /^# >>> cliffcompaction\b/;
const OURS_END = /^# <<< cliffcompaction\b/;

const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;
const KEY = /^\s*((?:"(?:[^"\\]|\\.)*"|'[^']*'|[\w-]+)(?:\s*\.\s*(?:"(?:[^"\\]|\\.)*"|'[^']*'|[\w-]+))*)\s*=\s*(.*)$/;

/** The user's lines: those outside our blocks, with their numbers (1-based). */
function userLines(text: string): [number, string][] {
  const out: [number, string][] = [];
  let ours = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if (OURS_START.test(line)) ours = true;
    else if (ours && OURS_END.test(line)) ours = false;
    else if (!ours) out.push([i + 1, line]);
  });
  return out;
}

/** A value that ends on its line: its strings closed, its brackets balanced; a multi-line string never. */
function oneLine(value: string): boolean {
  if (/^("""|''')/.test(value.trim()) || /=\s*("""|''')/.test(value)) return false;
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "#") break;
    if (c === '"' || c === "'") {
      const close = c === '"' ? /^"(?:[^"\\]|\\.)*"/.exec(value.slice(i)) : /^'[^']*'/.exec(value.slice(i));
      if (close === null) return false;
      i += close[0].length - 1;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return depth === 0;
}

const unquote = (k: string): string => k.trim().replace(/^"((?:[^"\\]|\\.)*)"$|^'([^']*)'$/, (_, a: string | undefined, b: string | undefined) => a ?? b ?? "");
const dotted = (k: string): string[] => (k.match(/"(?:[^"\\]|\\.)*"|'[^']*'|[^.\s]+/g) ?? []).map(unquote);

/** Why `enable --codex` cannot edit this file safely (one line, naming the line), or null. */
export function codexTomlProblem(text: string, providers: readonly string[]): string | null {
  let table: string[] = [];
  for (const [n, line] of userLines(text)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const header = HEADER.exec(line);
    if (header !== null && !/^\s*\[\[?\s*[^\]]*\]\]?\s*=/.test(line)) {
      table = dotted(header[1]);
      if (table[0] === "model_providers" && table.length >= 2 && providers.includes(table[1])) return `line ${n} defines the provider "${table[1]}" that enable --codex writes`;
      continue;
    }
    const key = KEY.exec(line);
    if (key === null) return `line ${n} is not a line of TOML that enable --codex can read`;
    if (!oneLine(key[2])) return `line ${n} starts a value that goes on over several lines (a multi-line string or array)`;
    const path = [...table, ...dotted(key[1])];
    if (path[0] === "model_providers" && path.length >= 2 && providers.includes(path[1])) return `line ${n} sets the provider "${path[1]}" that enable --codex writes`;
  }
  return null;
}

/**
 * The working set's calls (core/parts/working-set.ts): which write a file whole, which read one
 * whole. Left out of a sandbox build whose config never turns the working set on, with it.
 */
import { isArray, str } from "../guards.js";
import { argsObject, EDITOR_TOOLS, fileOpsOfCall, PATCH_TOOLS, SHELL_TOOLS } from "../parts/call-kinds.js";

const WHOLE_WRITE_TOOLS = new Set("write write_file create_file".split(" "));
const PATH_KEYS = ["file_path", "path", "filePath", "filename"];

// A patch's whole new file; a heredoc written to a file (cat > f <<EOF, cat <<EOF > f, tee f <<EOF);
// a PowerShell here-string piped to Set-Content or Out-File (Codex on Windows writes files so).
const ADD_FILE = /^\*\*\* Add File: (.+)$/gm;
const CAT_TO = /\bcat\s+>\s*(['"]?)([^\s'"<>|;&]+)\1\s*<<-?\s*['"]?\w+/g;
const CAT_FROM = /\bcat\s+<<-?\s*['"]?\w+['"]?\s*>\s*(['"]?)([^\s'"<>|;&]+)\1/g;
const TEE = /\btee\s+(['"]?)([^\s'"<>|;&-][^\s'"<>|;&]*)\1\s*<<-?\s*['"]?\w+/g;
const HERE_STRING = /^['"]@\s*\|\s*(?:Set-Content|Out-File)\s+(?:-(?:Path|FilePath|LiteralPath)\s+)?(['"]?)([^\s'"|;]+)\1/gm;
// A whole file read by a shell command alone (cat, nl -ba, Get-Content).
const SHELL_READ = /^\s*(?:cd\s+\S+\s*&&\s*)?(?:cat|nl\s+-ba|Get-Content(?:\s+-Raw)?(?:\s+-Path)?)\s+(['"]?)([^\s'"|;&<>]+)\1\s*$/;

function matches(re: RegExp, text: string, group: number): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(re)) out.push(m[group].trim());
  return out;
}

function shellText(args: Record<string, unknown>): string {
  const c = args.command ?? args.cmd;
  // An argv list (["bash", "-lc", script], ["apply_patch", patch]) carries its text last.
  return isArray(c) ? str(c[c.length - 1]) : str(c);
}

/** The paths a call writes whole (a new file's full text), in every dialect the rule knows. */
export function wholeWritePaths(name: unknown, rawArgs: unknown): string[] {
  const tool = str(name).toLowerCase();
  const args = argsObject(rawArgs);
  if (WHOLE_WRITE_TOOLS.has(tool)) return PATH_KEYS.map((k) => args[k]).filter((p): p is string => typeof p === "string" && p !== "").slice(0, 1);
  if (EDITOR_TOOLS.has(tool)) return args.command === "create" && typeof args.path === "string" ? [args.path] : [];
  if (PATCH_TOOLS.has(tool)) return matches(ADD_FILE, [args.input, args.patch, shellText(args)].map((v) => str(v)).join("\n"), 1);
  if (!SHELL_TOOLS.has(tool)) return [];
  const text = shellText(args);
  if (text.indexOf("\n") < 0) return [];
  return [...matches(ADD_FILE, text, 1), ...matches(CAT_TO, text, 2), ...matches(CAT_FROM, text, 2), ...matches(TEE, text, 2), ...matches(HERE_STRING, text, 2)];
}

/** The path a call reads whole, if it is a read (a read tool, a viewer, a shell command that prints one file). */
export function readPath(name: unknown, rawArgs: unknown): string | null {
  const tool = str(name).toLowerCase();
  if (SHELL_TOOLS.has(tool)) {
    const m = SHELL_READ.exec(shellText(argsObject(rawArgs)));
    return m === null ? null : m[2];
  }
  const read = fileOpsOfCall(name, rawArgs).read;
  return read.length === 1 ? read[0] : null;
}

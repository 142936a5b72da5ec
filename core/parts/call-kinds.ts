/**
 * Tool calls by kind: which files a call reads and modifies, which calls are the agent's own
 * edits and writes (and the new text they carry), and which are plans (todo lists, plan updates).
 * Names are compared case-insensitively; arguments are read as given (a JSON string is decoded).
 */
import { arr, isArray, jsonParse, obj, str } from "../guards.js";

const words = (list: string): Set<string> => new Set(list.split(" "));
// Gemini CLI's edit tool; the AgentParley sandbox build (flat messages, its bundle within 45 KiB) leaves it out.
declare const __CLIFF_SANDBOX__: boolean | undefined;
const EDIT_TOOLS = words("edit write multiedit notebookedit write_file edit_file create_file str_replace_editor str_replace_based_edit_tool apply_patch apply_patch_call" + (typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? "" : " replace"));
export const SHELL_TOOLS = words("shell shell_command exec exec_command local_shell local_shell_call container.exec bash execute_bash run_command run_shell_command terminal");
/** Where each tool family keeps the text it writes, in the order they are looked for. */
const NEW_TEXT_KEYS = ["new_string", "newText", "new_str", "new_text", "content", "file_text", "new_source", "input", "patch", "patchText", "diff"];

const PLAN_TOOLS = words("todowrite todo_write write_todos todo todos update_plan task_tracker manage_todo_list todo_list");

// The argument strings decoded last, with their objects: one call's arguments are read by several
// rules (its line, the edit and plan rules, the working set, the repeat key) and again when its
// result is read, so a string is decoded once while it is among the last few. Compared with ===:
// the same string object is a pointer comparison, and a bounded number of comparisons per call.
const RECENT = 16;
const recentText: string[] = [];
const recentArgs: Record<string, unknown>[] = [];
let recentNext = 0;

/** Arguments as an object: a JSON string is decoded; any other string is kept under `input` (a patch). */
export function argsObject(args: unknown): Record<string, unknown> {
  if (typeof args !== "string") return obj(args);
  for (let k = 0; k < recentText.length; k++) if (recentText[k] === args) return recentArgs[k];
  const decoded = decodeArgs(args);
  recentText[recentNext] = args;
  recentArgs[recentNext] = decoded;
  recentNext = (recentNext + 1) % RECENT;
  return decoded;
}

function decodeArgs(args: string): Record<string, unknown> {
  const t = args.trimStart();
  if (t.startsWith("{")) {
    try {
      return obj(jsonParse(t));
    } catch {
      return { input: args };
    }
  }
  return { input: args };
}

/** The new text an edit or write call carries, with the path it names (null when the call is not one). */
export interface EditText {
  path: string | null;
  texts: string[];
}

/** The first non-empty string under one of `keys`. */
function firstString(o: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) if (typeof o[k] === "string" && o[k] !== "") return o[k] as string;
  return undefined;
}

function textsOf(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const own = firstString(args, NEW_TEXT_KEYS);
  if (own !== undefined) out.push(own);
  // MultiEdit / Pi's edits list: each edit's new text, in order.
  for (const e of arr(args.edits)) {
    const t = firstString(obj(e), NEW_TEXT_KEYS);
    if (t !== undefined) out.push(t);
  }
  return out;
}

/**
 * What a shell call writes: the patch of `apply_patch <patch>` (Codex writes its patches this way),
 * or a command of several lines (a heredoc, a script: how a shell-only agent edits files).
 */
function shellWrite(args: Record<string, unknown>): string | null {
  const command = args.command ?? args.cmd;
  if (isArray(command) && command[0] === "apply_patch" && typeof command[1] === "string") return command[1];
  if (isArray(command) && typeof command[command.length - 1] === "string") return multiline(command[command.length - 1] as string);
  return typeof command === "string" ? multiline(command) : null;
}

const multiline = (text: string): string | null => (text.indexOf("\n") >= 0 ? text : null);

/** The new text of an edit or write call, or null when the call is not one (a view, a shell command, a read). */
export function editTextOf(name: unknown, rawArgs: unknown): EditText | null {
  const tool = typeof name === "string" ? name.toLowerCase() : "";
  const shell = SHELL_TOOLS.has(tool);
  if (!EDIT_TOOLS.has(tool) && !shell) return null;
  const args = argsObject(rawArgs);
  if (shell) {
    const written = shellWrite(args);
    return written === null ? null : { path: null, texts: [written] };
  }
  if (args.command === "view") return null;
  const op = obj(args.operation);
  const texts = typeof op.diff === "string" && op.diff !== "" ? [op.diff] : textsOf(args);
  if (texts.length === 0) return null;
  const path = firstString(args, FILE_PATH_KEYS) ?? firstString(op, FILE_PATH_KEYS) ?? null;
  return { path, texts };
}

/** Whether a call states a plan: a todo list or plan update (a task tracker's `view` only reads one). */
export function isPlanCall(name: unknown, rawArgs: unknown): boolean {
  const tool = typeof name === "string" ? name.toLowerCase() : "";
  if (!PLAN_TOOLS.has(tool)) return false;
  const args = argsObject(rawArgs);
  return args.command !== "view" && args.action !== "list" && args.action !== "view";
}

// Which files a call read and modified (the file lists read these; so does the keepFiles pin).
const READ_TOOLS = words("read read_file view view_file notebookread open_file");
const WRITE_TOOLS = words("write edit multiedit notebookedit write_file edit_file create_file str_replace_based_edit_tool" + (typeof __CLIFF_SANDBOX__ !== "undefined" && __CLIFF_SANDBOX__ ? "" : " replace"));
export const PATCH_TOOLS = words("apply_patch apply_patch_call");
export const EDITOR_TOOLS = words("str_replace_editor str_replace_based_edit_tool");
const FILE_PATH_KEYS = ["path", "file_path", "filePath", "filename", "notebook_path"];
const PATCH_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm;

function pathsIn(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of FILE_PATH_KEYS) if (typeof args[k] === "string" && args[k] !== "") out.push(args[k] as string);
  for (const p of arr(args.paths)) if (typeof p === "string" && p !== "") out.push(p);
  return out;
}

function patchPaths(args: Record<string, unknown>): string[] {
  const op = obj(args.operation ?? args);
  if (typeof op.type === "string" && /_file$/.test(op.type) && typeof op.path === "string" && op.path !== "") return [op.path];
  // OpenCode's apply_patch carries its patch as `patchText`.
  const text = [args.input, args.patch, args.patchText, args.diff, args.command].map((v) => (Array.isArray(v) ? v.join("\n") : str(v))).join("\n");
  const out: string[] = [];
  for (const m of text.matchAll(PATCH_LINE)) out.push(m[1].trim());
  return out.filter((p) => p !== "");
}

/** What one tool call did to files: the paths it read and the paths it modified. */
export function fileOpsOfCall(name: unknown, rawArgs: unknown): { read: string[]; modified: string[] } {
  const tool = str(name).toLowerCase();
  const args = argsObject(rawArgs);
  if (PATCH_TOOLS.has(tool)) return { read: [], modified: patchPaths(args) };
  if (EDITOR_TOOLS.has(tool) && typeof args.command === "string") {
    const paths = pathsIn(args);
    return args.command === "view" ? { read: paths, modified: [] } : { read: [], modified: paths };
  }
  if (READ_TOOLS.has(tool)) return { read: pathsIn(args), modified: [] };
  if (WRITE_TOOLS.has(tool)) return { read: [], modified: pathsIn(args) };
  return { read: [], modified: [] };
}

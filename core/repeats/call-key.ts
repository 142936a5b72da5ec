/**
 * What makes two tool calls the same request: the same file read (by any read tool, a viewer, or a
 * shell command that prints one file, whole or a range of it), or else the same tool with the same
 * arguments, key order and runs of whitespace aside. One definition for the re-fetch count
 * (core/refetch.ts) and the asked-twice rule (core/repeats/asked-twice.ts), so what the count calls
 * a repeat is what the rule keeps.
 */
import { argsObject } from "../parts/call-kinds.js";
import { isArray, isObj, str } from "../guards.js";
import { readPath } from "../parts/working-set.js";

// A range of one file printed by a shell command alone: Codex reads files so (sed -n '1,200p' f).
const SED_RANGE = /^\s*(?:cd\s+\S+\s*&&\s*)?sed\s+-n\s+(['"]?)[\d,$]+p\1\s+(['"]?)([^\s'"|;&<>]+)\2\s*$/;
const SHELL_TOOLS = /* @__PURE__ */ new Set("shell shell_command exec exec_command local_shell local_shell_call container.exec bash execute_bash run_command run_shell_command terminal".split(" "));

function shellText(args: Record<string, unknown>): string {
  const c = args.command ?? args.cmd;
  return isArray(c) ? str(c[c.length - 1]) : str(c);
}

/** The one file a call reads (whole or a range), or null when it reads none or several. */
export function readOf(name: unknown, args: unknown): string | null {
  const path = readPath(name, args);
  if (path !== null) return path;
  if (!SHELL_TOOLS.has(str(name).toLowerCase())) return null;
  const m = SED_RANGE.exec(shellText(argsObject(args)));
  return m === null ? null : m[3];
}

// A string the normal form changes: whitespace other than one space between words (most arguments have none).
const SPACED = /[^\S ]|  |^ | $/;

/** A value with its object keys sorted and each string's runs of whitespace made one space, trimmed. */
function normal(v: unknown, depth = 0): unknown {
  if (typeof v === "string") return SPACED.test(v) ? v.replace(/\s+/g, " ").trim() : v;
  if (depth > 32) return null;
  if (isArray(v)) return v.map((x) => normal(x, depth + 1));
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) out[k] = normal(v[k], depth + 1);
  return out;
}

/** Read keys open with this, so a path never equals another tool's arguments. */
export const READ_KEY = "read\u0000";

/** The key two calls share exactly when one repeats the other ("" for a call with no name). */
export function callKey(name: unknown, args: unknown): string {
  return keyOf(name, typeof args === "string" ? argsObject(args) : args);
}

function keyOf(name: unknown, args: unknown): string {
  const tool = str(name).toLowerCase();
  if (tool === "") return "";
  const path = readOf(name, args);
  if (path !== null) return READ_KEY + path.replace(/^\.\//, "");
  return "call\u0000" + tool + "\u0000" + JSON.stringify(normal(argsObject(args)));
}

/** The path of a read key, or null for another call's key. */
export function readKeyPath(key: string): string | null {
  return key.startsWith(READ_KEY) ? key.slice(READ_KEY.length) : null;
}

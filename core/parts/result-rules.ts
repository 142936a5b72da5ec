/**
 * What the recall rules read of a long tool result: whether it is pinned (by its tool's name or
 * the file it read), and whether it failed, with the exit code where the input states one, and
 * then its last lines, where the error and the stack trace are. Failure is read from what the
 * dialect extracted (an error flag, an exit-code field) or from the exit-code line an agent's tool
 * writes into its output; nothing is guessed from the wording.
 */
import type { CallBook } from "./call-book.js";
import { fileOpsOfCall } from "./call-kinds.js";
import type { Config } from "../config/index.js";
import { globMatches } from "./glob.js";
import { ELLIPSIS } from "../text.js";

/** What a dialect knows of a tool result besides its text. */
export interface ResultMeta {
  /** The result is flagged as an error (Anthropic `is_error`, Pi `isError`). */
  error?: boolean;
  /** The exit code the message states in a field of its own (Pi `bashExecution`, a shell call's outcome). */
  exitCode?: number;
  /** The id of the call it answers, to find the call's name and arguments. */
  callId?: unknown;
  /** The name of the tool that made it, when the message says (Pi `toolName`). */
  tool?: unknown;
}

/** Whether the call a result answers is pinned: by its tool's name, or by the path of a file it read. */
export function pinned(cfg: Config, book: CallBook | undefined, meta: ResultMeta | undefined): boolean {
  if (cfg.pinMaxChars <= 0 || (cfg.keepResultsOf.length === 0 && cfg.keepFiles.length === 0)) return false;
  const call = book?.callOf(meta?.callId);
  if (globMatches(meta?.tool ?? call?.name, cfg.keepResultsOf, false)) return true;
  if (call === undefined || cfg.keepFiles.length === 0) return false;
  for (const p of fileOpsOfCall(call.name, call.args).read) if (globMatches(p, cfg.keepFiles, true)) return true;
  return false;
}

/** Tag of a failed result's tail, with the exit code where the input states one. */
export function errorTailTag(exit: number | undefined): string {
  return `result (error tail${exit === undefined ? "" : ", exit " + exit}): `;
}

// Exit-code lines agents' tools write into a result: at its start (mini-swe-agent's <returncode>,
// Codex's "Exit code:" and unified exec's "Process exited with code") or at its end (Pi's bash,
// OpenHands' two forms).
const LEADING_EXIT = /^(?:<returncode>(-?\d{1,4})<\/returncode>|(?:Exit code: |Process exited with code )(-?\d{1,4})\n)/;
const TRAILING_EXIT = /(?:Command exited with code (\d{1,4})|\[Command finished with exit code (-?\d{1,4})\]|\[The command completed with exit code (-?\d{1,4})\.\])$/;
// Codex's JSON output ends with its metadata: {"output":"…","metadata":{"exit_code":1,…}}.
const JSON_EXIT = /"metadata":\{"exit_code":(-?\d{1,4})[,}]/;
/** How far into a result's end the exit-code lines are looked for. */
const EXIT_WINDOW = 200;

const code = (m: RegExpExecArray | null): number | undefined => {
  if (m !== null) for (let i = 1; i < m.length; i++) if (m[i] !== undefined) return Number(m[i]);
  return undefined;
};

/** The exit code a result's own text states, if any. */
export function statedExitCode(text: string): number | undefined {
  const tail = text.slice(-EXIT_WINDOW);
  return code(LEADING_EXIT.exec(text)) ?? code((text.startsWith('{"output":') ? JSON_EXIT : TRAILING_EXIT).exec(tail));
}

/** The exit code of a failed result (`null` when it did not fail; `undefined` code when none is stated). */
export function failure(text: string, meta: ResultMeta | undefined): { exit: number | undefined } | null {
  const exit = meta?.exitCode ?? statedExitCode(text);
  if (meta?.error === true || (exit !== undefined && exit !== 0)) return { exit };
  return null;
}

/**
 * The last whole lines of `text` within `cap` units; when even the last line is longer, its last
 * `cap` units after an ellipsis (a contiguous piece, never half of a surrogate pair).
 */
export function lastLines(text: string, cap: number): string {
  if (text.length <= cap) return text;
  let start = text.length;
  for (let nl = text.lastIndexOf("\n"); nl >= 0 && text.length - (nl + 1) <= cap; nl = nl === 0 ? -1 : text.lastIndexOf("\n", nl - 1)) start = nl + 1;
  if (start < text.length) return text.slice(start);
  let cut = text.length - cap;
  const c = text.charCodeAt(cut);
  if (c >= 0xdc00 && c <= 0xdfff) cut++;
  return ELLIPSIS + text.slice(cut);
}

/** What every session reader shares: the session shape, the formats, one-line errors, JSON lines. */
import { isObj, type DialectName, type FileLists } from "../../core/index.js";

export const FORMATS = ["pi", "claude-code", "codex", "openhands", "anthropic", "openai-chat", "openai-responses", "traj", "agentparley", "opencode", "gemini-cli", "gemini"] as const;
export type Format = (typeof FORMATS)[number];

export interface Session {
  format: Format;
  dialect: DialectName;
  messages: unknown[];
  /** The request body the messages came from (for whole-body estimates), when the file was one. */
  body?: Record<string, unknown>;
  focus?: string;
  /** Something the reader wants the user to know (a record picked, a compaction applied). */
  note?: string;
  /** Paths the session's own results show are folders: never listed as files read. */
  folders?: string[];
  /** What the reader skipped (a last line still being written), printed once on standard error. */
  warnings?: string[];
  /** The model the session ran on (its newest), when the format records it. */
  model?: string;
  /** When each message was written (ms since the epoch), when the format records it (simulate's cache expiry and idle gaps). */
  times?: WeakMap<object, number>;
}

/** File lists without the paths the session shows are folders. */
export function withoutFolders(lists: FileLists, session: Pick<Session, "folders">): FileLists {
  if (session.folders === undefined || session.folders.length === 0) return lists;
  const folders = new Set(session.folders);
  return { read: lists.read.filter((p) => !folders.has(p)), modified: lists.modified.filter((p) => !folders.has(p)) };
}

/** A timestamp field as ms since the epoch (ISO text, or a number in ms or s), or undefined. */
export function timeOf(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v > 0) return v < 1e12 ? v * 1000 : v;
  if (typeof v !== "string") return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
}

/** A problem with the input file; the CLI prints it on one line and exits with code 2. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

const ACCEPTED = `accepted formats: ${FORMATS.join(", ")} (Pi session .jsonl, Claude Code transcript .jsonl, Codex rollout .jsonl, OpenHands events, Anthropic / OpenAI Chat / OpenAI Responses request bodies, .traj/.traj.json trajectories, AgentParley {messages, focus}, OpenCode export .json, Gemini CLI session .jsonl or checkpoint .json, Gemini API request bodies)`;

/** Throws the one-line error: file, where in it, what is wrong, and what is accepted. */
export function fail(file: string, where: string, what: string): never {
  throw new InputError(`${file}${where ? ":" + where : ""}: ${what}; ${ACCEPTED}`);
}

/** An unknown --format name. */
export function unknownFormat(forced: string): never {
  throw new InputError(`unknown --format "${forced}"; ${ACCEPTED}`);
}

/** JSON lines: the objects, and the number of a last line skipped as still being written (0: none). */
export interface JsonLines {
  lines: Record<string, unknown>[];
  partialLine: number;
}

/**
 * One JSON object per non-blank line. The last line alone, with no newline after it, may be cut
 * short (an agent still writing the file as it is read): it is skipped and its number returned, so
 * a live session reads as far as it is written; a bad line anywhere else is an error.
 */
export function parseJsonLines(text: string, file: string): JsonLines {
  const out: Record<string, unknown>[] = [];
  const lines = text.split("\n");
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === "") last--;
  let partialLine = 0;
  for (let i = 0; i <= last; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      // Only a line with no newline after it can be one still being written.
      if (i === last && last === lines.length - 1 && out.length > 0) {
        partialLine = i + 1;
        break;
      }
      fail(file, `line ${i + 1}`, `not valid JSON (${(e as Error).message})`);
    }
    if (!isObj(v)) fail(file, `line ${i + 1}`, "each line must be a JSON object");
    out.push(v);
  }
  if (out.length === 0) fail(file, "", "the file is empty");
  return { lines: out, partialLine };
}

/** The warning for a skipped last line. */
export const partialLineWarning = (file: string, line: number): string =>
  `${file}: line ${line}, the last, is not complete JSON (still being written?): read the session up to line ${line - 1}`;

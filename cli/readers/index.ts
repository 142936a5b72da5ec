/**
 * Session readers: every file format the CLI accepts, detected from the content (or forced with
 * --format), turned into one dialect's message list. Errors name the file, the line or key, and
 * the formats. One file per format family; this one only detects and dispatches.
 */
import { isObj } from "../../core/index.js";
import { jsonErrorLine } from "../json-error.js";
import { looksLikeClaudeCode, readClaudeCode } from "./claude-code.js";
import { looksLikeCodex, readCodex } from "./codex.js";
import { fail, FORMATS, parseJsonLines, partialLineWarning, unknownFormat, type Format, type Session } from "./common.js";
import { readJson } from "./json.js";
import { looksLikeOpenHands, readOpenHands } from "./openhands.js";
import { looksLikeOpenCode, readOpenCode } from "./opencode.js";
import { looksLikeGeminiCliJson, looksLikeGeminiCliLines, readGeminiCliJson, readGeminiCliLines } from "./gemini-cli.js";
import { readPi } from "./pi.js";
import { recordedModel } from "./recorded-model.js";

export { FORMATS, InputError, withoutFolders, type Format, type Session } from "./common.js";

const LINE_FORMATS: readonly Format[] = ["pi", "claude-code", "codex"];
/** Formats read as JSON lines or as one document, whichever the file is. */
const EITHER: readonly Format[] = ["gemini-cli"];

function firstLineIsObject(text: string): boolean {
  const nl = text.indexOf("\n");
  try {
    return isObj(JSON.parse(nl < 0 ? text : text.slice(0, nl)));
  } catch {
    return false;
  }
}

/** JSON lines: a Pi session, a Claude Code transcript, a Codex rollout, or OpenHands evaluation records. */
function readLines(text: string, file: string, f: Format | undefined): Session {
  const { lines, partialLine } = parseJsonLines(text, file);
  const session = readLineSession(lines, file, f);
  return partialLine === 0 ? session : { ...session, warnings: [...(session.warnings ?? []), partialLineWarning(file, partialLine)] };
}

function readLineSession(lines: Record<string, unknown>[], file: string, f: Format | undefined): Session {
  if (f === "pi" || (f === undefined && lines[0].type === "session")) return readPi(lines, file);
  if (f === "codex" || (f === undefined && looksLikeCodex(lines))) return readCodex(lines, file);
  if (f === "claude-code" || (f === undefined && looksLikeClaudeCode(lines))) return readClaudeCode(lines, file);
  if (f === "gemini-cli" || (f === undefined && looksLikeGeminiCliLines(lines))) return readGeminiCliLines(lines, file);
  if (f === "openhands" || (f === undefined && looksLikeOpenHands(lines[0].history))) {
    if (!Array.isArray(lines[0].history)) fail(file, 'line 1, key "history"', "an OpenHands record needs a \"history\" list");
    const note = lines.length > 1 ? `record 1 of ${lines.length} (save one line to its own file to read another)` : undefined;
    const session = readOpenHands(lines[0].history, file, 'line 1, key "history"', note);
    const model = session.model ?? recordedModel(lines[0]);
    return model === undefined ? session : { ...session, model };
  }
  return fail(file, "line 1", 'unrecognised JSON-lines file: a Pi session starts with {"type":"session"}, a Claude Code transcript has {"type":"user"|"assistant","message":…} lines, a Codex rollout {"type":"response_item","payload":…} lines');
}

/** Reads a session from file text (`file` names it in errors; "-" is standard input). `forced` skips detection. */
export function readSession(text: string, file: string, forced?: string): Session {
  if (forced !== undefined && !(FORMATS as readonly string[]).includes(forced)) unknownFormat(forced);
  const f = forced as Format | undefined;
  const trimmed = text.trimStart();
  if (trimmed === "") fail(file, "", "the file is empty");
  const jsonLines = (f !== undefined && LINE_FORMATS.includes(f)) || (f === undefined && /\.jsonl$/i.test(file));
  if (!jsonLines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      if ((f !== undefined && !EITHER.includes(f)) || !firstLineIsObject(trimmed)) {
        const line = jsonErrorLine(text);
        fail(file, line ? `line ${line}` : "", `not valid JSON (${(e as Error).message.split("\n")[0]})`);
      }
    }
    if (f === "opencode" || (f === undefined && looksLikeOpenCode(value))) return readOpenCode(value, file);
    if (value !== undefined && (f === "gemini-cli" || (f === undefined && looksLikeGeminiCliJson(value)))) return readGeminiCliJson(value, file);
    if (value !== undefined) return readJson(value, file, f);
  }
  return readLines(text, file, f);
}

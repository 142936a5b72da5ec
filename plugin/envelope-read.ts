/**
 * Reading an envelope back: exactly (version, checksum, every stated length) or, for a damaged
 * one, its task section alone. Only stated lengths and exact literals move the cursor, so nothing
 * quoted inside a section can forge a boundary; whatever the renderer writes, this reads.
 */
import type { FileLists } from "../core/platform/index.js";
import { unescapeText } from "./escape.js";
import { CLOSE, MESSAGE_CLOSE, ROLE_MAX, openTagText, checksum, type Envelope, type EnvelopeMessage } from "./envelope.js";

/** The versions this parser reads: 1 (no escapes, no files section), 2 and 3 (CR escaped too). */
const VERSIONS = [1, 2, 3];

// The longest `<message role="…" chars="…">` tag the renderer writes: a role of ROLE_MAX units,
// each escaped by JSON.stringify (6 units) or by escapeText (5 units, then JSON-escaped), and a length.
const MESSAGE_TAG_MAX = 40 + ROLE_MAX * 6 + 20;

/** A cursor over the envelope text that only ever moves by stated lengths and exact literals. */
class Reader {
  constructor(readonly text: string, public at: number) {}

  literal(s: string): boolean {
    if (!this.text.startsWith(s, this.at)) return false;
    this.at += s.length;
    return true;
  }

  /** Reads `<name[ n="K"] chars="N">\n`, N units, `\n</name>\n`; returns the content and K. */
  section(name: string, counted: boolean): { content: string; count: number } | null {
    const m = new RegExp(`^<${name}${counted ? ' n="(\\d+)"' : ""} chars="(\\d+)">\\n`).exec(this.text.slice(this.at, this.at + 64));
    if (m === null) return null;
    this.at += m[0].length;
    const count = counted ? Number(m[1]) : 0;
    const chars = Number(counted ? m[2] : m[1]);
    if (this.at + chars > this.text.length) return null;
    const content = this.text.slice(this.at, this.at + chars);
    this.at += chars;
    if (!this.literal(`\n</${name}>\n`)) return null;
    return { content, count };
  }
}

/** Undoes the version's escapes (version 1 had none). */
const decode = (text: string, version: number): string | null => (version >= 2 ? unescapeText(text) : text);

function parseMessages(content: string, count: number, version: number): EnvelopeMessage[] | null {
  const r = new Reader(content, 0);
  const out: EnvelopeMessage[] = [];
  while (r.at < content.length) {
    const m = /^<message role=("(?:[^"\\\n]|\\.)*") chars="(\d+)">\n/.exec(content.slice(r.at, r.at + MESSAGE_TAG_MAX));
    if (m === null) return null;
    let role: unknown;
    try {
      role = JSON.parse(m[1]);
    } catch {
      return null;
    }
    r.at += m[0].length;
    const chars = Number(m[2]);
    if (typeof role !== "string" || r.at + chars > content.length) return null;
    const text = decode(content.slice(r.at, r.at + chars), version);
    const name = decode(role, version);
    r.at += chars;
    if (text === null || name === null || !r.literal(MESSAGE_CLOSE)) return null;
    out.push({ role: name, content: text });
  }
  return out.length === count ? out : null;
}

/** The read and modified lists of a files section (newest first), or null when it does not parse. */
export function parseFiles(content: string): FileLists | null {
  const lists: FileLists = { read: [], modified: [] };
  const blocks = /^(?:<read-files>\n([^]*?)\n<\/read-files>)?\n?(?:<modified-files>\n([^]*?)\n<\/modified-files>)?$/.exec(content);
  if (blocks === null) return null;
  const paths = (block: string | undefined): string[] | null => {
    if (block === undefined) return [];
    const out: string[] = [];
    for (const line of block.split("\n")) {
      const p = unescapeText(line);
      if (p === null || p === "") return null;
      out.push(p);
    }
    return out;
  };
  const read = paths(blocks[1]);
  const modified = paths(blocks[2]);
  if (read === null || modified === null) return null;
  lists.read = read;
  lists.modified = modified;
  return lists;
}

function openTag(text: string, at: number): { reader: Reader; check: string; version: number } | null {
  for (const version of VERSIONS) {
    const prefix = openTagText(version, "").slice(0, -3);
    if (!text.startsWith(prefix, at)) continue;
    const check = text.slice(at + prefix.length, at + prefix.length + 8);
    const reader = new Reader(text, at + prefix.length + 8);
    return /^[0-9a-f]{8}$/.test(check) && reader.literal('">\n') ? { reader, check, version } : null;
  }
  return null;
}

/** An optional section: undefined when absent, null when present and damaged. */
function optional(r: Reader, name: string): string | null | undefined {
  if (!r.text.startsWith(`<${name} `, r.at)) return undefined;
  const s = r.section(name, false);
  return s === null ? null : s.content;
}

/**
 * The envelope that starts at `at` in `text`, and where it ends, or null unless it parses exactly
 * (version, checksum, every length). Whatever follows the end is not read.
 */
export function parseEnvelopeAt(text: string, at: number): { env: Envelope; end: number } | null {
  const open = openTag(text, at);
  if (open === null) return null;
  const { reader: r, version } = open;
  const bodyStart = r.at;
  const task = r.section("task", true);
  const digest = task && r.section("digest", false);
  const recent = digest && r.section("recent", true);
  if (!task || !digest || !recent) return null;
  const files = version >= 2 ? optional(r, "files") : undefined;
  const focus = optional(r, "focus");
  if (files === null || focus === null || !r.literal(CLOSE)) return null;
  if (checksum(text.slice(bodyStart, r.at), version) !== open.check) return null;
  const taskMessages = parseMessages(task.content, task.count, version);
  const recentMessages = parseMessages(recent.content, recent.count, version);
  const digestText = decode(digest.content, version);
  const focusText = focus === undefined ? null : decode(focus, version);
  if (taskMessages === null || recentMessages === null || digestText === null || (focus !== undefined && focusText === null)) return null;
  const env: Envelope = { task: taskMessages, digest: digestText, recent: recentMessages, focus: focusText };
  // A damaged files section is dropped, never a reason to lose the envelope.
  const lists = files === undefined ? null : parseFiles(files);
  if (lists !== null) env.files = lists;
  return { env, end: r.at };
}

/** The envelope that is the whole of `text`, or null unless it parses exactly (version, checksum, every length). */
export function parseEnvelope(text: unknown): Envelope | null {
  if (typeof text !== "string") return null;
  const found = parseEnvelopeAt(text, 0);
  return found !== null && found.end === text.length ? found.env : null;
}

/**
 * Tolerant read of a damaged envelope starting at `at`: the task section alone, when it still
 * parses by its own lengths right after the opening tag (a later section may be cut or edited).
 * Null otherwise.
 */
export function recoverTask(text: unknown, at = 0): EnvelopeMessage[] | null {
  if (typeof text !== "string") return null;
  const open = openTag(text, at);
  if (open === null) return null;
  const task = open.reader.section("task", true);
  return task === null ? null : parseMessages(task.content, task.count, open.version);
}

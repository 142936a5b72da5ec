/**
 * The AgentParley summary string ("envelope"). The platform keeps only our summary and its live
 * request, so what CliffCompaction keeps verbatim (the task, the recent turns) travels inside the
 * summary in a form the next compaction reads back exactly.
 *
 * Every section and every message states the exact number of UTF-16 units that follow, and the
 * parser trusts only those counts, so nothing inside an excerpt can forge a boundary. A checksum
 * over the body tells a damaged envelope from an intact one.
 *
 *   <header>
 *
 *   <cliff-summary v="1" check="9f3a01bc">
 *   <task n="1" chars="57">
 *   <message role="user" chars="30">
 *   Fix the failing test in repo X.
 *   </message>
 *   </task>
 *   <digest chars="…">…</digest>
 *   <recent n="…" chars="…">…</recent>
 *   <focus chars="…">…</focus>        (only when a focus was given)
 *   </cliff-summary>
 */
import { SUMMARY_HEADER } from "../core/index";

export const ENVELOPE_VERSION = 1;

export interface EnvelopeMessage {
  role: string;
  content: string;
}

export interface Envelope {
  task: EnvelopeMessage[];
  digest: string;
  recent: EnvelopeMessage[];
  focus: string | null;
}

/** FNV-1a over UTF-16 units, as 8 hex digits: cheap damage detection, not a security boundary. */
export function checksum(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ("0000000" + h.toString(16)).slice(-8);
}

const messageOpen = (role: string, chars: number): string => `<message role=${JSON.stringify(role)} chars="${chars}">\n`;
const MESSAGE_CLOSE = "\n</message>\n";
const sectionOpen = (name: string, chars: number, count?: number): string =>
  `<${name}${count === undefined ? "" : ` n="${count}"`} chars="${chars}">\n`;
const sectionClose = (name: string): string => `\n</${name}>\n`;
const OPEN = "<cliff-summary v=";
const CLOSE = "</cliff-summary>";
const openTagText = (check: string): string => `${SUMMARY_HEADER}\n\n${OPEN}"${ENVELOPE_VERSION}" check="${check}">\n`;

function messageBlock(m: EnvelopeMessage): string {
  return messageOpen(m.role, m.content.length) + m.content + MESSAGE_CLOSE;
}

function section(name: string, content: string, count?: number): string {
  return sectionOpen(name, content.length, count) + content + sectionClose(name);
}

/** The summary string for an envelope. */
export function renderEnvelope(env: Envelope): string {
  let body = section("task", env.task.map(messageBlock).join(""), env.task.length);
  body += section("digest", env.digest);
  body += section("recent", env.recent.map(messageBlock).join(""), env.recent.length);
  if (env.focus !== null) body += section("focus", env.focus);
  body += CLOSE;
  return openTagText(checksum(body)) + body;
}

function messagesLength(messages: readonly EnvelopeMessage[]): number {
  let n = 0;
  for (const m of messages) n += messageOpen(m.role, m.content.length).length + m.content.length + MESSAGE_CLOSE.length;
  return n;
}

function sectionLength(name: string, chars: number, count?: number): number {
  return sectionOpen(name, chars, count).length + chars + sectionClose(name).length;
}

/** What renderEnvelope needs to know to size an envelope, with the digest given by its length. */
export interface EnvelopeSize {
  task: readonly EnvelopeMessage[];
  digestChars: number;
  recent: readonly EnvelopeMessage[];
  focus: string | null;
}

/** `renderEnvelope(env).length`, counted without rendering or checksumming anything. */
export function envelopeLength(env: EnvelopeSize): number {
  let n = openTagText("00000000").length + CLOSE.length;
  n += sectionLength("task", messagesLength(env.task), env.task.length);
  n += sectionLength("digest", env.digestChars);
  n += sectionLength("recent", messagesLength(env.recent), env.recent.length);
  if (env.focus !== null) n += sectionLength("focus", env.focus.length);
  return n;
}

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

function parseMessages(content: string, count: number): EnvelopeMessage[] | null {
  const r = new Reader(content, 0);
  const out: EnvelopeMessage[] = [];
  while (r.at < content.length) {
    const m = /^<message role=("(?:[^"\\\n]|\\.)*") chars="(\d+)">\n/.exec(content.slice(r.at, r.at + 4096));
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
    const text = content.slice(r.at, r.at + chars);
    r.at += chars;
    if (!r.literal("\n</message>\n")) return null;
    out.push({ role, content: text });
  }
  return out.length === count ? out : null;
}

function openTag(text: string): { reader: Reader; check: string } | null {
  const prefix = openTagText("").slice(0, -3);
  if (!text.startsWith(prefix)) return null;
  const check = text.slice(prefix.length, prefix.length + 8);
  const reader = new Reader(text, prefix.length + 8);
  return /^[0-9a-f]{8}$/.test(check) && reader.literal('">\n') ? { reader, check } : null;
}

/** The envelope in `text`, or null unless it parses exactly (version, checksum, every length). */
export function parseEnvelope(text: unknown): Envelope | null {
  if (typeof text !== "string") return null;
  const open = openTag(text);
  if (open === null) return null;
  const r = open.reader;
  if (checksum(text.slice(r.at)) !== open.check) return null;
  const task = r.section("task", true);
  const digest = task && r.section("digest", false);
  const recent = digest && r.section("recent", true);
  if (!task || !digest || !recent) return null;
  let focus: string | null = null;
  if (text.startsWith("<focus ", r.at)) {
    const f = r.section("focus", false);
    if (f === null) return null;
    focus = f.content;
  }
  if (!r.literal(CLOSE) || r.at !== text.length) return null;
  const taskMessages = parseMessages(task.content, task.count);
  const recentMessages = parseMessages(recent.content, recent.count);
  if (taskMessages === null || recentMessages === null) return null;
  return { task: taskMessages, digest: digest.content, recent: recentMessages, focus };
}

/**
 * Tolerant read of a damaged envelope: the task section alone, when it still parses by its own
 * lengths right after the opening tag (a later section may be cut or edited). Null otherwise.
 */
export function recoverTask(text: unknown): EnvelopeMessage[] | null {
  if (typeof text !== "string") return null;
  const open = openTag(text);
  if (open === null) return null;
  const task = open.reader.section("task", true);
  return task === null ? null : parseMessages(task.content, task.count);
}

/**
 * The AgentParley summary string ("envelope"). The platform keeps only our summary and its live
 * request, so what CliffCompaction keeps verbatim (the task, the recent turns) and the file lists
 * it carries forward travel inside the summary, in a form the next compaction reads back exactly.
 *
 * Every section and every message states the exact number of UTF-16 units that follow, and the
 * parser trusts only those counts, so nothing inside an excerpt can forge a boundary. A checksum
 * over the body tells a damaged envelope from an intact one. Characters that cannot cross a host
 * boundary are escaped (escape.ts); stated lengths count the escaped text.
 *
 *   <header>
 *
 *   <cliff-summary v="3" check="9f3a01bc">
 *   <task n="1" chars="57">
 *   <message role="user" chars="30">
 *   Fix the failing test in repo X.
 *   </message>
 *   </task>
 *   <digest chars="…">…</digest>
 *   <recent n="…" chars="…">…</recent>
 *   <files chars="…">                  (only when files were touched)
 *   <read-files>
 *   src/a.ts
 *   </read-files>
 *   <modified-files>
 *   src/b.ts
 *   </modified-files>
 *   </files>
 *   <focus chars="…">…</focus>         (only when a focus was given)
 *   </cliff-summary>
 *
 * Version 3 also escapes CR, so the envelope holds no CR of its own and a line-end conversion on
 * the way can be undone exactly. Versions 1 (no files section, no escapes) and 2 (no CR escape)
 * are still read.
 */
// The plugin imports core modules, not the index, so its bundle carries only the dialect it uses.
import type { FileLists } from "../core/platform/index.js";
import { SUMMARY_HEADER } from "../core/platform/index.js";
import { escapedLength, escapePath, escapeText } from "./escape.js";

export const ENVELOPE_VERSION = 3;

/** Role names are cut to this many UTF-16 units before they are written. */
export const ROLE_MAX = 64;

export interface EnvelopeMessage {
  role: string;
  content: string;
}

export interface Envelope {
  task: EnvelopeMessage[];
  digest: string;
  recent: EnvelopeMessage[];
  /** Files read and modified, each list newest first; absent or empty lists write no section. */
  files?: FileLists;
  focus: string | null;
}

/**
 * The body's checksum, as 8 hex digits: cheap damage detection, not a security boundary. Version 2
 * takes FNV-1a's step over two UTF-16 units at a time (a loop step is what costs in QuickJS);
 * version 1 envelopes were checked one unit at a time.
 */
export function checksum(text: string, version: number = ENVELOPE_VERSION): string {
  const imul = Math.imul; // read once: a global lookup per step is slow inside a vm context
  let h = 0x811c9dc5;
  if (version >= 2) {
    const n = text.length;
    let i = 0;
    for (; i + 1 < n; i += 2) h = imul(h ^ (text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16)), 0x01000193);
    if (i < n) h = imul(h ^ text.charCodeAt(i), 0x01000193);
  } else {
    for (let i = 0; i < text.length; i++) h = imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return ("0000000" + (h >>> 0).toString(16)).slice(-8);
}

/** What an absurd role becomes before it is written: at most ROLE_MAX units, never half a pair. */
export function envelopeRole(role: string): string {
  if (role.length <= ROLE_MAX) return role;
  const c = role.charCodeAt(ROLE_MAX - 1);
  return role.slice(0, c >= 0xd800 && c <= 0xdbff ? ROLE_MAX - 1 : ROLE_MAX);
}

export const messageOpen = (role: string, chars: number): string => `<message role=${JSON.stringify(escapeText(envelopeRole(role)))} chars="${chars}">\n`;
export const MESSAGE_CLOSE = "\n</message>\n";
export const sectionOpen = (name: string, chars: number, count?: number): string =>
  `<${name}${count === undefined ? "" : ` n="${count}"`} chars="${chars}">\n`;
export const sectionClose = (name: string): string => `\n</${name}>\n`;
export const OPEN = "<cliff-summary v=";
export const CLOSE = "</cliff-summary>";
export const openTagText = (version: number, check: string): string => `${SUMMARY_HEADER}\n\n${OPEN}"${version}" check="${check}">\n`;

function messageBlock(m: EnvelopeMessage): string {
  const content = escapeText(m.content);
  return messageOpen(m.role, content.length) + content + MESSAGE_CLOSE;
}

function section(name: string, content: string, count?: number): string {
  return sectionOpen(name, content.length, count) + content + sectionClose(name);
}

/** The files section's content: Pi's tagged lists, one escaped path a line, newest first. */
export function filesContent(files: FileLists | undefined): string {
  if (files === undefined) return "";
  const lists: string[] = [];
  if (files.read.length > 0) lists.push(`<read-files>\n${files.read.map(escapePath).join("\n")}\n</read-files>`);
  if (files.modified.length > 0) lists.push(`<modified-files>\n${files.modified.map(escapePath).join("\n")}\n</modified-files>`);
  return lists.join("\n");
}

/** The summary string for an envelope. */
export function renderEnvelope(env: Envelope): string {
  let body = section("task", env.task.map(messageBlock).join(""), env.task.length);
  body += section("digest", escapeText(env.digest));
  body += section("recent", env.recent.map(messageBlock).join(""), env.recent.length);
  const files = filesContent(env.files);
  if (files !== "") body += section("files", files);
  if (env.focus !== null) body += section("focus", escapeText(env.focus));
  body += CLOSE;
  return openTagText(ENVELOPE_VERSION, checksum(body)) + body;
}

/** What renderEnvelope needs to know to size an envelope, each section given by its escaped length. */
export interface EnvelopeSize {
  /** Rendered length of the task's and the recent section's message blocks. */
  taskChars: number;
  taskCount: number;
  recentChars: number;
  recentCount: number;
  digestChars: number;
  /** Length of filesContent(…), 0 for no section. */
  filesChars: number;
  focusChars: number | null;
}

/** Rendered length of one message block whose content escapes to `chars` units. */
export const blockLength = (role: string, chars: number): number => messageOpen(role, chars).length + chars + MESSAGE_CLOSE.length;

/** Rendered length of messages' blocks. */
export function messagesLength(messages: readonly EnvelopeMessage[]): number {
  let n = 0;
  for (const m of messages) {
    n += blockLength(m.role, escapedLength(m.content));
  }
  return n;
}

function sectionLength(name: string, chars: number, count?: number): number {
  return sectionOpen(name, chars, count).length + chars + sectionClose(name).length;
}

/** `renderEnvelope(env).length`, counted without rendering or checksumming anything. */
export function envelopeLength(s: EnvelopeSize): number {
  let n = openTagText(ENVELOPE_VERSION, "00000000").length + CLOSE.length;
  n += sectionLength("task", s.taskChars, s.taskCount) + sectionLength("digest", s.digestChars) + sectionLength("recent", s.recentChars, s.recentCount);
  if (s.filesChars > 0) n += sectionLength("files", s.filesChars);
  if (s.focusChars !== null) n += sectionLength("focus", s.focusChars);
  return n;
}

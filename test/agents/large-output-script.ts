/**
 * A scripted Anthropic model on 127.0.0.1 for Claude Code's large outputs: its first shell call
 * prints 60,900 characters, which Claude Code keeps out of the request (a `<persisted-output>`
 * placeholder naming the file it saved the output to); then shell outputs under Claude Code's cap
 * until two different cliff summaries have reached it. Then it recalls the placeholder's ref (the
 * one text it holds that opens with the tag), reads the client's file the answer names with Claude
 * Code's Read in pages of `offset` and `limit` lines, puts the pages together and compares them with
 * the output it printed, byte for byte. It records every request and stops by itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicAnswer, RECALL, refOf, summaryOf, type ScriptReply } from "./recall-script.js";

/** The big output: 2,900 lines of 21 characters, over Claude Code's 30,000-character cap. */
export const BIG = { command: "seq -f '%020g' 100000 102899", text: Array.from({ length: 2900 }, (_, i) => `${String(100_000 + i).padStart(20, "0")}\n`).join("") };
/** Lines per Read page: about 25,000 characters with Read's line numbers, under its 25,000-token cap. */
export const PAGE_LINES = 1000;
const PLACEHOLDER = "<persisted-output>";
const DROPPED_REF = /result: dropped [\d,]+ chars, ref ([0-9a-f]{12})/g;
const NOTE_FILE = /^\[ref [0-9a-f]{12} is the client's placeholder [^\n]*? to its own file (.+?)\. Read that file/;

export interface LargeOutputRun {
  url: string;
  /** Every POST to the model API: path and body. */
  seen: { path: string; body: string }[];
  /** The distinct cliff summaries seen, in order. */
  summaries: string[];
  /** The placeholder's ref recalled, the summaries seen then, and the answer's text. */
  recall?: { ref: string; placeholder: string; afterCliffs: number; answer: string; isError: boolean; at: number };
  /** The file the answer named; whether the summary in force named it too. */
  file?: string;
  summaryNamedFile: boolean;
  /** Read's pages: each one's `offset`, its text; the output put together from them. */
  pages: { offset: number; text: string }[];
  got: string;
  /** The client's first request after the recall round (the history as the client holds it). */
  after?: string;
  close(): void;
}

interface Request {
  raw: string;
  body: any;
  /** The result of the model's last call, by the call's name. */
  last: { name: string; text: string; isError: boolean } | undefined;
  offersRecall: boolean;
}

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.filter((c: any) => typeof c?.text === "string").map((c: any) => c.text).join("\n") : JSON.stringify(content);

function read(raw: string): Request {
  const body = JSON.parse(raw);
  const msgs: any[] = body.messages ?? [];
  const names = new Map<string, string>();
  let lastCall: string | undefined;
  for (const m of msgs) for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === "tool_use") names.set(b.id, b.name), (lastCall = b.id);
  // Claude Code may put a message of its own after a result (Read's note on a long file): look back for it.
  let last: Request["last"];
  for (const m of msgs) for (const b of Array.isArray(m.content) ? m.content : []) {
    if (b.type === "tool_result" && b.tool_use_id === lastCall) last = { name: names.get(b.tool_use_id) ?? "?", text: textOf(b.content), isError: b.is_error === true };
  }
  return { raw, body, last, offersRecall: (body.tools ?? []).some((t: any) => t.name === RECALL) };
}

/** Read's numbered lines (`N<tab>text`) from line `from` on, in order; null when a line is out of place. */
function numbered(text: string, from: number): string[] | null {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(\d+)\t(.*)$/.exec(line);
    if (m === null) continue;
    if (Number(m[1]) !== from + out.length) return null;
    out.push(m[2]);
  }
  return out;
}

function decide(q: Request, s: LargeOutputRun, state: { calls: number; known: Map<string, string>; lines: string[] }): ScriptReply {
  const summary = summaryOf(q.raw);
  if (summary !== null && !s.summaries.includes(summary)) s.summaries.push(summary);
  for (const m of q.body.messages ?? []) for (const b of Array.isArray(m.content) ? m.content : []) {
    if (b.type === "tool_result") state.known.set(refOf(textOf(b.content)), textOf(b.content));
  }
  if (q.last?.name === RECALL && s.recall !== undefined) {
    s.recall.answer = q.last.text;
    s.recall.isError = q.last.isError;
    s.file = NOTE_FILE.exec(q.last.text)?.[1];
    s.summaryNamedFile = s.file !== undefined && s.summaries.some((x) => x.includes(`to its own file ${s.file}; read it there`));
    return s.file === undefined ? { text: "NO FILE NAMED" } : readPage(s, 1);
  }
  if (q.last?.name === "Read") {
    if (s.after === undefined) s.after = q.raw;
    const offset = s.pages[s.pages.length - 1].offset;
    s.pages[s.pages.length - 1].text = q.last.text;
    const lines = numbered(q.last.text, offset);
    if (lines === null || q.last.isError) return { text: `READ FAILED at line ${offset}: ${q.last.text.slice(0, 300)}` };
    state.lines.push(...lines);
    if (lines.length === PAGE_LINES) return readPage(s, offset + PAGE_LINES);
    // Read shows the empty line after a file's last newline: the lines joined are the file.
    s.got = state.lines.join("\n");
    return { text: s.got === BIG.text ? `ALL DONE: read the whole output back, ${s.got.length} chars, byte for byte` : `OUTPUT MISMATCH: ${s.got.length} chars` };
  }
  if (s.summaries.length >= 2 && q.offersRecall && summary !== null && s.recall === undefined) {
    const named = [...summary.matchAll(DROPPED_REF)].map((m) => m[1]).find((ref) => state.known.get(ref)?.startsWith(PLACEHOLDER));
    if (named !== undefined) {
      s.recall = { ref: named, placeholder: state.known.get(named)!, afterCliffs: s.summaries.length, answer: "", isError: false, at: s.seen.length };
      return { call: RECALL, input: { ref: named } };
    }
  }
  if (state.calls >= 14) return { text: "GAVE UP: no placeholder to recall" };
  const k = ++state.calls;
  return { call: "Bash", input: { command: k === 1 ? BIG.command : `seq -f '%020g' ${k * 100_000} ${k * 100_000 + 1299}`, description: "print numbers" } };
}

function readPage(s: LargeOutputRun, offset: number): ScriptReply {
  s.pages.push({ offset, text: "" });
  return { call: "Read", input: { file_path: s.file, offset, limit: PAGE_LINES } };
}

export async function largeOutputScript(lifetimeMs = 600_000): Promise<LargeOutputRun> {
  const out: LargeOutputRun = { url: "", seen: [], summaries: [], summaryNamedFile: false, pages: [], got: "", close: () => server.close() };
  const state = { calls: 0, known: new Map<string, string>(), lines: [] as string[] };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method !== "POST" || !path.endsWith("/messages")) {
        res.writeHead(path.endsWith("/count_tokens") ? 200 : 404, { "content-type": "application/json" });
        return void res.end(path.endsWith("/count_tokens") ? JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }) : '{"error":{"message":"not here"}}');
      }
      out.seen.push({ path, body: raw });
      const q = read(raw);
      // Claude Code's side requests (titles, checks) have no shell.
      const reply = (q.body.tools ?? []).some((t: any) => t.name === "Bash") ? decide(q, out, state) : { text: "ok" };
      res.writeHead(200, { "content-type": q.body.stream === true ? "text/event-stream" : "application/json" });
      res.end(anthropicAnswer(q.body, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  out.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return out;
}

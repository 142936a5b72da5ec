/**
 * A scripted Anthropic model on 127.0.0.1 for a client's large outputs: its first shell call prints
 * 60,900 characters (2,900 lines), which the client keeps out of the request: Claude Code sends a
 * `<persisted-output>` placeholder naming the file it saved the output to, OpenCode the last 2,000
 * lines after a line naming its file. Then shell outputs under the client's cap until two different
 * cliff summaries have reached it. Then it recalls the placeholder's ref, reads the client's file
 * the answer names with the client's own read tool in pages of `offset` and `limit` lines, puts the
 * pages together and compares them with the output it printed, byte for byte. It records every
 * request and stops by itself.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicAnswer, chatAnswer, RECALL, refOf, summaryOf, type ScriptReply } from "./recall-script.js";

/** The big output: 2,900 lines of 21 characters, over Claude Code's 30,000-character cap and OpenCode's 51,200 bytes. */
export const BIG = { command: "seq -f '%020g' 100000 102899", text: Array.from({ length: 2900 }, (_, i) => `${String(100_000 + i).padStart(20, "0")}\n`).join("") };
/** Lines per Read page: about 25,000 characters with Read's line numbers, under its 25,000-token cap. */
export const PAGE_LINES = 1000;
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

/** What the script needs to know of a client: its API, its tools' names and forms. */
export interface LargeOutputClient {
  readonly api: "anthropic" | "chat";
  readonly shell: string;
  readonly read: string;
  /** Lines of each later shell output: under the client's cap. */
  readonly laterLines: number;
  readonly pageLines: number;
  /** Whether a result's text is the client's placeholder for an output it saved to a file. */
  isPlaceholder(text: string): boolean;
  readInput(file: string, offset: number): Record<string, unknown>;
  /** A page's lines from line `from` on, in order (null when one is out of place), and whether the file ends there. */
  page(text: string, from: number): { lines: string[]; end: boolean } | null;
  /** The output from the lines read, the recalled text and the last page (where a read tool does not show a last newline). */
  whole(lines: string[], recalled: string, lastPage: string): string;
}

/** A read tool's numbered lines (`form`: the number, the text) from line `from` on, in order; null when a line is out of place. */
function numbered(text: string, from: number, form: RegExp): string[] | null {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = form.exec(line);
    if (m === null) continue;
    if (Number(m[1]) !== from + out.length) return null;
    out.push(m[2]);
  }
  return out;
}

/** Claude Code 2.1.x: Bash, and Read's lines as `N<tab>text`, the empty line after a file's last newline shown. */
export const CLAUDE_CODE: LargeOutputClient = {
  api: "anthropic",
  shell: "Bash",
  read: "Read",
  laterLines: 1300,
  pageLines: PAGE_LINES,
  isPlaceholder: (t) => t.startsWith("<persisted-output>"),
  readInput: (file, offset) => ({ file_path: file, offset, limit: PAGE_LINES }),
  page(text, from) {
    const lines = numbered(text, from, /^\s*(\d+)\t(.*)$/);
    return lines === null ? null : { lines, end: lines.length < PAGE_LINES };
  },
  whole: (lines) => lines.join("\n"),
};

/** OpenCode 1.18.x: bash, and read's lines as `N: text` inside `<content>`, the last page saying `(End of file …)`. */
export const OPENCODE: LargeOutputClient = {
  api: "anthropic",
  shell: "bash",
  read: "read",
  laterLines: 1300,
  pageLines: PAGE_LINES,
  isPlaceholder: (t) => t.startsWith("...output truncated...\n\nFull output saved to: "),
  readInput: (file, offset) => ({ filePath: file, offset, limit: PAGE_LINES }),
  page(text, from) {
    const lines = numbered(text, from, /^(\d+): (.*)$/);
    return lines === null ? null : { lines, end: text.includes("\n(End of file - total ") };
  },
  whole: (lines, recalled) => lines.join("\n") + (recalled.endsWith("\n") ? "\n" : ""),
};

/** Lines of a Copilot CLI `view` page: 16,800 characters, under the size it would save to a file again. */
export const COPILOT_PAGE_LINES = 800;

/** Copilot CLI 1.0.x (Chat Completions with a key of one's own): bash, and view's `view_range`, the lines as they are. */
export const COPILOT: LargeOutputClient = {
  api: "chat",
  shell: "bash",
  read: "view",
  laterLines: 900,
  pageLines: COPILOT_PAGE_LINES,
  isPlaceholder: (t) => t.startsWith("Output too large to read at once ("),
  readInput: (file, offset) => ({ path: file, view_range: [offset, offset + COPILOT_PAGE_LINES - 1] }),
  page(text) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return { lines, end: lines.length < COPILOT_PAGE_LINES };
  },
  whole: (lines, _recalled, lastPage) => lines.join("\n") + (lastPage.endsWith("\n") ? "\n" : ""),
};

interface Request {
  raw: string;
  body: any;
  tools: string[];
  /** Every tool result's text the request holds. */
  results: string[];
  /** The result of the model's last call, by the call's name. */
  last: { name: string; text: string; isError: boolean } | undefined;
  offersRecall: boolean;
}

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.filter((c: any) => typeof c?.text === "string").map((c: any) => c.text).join("\n") : JSON.stringify(content);

function read(raw: string, api: LargeOutputClient["api"]): Request {
  const body = JSON.parse(raw);
  const msgs: any[] = body.messages ?? [];
  const names = new Map<string, string>();
  const results: string[] = [];
  let lastCall: string | undefined;
  let last: Request["last"];
  // The result of the model's last call, wherever the client put it after (Claude Code may add a message of its own).
  const answered = (id: string, content: unknown, isError: boolean): void => {
    results.push(textOf(content));
    if (id === lastCall) last = { name: names.get(id) ?? "?", text: textOf(content), isError };
  };
  for (const m of msgs) {
    if (api === "chat") {
      for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name), (lastCall = c.id);
      if (m.role === "tool") answered(m.tool_call_id, m.content, false);
      continue;
    }
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === "tool_use") names.set(b.id, b.name), (lastCall = b.id);
      if (b.type === "tool_result") answered(b.tool_use_id, b.content, b.is_error === true);
    }
  }
  const tools = (body.tools ?? []).map((t: any) => t.function?.name ?? t.name);
  return { raw, body, tools, results, last, offersRecall: tools.includes(RECALL) };
}

function decide(q: Request, c: LargeOutputClient, s: LargeOutputRun, state: { calls: number; known: Map<string, string>; lines: string[] }): ScriptReply {
  const summary = summaryOf(q.raw);
  if (summary !== null && !s.summaries.includes(summary)) s.summaries.push(summary);
  for (const r of q.results) state.known.set(refOf(r), r);
  if (q.last?.name === RECALL && s.recall !== undefined) {
    s.recall.answer = q.last.text;
    s.recall.isError = q.last.isError;
    s.file = NOTE_FILE.exec(q.last.text)?.[1];
    s.summaryNamedFile = s.file !== undefined && s.summaries.some((x) => x.includes(`to its own file ${s.file}; read it there`));
    return s.file === undefined ? { text: "NO FILE NAMED" } : readPage(c, s, 1);
  }
  if (q.last?.name === c.read) {
    if (s.after === undefined) s.after = q.raw;
    const offset = s.pages[s.pages.length - 1].offset;
    s.pages[s.pages.length - 1].text = q.last.text;
    const page = c.page(q.last.text, offset);
    if (page === null || q.last.isError) return { text: `READ FAILED at line ${offset}: ${q.last.text.slice(0, 300)}` };
    state.lines.push(...page.lines);
    if (!page.end) return readPage(c, s, offset + c.pageLines);
    s.got = c.whole(state.lines, s.recall!.placeholder, q.last.text);
    return { text: s.got === BIG.text ? `ALL DONE: read the whole output back, ${s.got.length} chars, byte for byte` : `OUTPUT MISMATCH: ${s.got.length} chars` };
  }
  if (s.summaries.length >= 2 && q.offersRecall && summary !== null && s.recall === undefined) {
    // The summary in force first, then the earlier ones: a later cliff drops the summary that named a
    // ref (never compacting a compaction), and a model that read the ref there may still ask for it.
    const refs = [summary, ...s.summaries.slice().reverse()].flatMap((x) => [...x.matchAll(DROPPED_REF)].map((m) => m[1]));
    const named = refs.find((ref) => c.isPlaceholder(state.known.get(ref) ?? ""));
    if (named !== undefined) {
      s.recall = { ref: named, placeholder: state.known.get(named)!, afterCliffs: s.summaries.length, answer: "", isError: false, at: s.seen.length };
      return { call: RECALL, input: { ref: named } };
    }
  }
  if (state.calls >= 14) return { text: "GAVE UP: no placeholder to recall" };
  const k = ++state.calls;
  return { call: c.shell, input: { command: k === 1 ? BIG.command : `seq -f '%020g' ${k * 100_000} ${k * 100_000 + c.laterLines - 1}`, description: "print numbers" } };
}

function readPage(c: LargeOutputClient, s: LargeOutputRun, offset: number): ScriptReply {
  s.pages.push({ offset, text: "" });
  return { call: c.read, input: c.readInput(s.file!, offset) };
}

export async function largeOutputScript(client: LargeOutputClient = CLAUDE_CODE, lifetimeMs = 600_000): Promise<LargeOutputRun> {
  const out: LargeOutputRun = { url: "", seen: [], summaries: [], summaryNamedFile: false, pages: [], got: "", close: () => server.close() };
  const state = { calls: 0, known: new Map<string, string>(), lines: [] as string[] };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const path = (req.url ?? "").split("?")[0];
      if (req.method !== "POST" || !path.endsWith(client.api === "chat" ? "/chat/completions" : "/messages")) {
        res.writeHead(path.endsWith("/count_tokens") ? 200 : 404, { "content-type": "application/json" });
        return void res.end(path.endsWith("/count_tokens") ? JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }) : '{"error":{"message":"not here"}}');
      }
      out.seen.push({ path, body: raw });
      const q = read(raw, client.api);
      // The clients' side requests (titles, checks) have no shell.
      const reply = q.tools.includes(client.shell) ? decide(q, client, out, state) : { text: "ok" };
      res.writeHead(200, { "content-type": q.body.stream === true ? "text/event-stream" : "application/json" });
      res.end((client.api === "chat" ? chatAnswer : anthropicAnswer)(q.body, reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  out.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return out;
}

/**
 * The recall loop in the Gemini API (generateContent). The model's turn goes back as its content
 * with every part as it came (thought signatures on the parts that carry them; an empty text part
 * alone left out, as the API refuses it), the answers as one user content of `functionResponse`
 * parts in the calls' order. A stream stays one stream of chunks: text and thought parts go on at
 * once, function calls are held until the finishing chunk, which comes last with every round's
 * output counted; the recall lines are a text part between. The same in each form a route's
 * answers come in (gemini-forms.ts): Code Assist's envelope, a stream as one JSON array.
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { eventObject } from "./sse.js";
import { ArrayReader, ChunkWriter, closed, opened, type GeminiForm } from "./gemini-forms.js";
import { NOT_RUN, type ApiStream, type CallAnswer, type ModelTurn, type RecallApi, type SseEvent } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const candidateOf = (a: Obj): Obj => (Array.isArray(a.candidates) && isObj(a.candidates[0]) ? a.candidates[0] : {});
const partsOf = (a: Obj): Obj[] => {
  const c = candidateOf(a).content;
  return isObj(c) && Array.isArray(c.parts) ? c.parts.filter(isObj) : [];
};
const callOf = (p: Obj): Obj | null => (isObj(p.functionCall) ? p.functionCall : null);
const isRecall = (p: Obj): boolean => callOf(p)?.name === RECALL_TOOL_NAME;
const outputTokens = (a: Obj): number => (isObj(a.usageMetadata) && typeof a.usageMetadata.candidatesTokenCount === "number" ? a.usageMetadata.candidatesTokenCount : 0);
const linePart = (lines: readonly string[]): Obj => ({ text: "\n" + lines.join("\n") + "\n" });

/** A part that is an empty text and nothing else (a stream's last chunk often carries one): the API refuses it sent back ("empty text parameter"). */
const isEmptyText = (p: Obj): boolean => p.text === "" && Object.keys(p).length === 1;

function turnOfParts(parts: readonly Obj[]): ModelTurn {
  const calls = parts.map(callOf).filter((c): c is Obj => c !== null).map((c) => ({ id: typeof c.id === "string" ? c.id : "", name: String(c.name ?? ""), args: c.args ?? {} }));
  return { calls, items: [{ role: "model", parts: parts.filter((p) => !isEmptyText(p)) }] };
}

function withUsage(a: Obj, output: number): Obj {
  return isObj(a.usageMetadata) ? { ...a, usageMetadata: { ...a.usageMetadata, candidatesTokenCount: output } } : a;
}

function withParts(a: Obj, parts: Obj[]): Obj {
  const c = candidateOf(a);
  return { ...a, candidates: [{ ...c, content: { ...(isObj(c.content) ? c.content : {}), role: "model", parts } }] };
}

/** The client's one answer from every round's (Gemini answers, oldest first). */
function mergedAnswers(answers: readonly Obj[], lines: readonly string[][]): Obj {
  const parts: Obj[] = [];
  answers.forEach((a, i) => {
    const last = i === answers.length - 1;
    parts.push(...partsOf(a).filter((p) => !(last ? isRecall(p) : callOf(p) !== null)));
    if (lines[i] !== undefined && lines[i].length > 0) parts.push(linePart(lines[i]));
  });
  const last = answers[answers.length - 1];
  return withUsage(withParts(last, parts), answers.reduce((n, a) => n + outputTokens(a), 0));
}

/** The loop's side of a Gemini route whose answers come in `form`. */
export function geminiRecall(form: GeminiForm = { array: false }): RecallApi {
  const open = (a: Obj): Obj => opened(a, form) ?? {};
  return {
    listKey: "contents",
    ...(form.request === undefined ? {} : { envelope: form.request }),
    ...(form.array ? { streamReader: (emit: (e: SseEvent) => void) => new ArrayReader(emit) } : {}),
    turnOf: (answer) => turnOfParts(partsOf(open(answer))),
    resultItems: (turn, answers) => [{ role: "user", parts: turn.calls.map((c, i) => ({ functionResponse: { ...(c.id === "" ? {} : { id: c.id }), name: c.name, response: responseOf(answers[i]) } })) }],
    merged: (answers, lines) => closed(mergedAnswers(answers.map(open), lines), answers[answers.length - 1], form),
    stream: (write) => new GeminiStream(new ChunkWriter(write, form.array), form),
  };
}

function responseOf(a: CallAnswer): Obj {
  return a === null ? { error: NOT_RUN } : a.isError ? { error: a.text } : { output: a.text };
}

class GeminiStream implements ApiStream {
  private outputBefore = 0;
  private parts: Obj[] = [];
  private held: Obj[] = [];
  private last: Obj | null = null;
  private finished: Obj | null = null;
  /** The envelope the chunks came in, for the chunks written. */
  private outer: Obj = {};

  constructor(private readonly out: ChunkWriter, private readonly form: GeminiForm) {}

  private write(chunk: Obj): void {
    this.out.chunk(undefined, closed(chunk, this.outer, this.form));
  }

  event(e: SseEvent): void {
    const outer: Obj | null = eventObject(e);
    const data = outer === null ? null : opened(outer, this.form);
    if (outer === null || data === null) return this.out.chunk(e.event, e.data);
    this.outer = outer;
    this.last = data;
    const parts = partsOf(data);
    this.parts.push(...parts);
    this.held.push(...parts.filter((p) => callOf(p) !== null));
    const shown = parts.filter((p) => callOf(p) === null);
    const candidate = candidateOf(data);
    if (candidate.finishReason !== undefined) this.finished = data;
    if (shown.length > 0) {
      const { finishReason: _f, ...rest } = candidate;
      const { usageMetadata: _u, ...chunk } = withParts(data, shown);
      this.write({ ...chunk, candidates: [{ ...rest, content: { role: "model", parts: shown } }] });
    }
  }

  ended(): ModelTurn | null {
    return this.finished === null ? null : turnOfParts(this.parts);
  }

  private lines(lines: readonly string[]): void {
    const base = this.last ?? {};
    const { usageMetadata: _u, ...chunk } = withParts(base, [linePart(lines)]);
    const { finishReason: _f, ...candidate } = candidateOf(chunk);
    this.write({ ...chunk, candidates: [candidate] });
  }

  next(lines: readonly string[]): void {
    this.lines(lines);
    this.outputBefore += this.finished !== null ? outputTokens(this.finished) : 0;
    this.parts = [];
    this.held = [];
    this.finished = null;
  }

  finish(): void {
    const end = this.finished;
    if (end !== null) this.write(withUsage(withParts(end, this.held.filter((p) => !isRecall(p))), this.outputBefore + outputTokens(end)));
    this.out.end();
  }

  end(lines: readonly string[]): void {
    this.lines(lines);
    this.finish();
  }

  fail(message: string): void {
    // An error is not an answer: it goes outside the envelope, as the upstream sends one.
    this.out.chunk(undefined, { error: { code: 502, message, status: "UNAVAILABLE" } });
    this.out.end();
  }
}

/**
 * The recall loop in the Gemini API (generateContent). The model's turn goes back as its content
 * with every part as it came (thought signatures on the parts that carry them), the answers as one
 * user content of `functionResponse` parts in the calls' order. A stream stays one stream of
 * chunks: text and thought parts go on at once, function calls are held until the finishing chunk,
 * which comes last with every round's output counted; the recall lines are a text part between.
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { sseText, eventObject } from "./sse.js";
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

function turnOfParts(parts: readonly Obj[]): ModelTurn {
  const calls = parts.map(callOf).filter((c): c is Obj => c !== null).map((c) => ({ id: typeof c.id === "string" ? c.id : "", name: String(c.name ?? ""), args: c.args ?? {} }));
  return { calls, items: [{ role: "model", parts }] };
}

function withUsage(a: Obj, output: number): Obj {
  return isObj(a.usageMetadata) ? { ...a, usageMetadata: { ...a.usageMetadata, candidatesTokenCount: output } } : a;
}

function withParts(a: Obj, parts: Obj[]): Obj {
  const c = candidateOf(a);
  return { ...a, candidates: [{ ...c, content: { ...(isObj(c.content) ? c.content : {}), role: "model", parts } }] };
}

export const geminiRecall: RecallApi = {
  listKey: "contents",
  turnOf: (answer) => turnOfParts(partsOf(answer)),
  resultItems: (turn, answers) => [{ role: "user", parts: turn.calls.map((c, i) => ({ functionResponse: { ...(c.id === "" ? {} : { id: c.id }), name: c.name, response: responseOf(answers[i]) } })) }],
  merged(answers, lines) {
    const parts: Obj[] = [];
    answers.forEach((a, i) => {
      const last = i === answers.length - 1;
      parts.push(...partsOf(a).filter((p) => !(last ? isRecall(p) : callOf(p) !== null)));
      if (lines[i] !== undefined && lines[i].length > 0) parts.push(linePart(lines[i]));
    });
    const last = answers[answers.length - 1];
    return withUsage(withParts(last, parts), answers.reduce((n, a) => n + outputTokens(a), 0));
  },
  stream: (write) => new GeminiStream(write),
};

function responseOf(a: CallAnswer): Obj {
  return a === null ? { error: NOT_RUN } : a.isError ? { error: a.text } : { output: a.text };
}

class GeminiStream implements ApiStream {
  private outputBefore = 0;
  private parts: Obj[] = [];
  private held: Obj[] = [];
  private last: Obj | null = null;
  private finished: Obj | null = null;

  constructor(private readonly write: (chunk: string) => void) {}

  event(e: SseEvent): void {
    const data: Obj | null = eventObject(e);
    if (data === null) return this.write(sseText(e.event, e.data));
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
      this.write(sseText(e.event, { ...chunk, candidates: [{ ...rest, content: { role: "model", parts: shown } }] }));
    }
  }

  ended(): ModelTurn | null {
    return this.finished === null ? null : turnOfParts(this.parts);
  }

  next(lines: readonly string[]): void {
    const base = this.last ?? {};
    const { usageMetadata: _u, ...chunk } = withParts(base, [linePart(lines)]);
    const { finishReason: _f, ...candidate } = candidateOf(chunk);
    this.write(sseText(undefined, { ...chunk, candidates: [candidate] }));
    this.outputBefore += this.finished !== null ? outputTokens(this.finished) : 0;
    this.parts = [];
    this.held = [];
    this.finished = null;
  }

  finish(): void {
    const end = this.finished;
    if (end === null) return;
    const calls = this.held.filter((p) => !isRecall(p));
    this.write(sseText(undefined, withUsage(withParts(end, calls), this.outputBefore + outputTokens(end))));
  }

  fail(message: string): void {
    this.write(sseText(undefined, { error: { code: 502, message, status: "UNAVAILABLE" } }));
  }
}

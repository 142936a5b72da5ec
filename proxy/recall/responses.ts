/**
 * The recall loop in OpenAI Responses. The model's turn goes back as its output items (reasoning
 * items with their encrypted content before the calls they lead to; without their ids when the
 * request is not stored, as nothing can be looked up by them), the answers as
 * `function_call_output` items. A stream stays one response: one `response.created`, output
 * indices and sequence numbers renumbered as events reach the client, function calls held until
 * the response completes, the recall lines as a message item of their own.
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { sseText, eventObject } from "./sse.js";
import { NOT_RUN, type ApiStream, type CallAnswer, type ModelTurn, type RecallApi, type SseEvent } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const outputOf = (r: Obj): Obj[] => (Array.isArray(r.output) ? r.output.filter(isObj) : []);
const isCall = (i: Obj): boolean => i.type === "function_call";
const isRecall = (i: Obj): boolean => isCall(i) && i.name === RECALL_TOOL_NAME;
const outputTokens = (r: Obj): number => (isObj(r.usage) && typeof r.usage.output_tokens === "number" ? r.usage.output_tokens : 0);

function argsOf(item: Obj): unknown {
  try {
    return typeof item.arguments === "string" ? (JSON.parse(item.arguments) as unknown) : item.arguments;
  } catch {
    return item.arguments;
  }
}

/** The turn of a response's output; `stored` false: the items go back without their ids. */
function turnOfItems(items: readonly Obj[], stored: boolean): ModelTurn {
  const calls = items.filter(isCall).map((i) => ({ id: String(i.call_id ?? ""), name: String(i.name ?? ""), args: argsOf(i) }));
  const back = items.map((i) => {
    if (stored) return i;
    const { id: _id, ...rest } = i;
    return rest;
  });
  return { calls, items: back };
}

function lineItem(lines: readonly string[], n: number): Obj {
  return { type: "message", id: `msg_cliffcompaction_recall_${n}`, status: "completed", role: "assistant", content: [{ type: "output_text", text: lines.join("\n"), annotations: [] }] };
}

function withUsage(response: Obj, output: number): Obj {
  return isObj(response.usage) ? { ...response, usage: { ...response.usage, output_tokens: output } } : response;
}

/** The Responses side; `stored` says whether the request keeps its items upstream (`store` not false). */
export function responsesRecall(stored: boolean): RecallApi {
  return {
    listKey: "input",
    turnOf: (answer) => turnOfItems(outputOf(answer), stored),
    resultItems: (turn, answers) => turn.calls.map((c, i) => ({ type: "function_call_output", call_id: c.id, output: resultText(answers[i]) })),
    merged(answers, lines) {
      const output: Obj[] = [];
      answers.forEach((a, i) => {
        const last = i === answers.length - 1;
        output.push(...outputOf(a).filter((x) => !(last ? isRecall(x) : isCall(x))));
        if (lines[i] !== undefined && lines[i].length > 0) output.push(lineItem(lines[i], i));
      });
      const last = answers[answers.length - 1];
      return withUsage({ ...last, id: answers[0].id ?? last.id, output }, answers.reduce((n, a) => n + outputTokens(a), 0));
    },
    stream: (write) => new ResponsesStream(write, stored),
  };
}

function resultText(a: CallAnswer): string {
  return a === null ? NOT_RUN : a.isError ? `Error: ${a.text}` : a.text;
}

const TAIL = new Set(["response.completed", "response.incomplete", "response.failed"]);

class ResponsesStream implements ApiStream {
  private seq = 0;
  private nextIndex = 0;
  private round = 0;
  private outputBefore = 0;
  private forwarded = new Map<number, number>();
  private held = new Map<number, Obj[]>();
  /** Items the client has been given whole, in its order (the completed response lists them). */
  private shown: Obj[] = [];
  private tail: Obj | null = null;

  constructor(private readonly write: (chunk: string) => void, private readonly stored: boolean) {}

  private send(data: Obj): void {
    this.write(sseText(String(data.type), { ...data, ...("sequence_number" in data ? { sequence_number: this.seq++ } : {}) }));
  }

  event(e: SseEvent): void {
    const data: Obj | null = eventObject(e);
    if (data === null) return this.write(sseText(e.event, e.data));
    const type = String(data.type);
    if (type === "response.created" || type === "response.in_progress") return this.round === 0 ? this.send(data) : undefined;
    if (TAIL.has(type)) return void (this.tail = data);
    if (typeof data.output_index !== "number") return this.send(data);
    const index = data.output_index;
    if (type === "response.output_item.added" && isObj(data.item) && isCall(data.item)) this.held.set(index, []);
    const held = this.held.get(index);
    if (held !== undefined) return void held.push(data);
    let to = this.forwarded.get(index);
    if (to === undefined) this.forwarded.set(index, (to = this.nextIndex++));
    if (type === "response.output_item.done" && isObj(data.item)) this.shown.push(data.item);
    this.send({ ...data, output_index: to });
  }

  ended(): ModelTurn | null {
    const r = this.tail !== null && isObj(this.tail.response) ? this.tail.response : null;
    if (r === null || this.tail?.type !== "response.completed") return null;
    return turnOfItems(outputOf(r), this.stored);
  }

  private lines(lines: readonly string[]): void {
    const item = lineItem(lines, this.round);
    const output_index = this.nextIndex++;
    const text = (item.content as Obj[])[0];
    this.send({ type: "response.output_item.added", sequence_number: 0, output_index, item: { ...item, status: "in_progress", content: [] } });
    this.send({ type: "response.content_part.added", sequence_number: 0, item_id: item.id, output_index, content_index: 0, part: { ...text, text: "" } });
    this.send({ type: "response.output_text.delta", sequence_number: 0, item_id: item.id, output_index, content_index: 0, delta: text.text });
    this.send({ type: "response.output_text.done", sequence_number: 0, item_id: item.id, output_index, content_index: 0, text: text.text });
    this.send({ type: "response.content_part.done", sequence_number: 0, item_id: item.id, output_index, content_index: 0, part: text });
    this.send({ type: "response.output_item.done", sequence_number: 0, output_index, item });
    this.shown.push(item);
  }

  next(lines: readonly string[]): void {
    this.lines(lines);
    const r = this.tail !== null && isObj(this.tail.response) ? this.tail.response : {};
    this.outputBefore += outputTokens(r);
    this.round++;
    this.forwarded = new Map();
    this.held = new Map();
    this.tail = null;
  }

  finish(): void {
    for (const index of [...this.held.keys()].sort((a, b) => a - b)) {
      const events = this.held.get(index)!;
      const done = events.find((d) => d.type === "response.output_item.done");
      if (done === undefined || (isObj(done.item) && isRecall(done.item))) continue;
      const to = this.nextIndex++;
      for (const d of events) this.send({ ...d, output_index: to });
      if (isObj(done.item)) this.shown.push(done.item);
    }
    const tail = this.tail;
    if (tail === null) return;
    const r = isObj(tail.response) ? tail.response : {};
    this.send({ ...tail, response: withUsage({ ...r, output: this.shown }, this.outputBefore + outputTokens(r)) });
  }

  end(lines: readonly string[]): void {
    this.lines(lines);
    this.finish();
  }

  fail(message: string): void {
    this.send({ type: "error", sequence_number: 0, code: "upstream_error", message, param: null });
  }
}

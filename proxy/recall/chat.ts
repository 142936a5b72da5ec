/**
 * The recall loop in OpenAI Chat Completions. The model's turn goes back as its assistant message
 * (content, calls and any reasoning field the provider sent, as it came), the answers as `tool`
 * messages in the calls' order. A stream stays one completion: text and reasoning deltas go on at
 * once, call deltas are held and given whole before the finishing chunk, and the recall lines join
 * the text between the rounds.
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { sseText, eventObject } from "./sse.js";
import { NOT_RUN, type ApiStream, type CallAnswer, type ModelTurn, type RecallApi, type SseEvent } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const choiceOf = (a: Obj): Obj => (Array.isArray(a.choices) && isObj(a.choices[0]) ? a.choices[0] : {});
const messageOf = (a: Obj): Obj => (isObj(choiceOf(a).message) ? (choiceOf(a).message as Obj) : {});
const callsOf = (m: Obj): Obj[] => (Array.isArray(m.tool_calls) ? m.tool_calls.filter(isObj) : []);
const fnOf = (c: Obj): Obj => (isObj(c.function) ? c.function : {});
const isRecall = (c: Obj): boolean => fnOf(c).name === RECALL_TOOL_NAME;
const completionTokens = (a: Obj): number => (isObj(a.usage) && typeof a.usage.completion_tokens === "number" ? a.usage.completion_tokens : 0);
const lineText = (lines: readonly string[]): string => "\n\n" + lines.join("\n") + "\n\n";

function turnOfMessage(m: Obj): ModelTurn {
  const calls = callsOf(m).map((c) => ({ id: String(c.id ?? ""), name: String(fnOf(c).name ?? ""), args: fnOf(c).arguments }));
  return { calls, items: [{ ...m, role: "assistant" }] };
}

function finishReason(reason: unknown, callsLeft: boolean): unknown {
  return reason === "tool_calls" && !callsLeft ? "stop" : reason;
}

function withUsage(a: Obj, completion: number): Obj {
  if (!isObj(a.usage)) return a;
  const prompt = typeof a.usage.prompt_tokens === "number" ? a.usage.prompt_tokens : 0;
  return { ...a, usage: { ...a.usage, completion_tokens: completion, total_tokens: prompt + completion } };
}

export const chatRecall: RecallApi = {
  listKey: "messages",
  turnOf: (answer) => turnOfMessage(messageOf(answer)),
  resultItems: (turn, answers) => turn.calls.map((c, i) => ({ role: "tool", tool_call_id: c.id, content: resultText(answers[i]) })),
  merged(answers, lines) {
    let content = "";
    answers.forEach((a, i) => {
      const text = messageOf(a).content;
      if (typeof text === "string") content += text;
      if (lines[i] !== undefined && lines[i].length > 0) content += lineText(lines[i]);
    });
    const last = answers[answers.length - 1];
    const message = messageOf(last);
    const calls = callsOf(message).filter((c) => !isRecall(c));
    const { tool_calls: _calls, ...rest } = message;
    const choice = { ...choiceOf(last), message: { ...rest, content, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: finishReason(choiceOf(last).finish_reason, calls.length > 0) };
    return withUsage({ ...last, id: answers[0].id ?? last.id, choices: [choice] }, answers.reduce((n, a) => n + completionTokens(a), 0));
  },
  stream: (write) => new ChatStream(write),
};

function resultText(a: CallAnswer): string {
  return a === null ? NOT_RUN : a.isError ? `Error: ${a.text}` : a.text;
}

class ChatStream implements ApiStream {
  private round = 0;
  private completionBefore = 0;
  private template: Obj | null = null;
  private content = "";
  private reasoning: Record<string, string> = {};
  private calls: Obj[] = [];
  private finish_: Obj | null = null;
  private usage: Obj | null = null;
  private done = false;

  constructor(private readonly write: (chunk: string) => void) {}

  event(e: SseEvent): void {
    if (e.data.trim() === "[DONE]") return void (this.done = true);
    const data: Obj | null = eventObject(e);
    if (data === null) return this.write(sseText(e.event, e.data));
    if (!Array.isArray(data.choices) || data.choices.length === 0) {
      if (isObj(data.usage)) return void (this.usage = data);
      return this.write(sseText(e.event, data));
    }
    this.template ??= data;
    const choice = choiceOf(data);
    const delta: Obj = isObj(choice.delta) ? { ...choice.delta } : {};
    this.collect(delta);
    if (this.round > 0) delete delta.role;
    const { tool_calls: _calls, ...shown } = delta;
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
      this.finish_ = { ...data, choices: [{ ...choice, delta: {} }] };
      if (isObj(data.usage)) this.usage = data;
    }
    if (Object.keys(shown).some((k) => shown[k] !== null && shown[k] !== undefined && shown[k] !== "" && !(k === "role" && this.round > 0))) {
      this.write(sseText(e.event, { ...data, choices: [{ ...choice, delta: shown, finish_reason: null }] }));
    }
  }

  /** The turn as it streams: text, reasoning fields, and each call's pieces by index. */
  private collect(delta: Obj): void {
    if (typeof delta.content === "string") this.content += delta.content;
    for (const key of ["reasoning_content", "reasoning"]) if (typeof delta[key] === "string") this.reasoning[key] = (this.reasoning[key] ?? "") + (delta[key] as string);
    for (const c of Array.isArray(delta.tool_calls) ? delta.tool_calls.filter(isObj) : []) {
      const i = typeof c.index === "number" ? c.index : this.calls.length;
      const call = (this.calls[i] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      const fn = call.function as Obj;
      if (typeof c.id === "string") call.id = c.id;
      const piece = fnOf(c);
      if (typeof piece.name === "string") fn.name = String(fn.name) + piece.name;
      if (typeof piece.arguments === "string") fn.arguments = String(fn.arguments) + piece.arguments;
    }
  }

  ended(): ModelTurn | null {
    if (this.finish_ === null) return null;
    const calls = this.calls.filter(isObj);
    return turnOfMessage({ role: "assistant", content: this.content === "" ? null : this.content, ...this.reasoning, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
  }

  private chunk(delta: Obj, finish: unknown = null): Obj {
    const t = this.template ?? {};
    return { ...t, choices: [{ index: 0, delta, finish_reason: finish }] };
  }

  next(lines: readonly string[]): void {
    this.write(sseText(undefined, this.chunk({ content: lineText(lines) })));
    this.completionBefore += this.usage !== null ? completionTokens(this.usage) : 0;
    this.round++;
    this.content = "";
    this.reasoning = {};
    this.calls = [];
    this.finish_ = null;
    this.usage = null;
    this.done = false;
  }

  finish(): void {
    const calls = this.calls.filter((c) => isObj(c) && !isRecall(c)).map((c, index) => ({ index, ...c }));
    if (calls.length > 0) this.write(sseText(undefined, this.chunk({ tool_calls: calls })));
    if (this.finish_ !== null) {
      const choice = choiceOf(this.finish_);
      const usage = this.usage === this.finish_ ? withUsage(this.finish_, this.completionBefore + completionTokens(this.finish_)).usage : this.finish_.usage;
      this.write(sseText(undefined, { ...this.finish_, choices: [{ ...choice, finish_reason: finishReason(choice.finish_reason, calls.length > 0) }], ...(usage === undefined ? {} : { usage }) }));
    }
    if (this.usage !== null && this.usage !== this.finish_) this.write(sseText(undefined, withUsage(this.usage, this.completionBefore + completionTokens(this.usage))));
    if (this.done || this.finish_ !== null) this.write("data: [DONE]\n\n");
  }

  end(lines: readonly string[]): void {
    // The answer's last words: nothing of a next round follows them.
    this.write(sseText(undefined, this.chunk({ content: "\n\n" + lines.join("\n") })));
    this.finish();
  }

  fail(message: string): void {
    this.write(sseText(undefined, { error: { message, type: "upstream_error" } }));
    this.write("data: [DONE]\n\n");
  }
}

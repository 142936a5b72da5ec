/**
 * The recall loop in Anthropic Messages. The model's turn goes back as its assistant message with
 * every block as it came (thinking with its signature, redacted thinking, text, the calls), the
 * answers as one user message of `tool_result` blocks in the calls' order. A stream stays one
 * message: one `message_start`, each block's index renumbered in the order it reaches the client,
 * `tool_use` blocks held until the message ends, the recall lines as a text block of their own.
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { sseText, eventObject } from "./sse.js";
import { NOT_RUN, type ApiStream, type CallAnswer, type ModelTurn, type RecallApi, type SseEvent } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);
const blocksOf = (answer: Obj): Obj[] => (Array.isArray(answer.content) ? answer.content.filter(isObj) : []);
const isCall = (b: Obj): boolean => b.type === "tool_use";
const isRecall = (b: Obj): boolean => isCall(b) && b.name === RECALL_TOOL_NAME;

function turnOfBlocks(blocks: readonly Obj[]): ModelTurn {
  const calls = blocks.filter(isCall).map((b) => ({ id: String(b.id ?? ""), name: String(b.name ?? ""), args: b.input }));
  return { calls, items: [{ role: "assistant", content: blocks }] };
}

function lineBlock(lines: readonly string[]): Obj {
  return { type: "text", text: lines.join("\n") };
}

/** The stop reason once the recall calls are out: a turn left with no call ends as a turn. */
function stopReason(reason: unknown, callsLeft: boolean): unknown {
  return reason === "tool_use" && !callsLeft ? "end_turn" : reason;
}

const outputOf = (answer: Obj): number => (isObj(answer.usage) && typeof answer.usage.output_tokens === "number" ? answer.usage.output_tokens : 0);

export const anthropicRecall: RecallApi = {
  listKey: "messages",
  turnOf: (answer) => turnOfBlocks(blocksOf(answer)),
  resultItems: (turn: ModelTurn, answers: readonly CallAnswer[]) => [{ role: "user", content: turn.calls.map((c, i) => resultBlock(c.id, answers[i])) }],
  merged(answers, lines) {
    const content: Obj[] = [];
    answers.forEach((a, i) => {
      const last = i === answers.length - 1;
      content.push(...blocksOf(a).filter((b) => !(last ? isRecall(b) : isCall(b))));
      if (lines[i] !== undefined && lines[i].length > 0) content.push(lineBlock(lines[i]));
    });
    const last = answers[answers.length - 1];
    const output = answers.reduce((n, a) => n + outputOf(a), 0);
    return { ...last, id: answers[0].id ?? last.id, content, stop_reason: stopReason(last.stop_reason, content.some(isCall)), ...(isObj(last.usage) ? { usage: { ...last.usage, output_tokens: output } } : {}) };
  },
  stream: (write) => new AnthropicStream(write),
};

function resultBlock(id: string, a: CallAnswer): Obj {
  return { type: "tool_result", tool_use_id: id, content: a === null ? NOT_RUN : a.text, ...(a === null || a.isError ? { is_error: true } : {}) };
}

/** A block rebuilt from its start and deltas, for the turn that goes back to the model. */
function applyDelta(block: Obj, delta: Obj, partial: Map<Obj, string>): void {
  switch (delta.type) {
    case "text_delta": block.text = String(block.text ?? "") + String(delta.text ?? ""); break;
    case "thinking_delta": block.thinking = String(block.thinking ?? "") + String(delta.thinking ?? ""); break;
    case "signature_delta": block.signature = String(block.signature ?? "") + String(delta.signature ?? ""); break;
    case "input_json_delta": partial.set(block, (partial.get(block) ?? "") + String(delta.partial_json ?? "")); break;
    case "citations_delta": block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation]; break;
    default: break;
  }
}

class AnthropicStream implements ApiStream {
  private nextIndex = 0;
  private round = 0;
  private outputBefore = 0;
  private roundOutput = 0;
  private forwarded = new Map<number, number>();
  private held = new Map<number, Obj[]>();
  private blocks: Obj[] = [];
  private partial = new Map<Obj, string>();
  private tail: Obj[] = [];
  private whole = false;

  constructor(private readonly write: (chunk: string) => void) {}

  event(e: SseEvent): void {
    const data: Obj | null = eventObject(e);
    if (data === null) return this.write(sseText(e.event, e.data));
    const index = typeof data.index === "number" ? data.index : -1;
    switch (data.type) {
      case "message_start":
        if (this.round === 0) this.write(sseText(e.event, data));
        return;
      case "content_block_start": return this.start(index, data, e);
      case "content_block_delta":
        if (isObj(this.blocks[index]) && isObj(data.delta)) applyDelta(this.blocks[index], data.delta, this.partial);
        return this.pass(index, data, e);
      case "content_block_stop": return this.pass(index, data, e);
      case "message_delta":
        if (isObj(data.usage) && typeof data.usage.output_tokens === "number") this.roundOutput = data.usage.output_tokens;
        this.tail.push(data);
        return;
      case "message_stop":
        this.tail.push(data);
        this.whole = true;
        return;
      default: this.write(sseText(e.event, data));
    }
  }

  private start(index: number, data: Obj, e: SseEvent): void {
    const block = isObj(data.content_block) ? { ...data.content_block } : {};
    this.blocks[index] = block;
    if (isCall(block)) {
      this.held.set(index, [data]);
      return;
    }
    this.forwarded.set(index, this.nextIndex++);
    this.pass(index, data, e);
  }

  private pass(index: number, data: Obj, e: SseEvent): void {
    const held = this.held.get(index);
    if (held !== undefined) return void held.push(data);
    const to = this.forwarded.get(index);
    this.write(sseText(e.event ?? String(data.type), to === undefined ? data : { ...data, index: to }));
  }

  ended(): ModelTurn | null {
    if (!this.whole) return null;
    for (const [block, json] of this.partial) {
      try {
        block.input = json.trim() === "" ? {} : (JSON.parse(json) as unknown);
      } catch {
        block.input = {};
      }
    }
    return turnOfBlocks(this.blocks.filter(isObj));
  }

  private lines(lines: readonly string[]): void {
    const index = this.nextIndex++;
    this.write(sseText("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }));
    this.write(sseText("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: lines.join("\n") } }));
    this.write(sseText("content_block_stop", { type: "content_block_stop", index }));
  }

  next(lines: readonly string[]): void {
    this.lines(lines);
    this.outputBefore += this.roundOutput;
    this.round++;
    this.roundOutput = 0;
    this.forwarded = new Map();
    this.held = new Map();
    this.blocks = [];
    this.partial = new Map();
    this.tail = [];
    this.whole = false;
  }

  finish(): void {
    let callsLeft = false;
    for (const index of [...this.held.keys()].sort((a, b) => a - b)) {
      const block = this.blocks[index];
      if (isObj(block) && isRecall(block)) continue;
      callsLeft = true;
      const to = this.nextIndex++;
      for (const data of this.held.get(index)!) this.write(sseText(String(data.type), { ...data, index: to }));
    }
    for (const data of this.tail) {
      if (data.type !== "message_delta") {
        this.write(sseText(String(data.type), data));
        continue;
      }
      const delta = isObj(data.delta) ? { ...data.delta, stop_reason: stopReason(data.delta.stop_reason, callsLeft) } : data.delta;
      const usage = isObj(data.usage) ? { ...data.usage, output_tokens: this.outputBefore + this.roundOutput } : data.usage;
      this.write(sseText("message_delta", { ...data, delta, ...(usage === undefined ? {} : { usage }) }));
    }
  }

  end(lines: readonly string[]): void {
    this.lines(lines);
    this.finish();
  }

  fail(message: string): void {
    this.write(sseText("error", { type: "error", error: { type: "api_error", message } }));
  }
}

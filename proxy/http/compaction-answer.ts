/**
 * The proxy's own answer to a client's compaction request, in the shape of the API it spoke:
 * Anthropic Messages or OpenAI Responses, streamed (SSE, the events each SDK reads) when the
 * request asked for a stream, else one JSON body. It carries one assistant text, the summary,
 * and usage of zero tokens: no model was asked, nothing is billed.
 */
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { Config, DialectName } from "../../core/index.js";
import { compactionAnswerText, ownCompactionItem, type Decision } from "../decision/index.js";

const id = (prefix: string): string => `${prefix}${randomBytes(12).toString("hex")}`;
const event = (e: Record<string, unknown>): string => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`;

function anthropicAnswer(model: unknown, text: string, stream: boolean): string {
  const message = { id: id("msg_cliff_"), type: "message", role: "assistant", model, content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } };
  if (!stream) return JSON.stringify(message);
  return [
    event({ type: "message_start", message: { ...message, content: [], stop_reason: null } }),
    event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
    event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
    event({ type: "content_block_stop", index: 0 }),
    event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 0 } }),
    event({ type: "message_stop" }),
  ].join("");
}

const NO_USAGE = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

/**
 * A completed Responses answer whose one output is `item`: the JSON, or its stream — created, the
 * events `during` gives between (each numbered in turn), completed.
 */
function responsesOf(model: unknown, item: Record<string, unknown>, stream: boolean, during: (item: Record<string, unknown>) => Record<string, unknown>[]): string {
  const response = { id: id("resp_cliff_"), object: "response", created_at: Math.floor(Date.now() / 1000), status: "completed", model, output: [item], usage: NO_USAGE };
  if (!stream) return JSON.stringify(response);
  const events = [{ type: "response.created", response: { ...response, status: "in_progress", output: [], usage: null } }, ...during(item), { type: "response.completed", response }];
  return events.map((e, n) => event({ ...e, sequence_number: n })).join("");
}

/** A `compaction_trigger` answered: one `compaction` item of ours (Codex's remote compaction v2 expects exactly one). */
function compactionItemAnswer(model: unknown, text: string, stream: boolean): string {
  return responsesOf(model, ownCompactionItem(text, id("cmp_cliff_")), stream, (item) => [
    { type: "response.output_item.added", output_index: 0, item },
    { type: "response.output_item.done", output_index: 0, item },
  ]);
}

function responsesAnswer(model: unknown, text: string, stream: boolean): string {
  const part = { type: "output_text", text, annotations: [] };
  const item = { type: "message", id: id("msg_cliff_"), status: "completed", role: "assistant", content: [part] };
  return responsesOf(model, item, stream, () => [
    { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", content: [] } },
    { type: "response.content_part.added", item_id: item.id, output_index: 0, content_index: 0, part: { ...part, text: "" } },
    { type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta: text },
    { type: "response.output_text.done", item_id: item.id, output_index: 0, content_index: 0, text },
    { type: "response.content_part.done", item_id: item.id, output_index: 0, content_index: 0, part },
    { type: "response.output_item.done", output_index: 0, item },
  ]);
}

/** Answers the request (`body` its parsed JSON) with `text`, as a `compaction` item for a trigger; the upstream is never asked. */
export function answerCompaction(res: ServerResponse, api: DialectName, body: Record<string, unknown>, text: string, trigger = false): void {
  const stream = body.stream === true;
  const out = api === "anthropic" ? anthropicAnswer(body.model, text, stream) : trigger ? compactionItemAnswer(body.model, text, stream) : responsesAnswer(body.model, text, stream);
  const headers: Record<string, string> = { "content-type": stream ? "text/event-stream" : "application/json", "content-length": String(Buffer.byteLength(out)), "x-cliffcompaction": "answered" };
  if (stream) headers["cache-control"] = "no-cache";
  res.writeHead(200, headers);
  res.end(out);
}

/**
 * Answers `d` itself when it is a client's compaction request the proxy can summarise: true when
 * it did (the record then says nothing was sent). Any fault of ours leaves it to the upstream.
 */
export function answeredCompaction(res: ServerResponse, api: DialectName, d: Decision, config: Config, openaiUpstream: boolean): boolean {
  if (d.prepared?.compactionRequest == null || d.parsed === null) return false;
  let text: string | null;
  try {
    text = compactionAnswerText(d.prepared, config, openaiUpstream);
  } catch {
    text = null;
  }
  if (text === null) return false;
  answerCompaction(res, api, d.parsed, text, d.prepared.compactionRequest.by === "compaction-trigger");
  Object.assign(d.record, { messagesOut: 0, tokensOut: 0 });
  return true;
}

/**
 * The provider's usage read from recorded answers of each API (server-sent events and JSON), with
 * the bytes split at every boundary (a multi-byte character included), gzip and br.
 */
import { describe, expect, it } from "vitest";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { UsageTap, type Usage } from "../../proxy/observe/usage.js";

const sse = (events: Record<string, unknown>[], named: boolean, done = false): string =>
  events.map((e) => `${named ? `event: ${e.type as string}\n` : ""}data: ${JSON.stringify(e)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : "");

// What Anthropic streams: the prompt's counts in message_start, the output's (and, lately, the prompt's again) in message_delta.
const ANTHROPIC_SSE = sse([
  { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: { input_tokens: 12, cache_creation_input_tokens: 3400, cache_read_input_tokens: 51200, output_tokens: 1 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Ça marche — \"usage\": 999 ✓" } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 87 } },
  { type: "message_stop" },
], true);
const ANTHROPIC_JSON = JSON.stringify({ id: "msg_2", type: "message", role: "assistant", content: [{ type: "text", text: "ok" }], usage: { input_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 900, output_tokens: 2 } });
// OpenAI Chat with stream_options.include_usage: the last chunk has no choices and the usage.
const CHAT_SSE = sse([
  { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "" } }] },
  { id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "héllo" }, finish_reason: "stop" }] },
  { id: "c1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 2000, completion_tokens: 40, total_tokens: 2040, prompt_tokens_details: { cached_tokens: 1536 } } },
], false, true);
const CHAT_JSON = JSON.stringify({ id: "c2", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: "hi" } }], usage: { prompt_tokens: 300, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 0 } } });
const RESPONSES_SSE = sse([
  { type: "response.created", sequence_number: 0, response: { id: "r1", status: "in_progress", output: [], usage: null } },
  { type: "response.output_text.delta", sequence_number: 1, delta: "naïve" },
  { type: "response.completed", sequence_number: 2, response: { id: "r1", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: "naïve" }] }], usage: { input_tokens: 8000, input_tokens_details: { cached_tokens: 6000 }, output_tokens: 120, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 8120 } } },
], true);
const RESPONSES_JSON = JSON.stringify({ id: "r2", object: "response", output: [], usage: { input_tokens: 50, input_tokens_details: { cached_tokens: 10 }, output_tokens: 5 } });

const CASES: [string, string, string, Usage][] = [
  ["Anthropic SSE", "text/event-stream", ANTHROPIC_SSE, { input: 12, cacheRead: 51200, cacheWrite: 3400, output: 87 }],
  ["Anthropic JSON", "application/json", ANTHROPIC_JSON, { input: 5, cacheRead: 900, cacheWrite: 0, output: 2 }],
  ["OpenAI Chat SSE", "text/event-stream; charset=utf-8", CHAT_SSE, { input: 464, cacheRead: 1536, cacheWrite: 0, output: 40 }],
  ["OpenAI Chat JSON", "application/json", CHAT_JSON, { input: 300, cacheRead: 0, cacheWrite: 0, output: 7 }],
  ["OpenAI Responses SSE", "text/event-stream", RESPONSES_SSE, { input: 2000, cacheRead: 6000, cacheWrite: 0, output: 120 }],
  ["OpenAI Responses JSON", "application/json", RESPONSES_JSON, { input: 40, cacheRead: 10, cacheWrite: 0, output: 5 }],
];

async function read(type: string, encoding: string | undefined, chunks: Buffer[]): Promise<Usage | null> {
  const tap = new UsageTap(type, encoding);
  for (const c of chunks) tap.push(c);
  tap.end();
  return tap.done;
}

describe("usage from each API's answers", () => {
  for (const [name, type, body, want] of CASES) {
    it(`${name}: whole, split at every byte boundary, byte by byte`, async () => {
      const bytes = Buffer.from(body, "utf8");
      expect(await read(type, undefined, [bytes])).toEqual(want);
      for (let i = 1; i < bytes.length; i++) {
        expect(await read(type, undefined, [bytes.subarray(0, i), bytes.subarray(i)])).toEqual(want);
      }
      expect(await read(type, undefined, [...bytes].map((b) => Buffer.from([b])))).toEqual(want);
    });

    it(`${name}: gzip, br and deflate, in small pieces`, async () => {
      for (const [encoding, packed] of [["gzip", gzipSync(body)], ["br", brotliCompressSync(body)], ["deflate", deflateSync(body)]] as const) {
        const pieces: Buffer[] = [];
        for (let i = 0; i < packed.length; i += 7) pieces.push(packed.subarray(i, i + 7));
        expect(await read(type, encoding, pieces)).toEqual(want);
      }
    });
  }

  it("an answer without usage, an error body, broken compression and an unknown encoding give null", async () => {
    expect(await read("text/event-stream", undefined, [Buffer.from("data: {\"type\":\"ping\"}\n\n")])).toBeNull();
    expect(await read("application/json", undefined, [Buffer.from("{\"error\":{\"message\":\"usage limit\"}}")])).toBeNull();
    expect(await read("application/json", "gzip", [Buffer.from("not gzip at all")])).toBeNull();
    expect(await read("application/json", "zstd", [Buffer.from(ANTHROPIC_JSON)])).toBeNull();
  });

  it("CRLF line ends and an answer cut off mid-line are read as far as they go", async () => {
    const crlf = ANTHROPIC_SSE.replace(/\n/g, "\r\n");
    expect(await read("text/event-stream", undefined, [Buffer.from(crlf)])).toEqual(CASES[0][3]);
    const cut = Buffer.from(ANTHROPIC_SSE).subarray(0, ANTHROPIC_SSE.indexOf("message_delta") + 20);
    expect(await read("text/event-stream", undefined, [cut])).toEqual({ input: 12, cacheRead: 51200, cacheWrite: 3400, output: 1 });
  });
});

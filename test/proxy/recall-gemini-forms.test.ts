/**
 * A Gemini stream sent as one JSON array, read as it arrives: each element given whole however the
 * bytes are cut (inside a string, an escape or a character), brackets and quotes inside strings not
 * taken for the array's; and written back as one array, or as server-sent events.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ArrayReader, ChunkWriter, geminiFormOf } from "../../proxy/recall/gemini-forms.js";

const CHUNKS = [
  { candidates: [{ content: { role: "model", parts: [{ text: 'a "quoted" [bracket] {brace} \\ back\\slash, é ✓ 🙂' }] }, index: 0 }] },
  { candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "run", args: { list: [1, [2, { x: "]}" }]] } }, thoughtSignature: "c2ln" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { candidatesTokenCount: 3 } },
];

/** The elements read from `bytes` cut at `cuts`. */
function read(bytes: Buffer, cuts: number[]): unknown[] {
  const out: unknown[] = [];
  const reader = new ArrayReader((e) => out.push(JSON.parse(e.data)));
  let from = 0;
  for (const at of [...cuts].sort((a, b) => a - b)) {
    reader.push(bytes.subarray(from, at));
    from = at;
  }
  reader.push(bytes.subarray(from));
  reader.end();
  return out;
}

describe("a Gemini stream as one JSON array", () => {
  it("each element given whole, however the bytes are cut", () => {
    const text = `[${CHUNKS.map((c) => JSON.stringify(c, null, 2)).join("\r\n,\r\n")}\n]`;
    const bytes = Buffer.from(text, "utf8");
    expect(read(bytes, [])).toEqual(CHUNKS);
    // One byte at a time.
    expect(read(bytes, Array.from({ length: bytes.length }, (_, i) => i))).toEqual(CHUNKS);
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: bytes.length }), { maxLength: 12 }), (cuts) => {
      expect(read(bytes, cuts)).toEqual(CHUNKS);
    }), { numRuns: 300 });
  });

  it("written back as one array (an empty one when nothing came), or as events", () => {
    let text = "";
    const array = new ChunkWriter((t) => (text += t), true);
    for (const c of CHUNKS) array.chunk(undefined, c);
    array.end();
    expect(JSON.parse(text)).toEqual(CHUNKS);
    text = "";
    const none = new ChunkWriter((t) => (text += t), true);
    none.end();
    expect(text).toBe("[]");
    text = "";
    const sse = new ChunkWriter((t) => (text += t), false);
    sse.chunk(undefined, CHUNKS[0]);
    sse.end();
    expect(text).toBe(`data: ${JSON.stringify(CHUNKS[0])}\n\n`);
  });

  it("the form of a route: an array without alt=sse, Code Assist's envelope for its request member", () => {
    expect(geminiFormOf(undefined, new URL("http://x/v1beta/models/m:streamGenerateContent"))).toEqual({ array: true });
    expect(geminiFormOf(undefined, new URL("http://x/v1beta/models/m:streamGenerateContent?alt=sse"))).toEqual({ array: false });
    expect(geminiFormOf(undefined, new URL("http://x/v1beta/models/m:generateContent"))).toEqual({ array: false });
    expect(geminiFormOf("request", new URL("http://x/v1internal:streamGenerateContent?alt=sse"))).toEqual({ request: "request", answer: "response", array: false });
  });
});

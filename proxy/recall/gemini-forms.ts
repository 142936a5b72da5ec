/**
 * The forms a Gemini request and its answer come in, for the recall loop: plain (the Gemini API and
 * Vertex AI) or inside Code Assist's envelope (Gemini CLI signed in with Google: the request under
 * `request`, each answer and each streamed chunk under `response`, beside fields such as `traceId`);
 * a stream as server-sent events (`alt=sse`) or as one JSON array of chunks written as they come
 * (`streamGenerateContent` without it). The loop's rules stay in gemini.ts: here only the opening
 * and closing of the envelope and the framing of a stream's chunks.
 */
import { StringDecoder } from "node:string_decoder";
import { sseText } from "./sse.js";
import type { SseEvent } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** Code Assist's envelope: the member that holds the request, and the one that holds each answer. */
const CODE_ASSIST = { request: "request", answer: "response" } as const;

export interface GeminiForm {
  /** The answer's member that holds the Gemini answer (Code Assist's `response`); absent: the answer itself. */
  readonly answer?: string;
  /** The request's member that holds the Gemini request (Code Assist's `request`). */
  readonly request?: string;
  /** A stream sent as one JSON array of chunks. */
  readonly array: boolean;
}

/** The form of a route's answers: `envelope` is the route's request member (Code Assist's), `url` the request's. */
export function geminiFormOf(envelope: string | undefined, url: URL): GeminiForm {
  const array = url.pathname.endsWith(":streamGenerateContent") && url.searchParams.get("alt") !== "sse";
  return envelope === CODE_ASSIST.request ? { ...CODE_ASSIST, array } : { array };
}

/** The Gemini answer inside `a` (null: an enveloped chunk with none, such as an error, which goes on as it came). */
export function opened(a: Obj, form: GeminiForm): Obj | null {
  if (form.answer === undefined) return a;
  const inner = a[form.answer];
  return isObj(inner) ? inner : null;
}

/** `inner` in the envelope `outer` came in (its other fields kept). */
export function closed(inner: Obj, outer: Obj, form: GeminiForm): Obj {
  return form.answer === undefined ? inner : { ...outer, [form.answer]: inner };
}

/** A stream's chunks as the form writes them: SSE events, or the elements of one JSON array. */
export class ChunkWriter {
  private written = 0;

  constructor(private readonly write: (text: string) => void, private readonly array: boolean) {}

  /** One chunk: an object, or the text of one as it came. */
  chunk(event: string | undefined, data: unknown): void {
    if (!this.array) return this.write(sseText(event, data));
    this.write((this.written++ === 0 ? "[" : ",\r\n") + (typeof data === "string" ? data : JSON.stringify(data)));
  }

  /** The stream's end: an array closes. */
  end(): void {
    if (this.array) this.write(this.written === 0 ? "[]" : "]");
  }
}

/** A JSON array's elements read as they arrive (a chunk may end anywhere, inside a string or a character too), each given as an event's data. */
export class ArrayReader {
  private readonly decoder = new StringDecoder("utf8");
  private buffered = "";
  private at = 0;
  private start = -1;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly emit: (e: SseEvent) => void) {}

  push(chunk: Buffer): void {
    this.scan(this.decoder.write(chunk));
  }

  end(): void {
    this.scan(this.decoder.end());
  }

  private scan(text: string): void {
    this.buffered += text;
    for (; this.at < this.buffered.length; this.at++) this.step(this.buffered.charCodeAt(this.at));
    // What is kept: the element under way, nothing between elements.
    const keep = this.start < 0 ? this.buffered.length : this.start;
    this.buffered = this.buffered.slice(keep);
    this.at -= keep;
    if (this.start >= 0) this.start = 0;
  }

  private step(c: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === 0x5c) this.escaped = true;
      else if (c === 0x22) this.inString = false;
      return;
    }
    if (c === 0x22) this.inString = true;
    else if (c === 0x7b || c === 0x5b) {
      // Depth 1 is the array itself; an element opens at depth 2.
      if (++this.depth === 2) this.start = this.at;
    } else if (c === 0x7d || c === 0x5d) {
      if (this.depth-- === 2 && this.start >= 0) {
        this.emit({ event: undefined, data: this.buffered.slice(this.start, this.at + 1) });
        this.start = -1;
      }
    }
  }
}

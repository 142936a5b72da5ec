/**
 * The provider's own token counts, read from an answer as it streams past. The reader sees a copy
 * of each chunk after it was written to the client: it never holds a byte back, reorders or
 * changes one. Server-sent events are read line by line (a line may arrive split anywhere, even
 * inside a UTF-8 character); a JSON answer is read once it has all arrived; a gzip, deflate or br
 * answer is decoded at its end, for the reader only.
 *
 * Counts are kept in one shape for the four APIs, `input` being the input tokens not read from
 * the cache (Anthropic's `input_tokens`; OpenAI's `prompt_tokens` or `input_tokens` minus their
 * `cached_tokens`; Gemini's `promptTokenCount` minus its `cachedContentTokenCount`), so that
 * input + cacheRead + cacheWrite is the whole prompt for each. Gemini bills thinking as output:
 * `thoughtsTokenCount` is added to `candidatesTokenCount`.
 */
import { decoderOf, IDENTITY, type Decode } from "../encoding.js";

export interface Usage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({ input: 0, cacheRead: 0, cacheWrite: 0, output: 0 });

export function addUsage(into: Usage, u: Readonly<Usage>): void {
  into.input += u.input;
  into.cacheRead += u.cacheRead;
  into.cacheWrite += u.cacheWrite;
  into.output += u.output;
}

/** The whole prompt the provider counted. */
export const promptTokens = (u: Readonly<Usage>): number => u.input + u.cacheRead + u.cacheWrite;

/** The last value seen of each field a provider reports (Anthropic's message_delta repeats them cumulatively). */
interface Fields {
  input_tokens?: number;
  prompt_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  cached_tokens?: number;
  output_tokens?: number;
  completion_tokens?: number;
  promptTokenCount?: number;
  cachedContentTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

const COUNT_KEYS = [
  "input_tokens", "prompt_tokens", "cache_read_input_tokens", "cache_creation_input_tokens", "output_tokens", "completion_tokens",
  "promptTokenCount", "cachedContentTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "toolUsePromptTokenCount",
] as const;
const count = (v: unknown): number | undefined => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Where a usage object sits in each API's answers and events (Gemini's `usageMetadata`, Code Assist's under `response`). */
function usageIn(v: unknown): Record<string, unknown> | undefined {
  if (!isRecord(v)) return undefined;
  const response = isRecord(v.response) ? v.response : undefined;
  for (const u of [v.usage, isRecord(v.message) ? v.message.usage : undefined, response?.usage, v.usageMetadata, response?.usageMetadata]) {
    if (isRecord(u)) return u;
  }
  return undefined;
}

function merge(into: Fields, u: Record<string, unknown>): void {
  for (const k of COUNT_KEYS) {
    const n = count(u[k]);
    if (n !== undefined) into[k] = n;
  }
  for (const details of [u.prompt_tokens_details, u.input_tokens_details]) {
    const n = isRecord(details) ? count(details.cached_tokens) : undefined;
    if (n !== undefined) into.cached_tokens = n;
  }
}

function normalised(f: Fields): Usage | null {
  if (f.promptTokenCount !== undefined || f.candidatesTokenCount !== undefined) {
    const prompt = (f.promptTokenCount ?? 0) + (f.toolUsePromptTokenCount ?? 0);
    const cached = Math.min(f.cachedContentTokenCount ?? 0, prompt);
    return { input: prompt - cached, cacheRead: cached, cacheWrite: 0, output: (f.candidatesTokenCount ?? 0) + (f.thoughtsTokenCount ?? 0) };
  }
  const prompt = f.prompt_tokens ?? f.input_tokens;
  const output = f.completion_tokens ?? f.output_tokens;
  if (prompt === undefined && output === undefined) return null;
  if (f.cached_tokens !== undefined || f.prompt_tokens !== undefined) {
    const cached = Math.min(f.cached_tokens ?? 0, prompt ?? 0);
    return { input: (prompt ?? 0) - cached, cacheRead: cached, cacheWrite: 0, output: output ?? 0 };
  }
  return { input: prompt ?? 0, cacheRead: f.cache_read_input_tokens ?? 0, cacheWrite: f.cache_creation_input_tokens ?? 0, output: output ?? 0 };
}

/** Beyond this many bytes of one event line or one JSON answer the reader stops reading (the answer goes on). */
const MAX_HELD = 16 * 1024 * 1024;
const NEWLINE = 0x0a;
// Names `"usage"` and Gemini's `"usageMetadata"` alike.
const USAGE_KEY = '"usage';

/** Where Anthropic's `input_transformations` sit: the message, message_start's message, a message_delta (which replaces it). */
function transformationsIn(v: unknown): unknown[] | undefined {
  if (!isRecord(v)) return undefined;
  for (const t of [v.input_transformations, isRecord(v.message) ? v.message.input_transformations : undefined, isRecord(v.delta) ? v.delta.input_transformations : undefined]) {
    if (Array.isArray(t)) return t;
  }
  return undefined;
}

/** Reads decoded answer bytes: SSE lines or one JSON document. */
export class UsageParser {
  private readonly fields: Fields = {};
  /** Thinking blocks the provider dropped from the request (its `input_transformations`), when it said. */
  thinkingDropped: number | null = null;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private gaveUp = false;
  found = false;

  constructor(private readonly sse: boolean) {}

  push(chunk: Buffer): void {
    if (this.gaveUp) return;
    if (!this.sse) return this.hold(chunk);
    const first = chunk.indexOf(NEWLINE);
    if (first < 0) return this.hold(chunk);
    // The line the held bytes began ends here.
    if (this.heldBytes > 0) {
      this.held.push(chunk.subarray(0, first));
      this.line(Buffer.concat(this.held, this.heldBytes + first));
      this.held = [];
      this.heldBytes = 0;
    } else this.line(chunk.subarray(0, first));
    // The complete lines after it: only those naming a usage field are looked at, found by one search.
    const last = chunk.lastIndexOf(NEWLINE);
    for (let at = chunk.indexOf(USAGE_KEY, first + 1); at >= 0 && at < last; at = chunk.indexOf(USAGE_KEY, at)) {
      const start = chunk.lastIndexOf(NEWLINE, at) + 1;
      const end = chunk.indexOf(NEWLINE, at);
      this.line(chunk.subarray(start, end));
      at = end + 1;
    }
    if (last + 1 < chunk.length) this.hold(chunk.subarray(last + 1));
  }

  /** The answer ended: a JSON answer is read now, an unfinished event line too. */
  end(): Usage | null {
    if (!this.gaveUp && this.heldBytes > 0) {
      const rest = Buffer.concat(this.held, this.heldBytes);
      if (this.sse) this.line(rest);
      else this.json(rest.toString("utf8"));
    }
    this.held = [];
    this.heldBytes = 0;
    return this.found ? normalised(this.fields) : null;
  }

  private hold(piece: Buffer): void {
    this.heldBytes += piece.length;
    if (this.heldBytes > MAX_HELD) {
      this.gaveUp = true;
      this.held = [];
      this.heldBytes = 0;
      return;
    }
    // A copy: the chunk's memory belongs to the stream.
    this.held.push(Buffer.from(piece));
  }

  private line(bytes: Buffer): void {
    // Only data lines that name a usage field are parsed (a quoted "usage" inside a string is escaped).
    if (bytes.length < 6 || bytes[0] !== 0x64 /* d */ || bytes.indexOf(USAGE_KEY) < 0) return;
    const text = bytes.toString("utf8");
    if (!text.startsWith("data:")) return;
    this.json(text.slice(5));
  }

  private json(text: string): void {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return;
    }
    const t = transformationsIn(v);
    if (t !== undefined) this.thinkingDropped = t.filter((x) => isRecord(x) && x.type === "thinking_dropped").length;
    // Gemini's stream without alt=sse is one JSON array of the chunks: each carries the counts so far.
    for (const item of Array.isArray(v) ? v : [v]) {
      const u = usageIn(item);
      if (u === undefined) continue;
      merge(this.fields, u);
      this.found = true;
    }
  }
}

/** The most an encoded answer may decode to for reading. */
const MAX_DECODED = 4 * MAX_HELD;

/**
 * A reader for one answer, fed the bytes as they pass. `done` resolves with the usage found (null
 * when none) once the answer has ended. An encoded answer's bytes are kept (up to the bound) and
 * decoded once at its end: one call costs less than a decoding stream fed piece by piece.
 */
export class UsageTap {
  private readonly parser: UsageParser;
  private readonly decode: Decode | null;
  private readonly encoded: Buffer[] = [];
  private encodedBytes = 0;
  private finished = false;
  private resolveDone!: (u: Usage | null) => void;
  readonly done: Promise<Usage | null>;

  constructor(contentType: string | undefined, contentEncoding: string | undefined) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.parser = new UsageParser(/event-stream/i.test(contentType ?? ""));
    const decode = decoderOf(contentEncoding);
    this.decode = decode === IDENTITY ? null : decode;
    if (decode === null) this.finish(null); // an encoding this runtime cannot read
  }

  /** Thinking blocks the provider dropped from the request, as its answer said (0 when it said nothing). */
  get thinkingDropped(): number {
    return this.parser.thinkingDropped ?? 0;
  }

  push(chunk: Buffer): void {
    if (this.finished) return;
    if (this.decode === null) return this.parser.push(chunk);
    this.encodedBytes += chunk.length;
    if (this.encodedBytes > MAX_HELD) return this.finish(null);
    this.encoded.push(Buffer.from(chunk));
  }

  /** The answer ended (complete or not). */
  end(): void {
    if (this.finished) return;
    if (this.decode !== null) {
      try {
        this.parser.push(this.decode(Buffer.concat(this.encoded, this.encodedBytes), { maxOutputLength: MAX_DECODED }));
      } catch {
        return this.finish(null);
      }
    }
    this.finish(this.parser.end());
  }

  private finish(u: Usage | null): void {
    if (this.finished) return;
    this.finished = true;
    this.encoded.length = 0;
    this.resolveDone(u);
  }
}

/** What the recall loop asks of each API: reading the model's turn, answering its calls, and the client's one answer. */
import type { RecallAnswer } from "../../core/index.js";

/** One call the model made in its turn. */
export interface ModelCall {
  readonly id: string;
  readonly name: string;
  readonly args: unknown;
}

/** The model's turn, once its message ended. */
export interface ModelTurn {
  readonly calls: readonly ModelCall[];
  /** What the turn adds to the conversation, as the provider requires it back (thinking and its signatures, reasoning items, thought signatures). */
  readonly items: readonly unknown[];
}

/** What answers a call: a recall's answer, or null for a client's call the proxy did not run. */
export type CallAnswer = RecallAnswer | null;

/** The text a client's call gets when it was made beside a recall: the model re-plans with what the recall gave. */
export const NOT_RUN =
  "Not run: this call was made in the same turn as cliff_recall, whose answer came first. Read that answer, then make this call again if it is still needed.";

/** One API's side of the loop. */
export interface RecallApi {
  /** Where the request keeps its conversation (`messages`, `input`, `contents`). */
  readonly listKey: string;
  /** The body's member that holds the request, conversation and tools (Code Assist's `request`); absent: the body itself. */
  readonly envelope?: string;
  /** How a stream that is not server-sent events (a Gemini stream as one JSON array) is read: its chunks given as events. */
  readonly streamReader?: (emit: (e: SseEvent) => void) => StreamReader;
  /** The model's turn in a whole (non-streamed) answer. */
  turnOf(answer: Record<string, unknown>): ModelTurn;
  /** The items that answer each of the turn's calls, in its order. */
  resultItems(turn: ModelTurn, answers: readonly CallAnswer[]): unknown[];
  /** The client's one answer from every round's (oldest first): the recall calls out, each round's lines in, the client's calls of earlier rounds out. */
  merged(answers: readonly Record<string, unknown>[], lines: readonly string[][]): Record<string, unknown>;
  /** A streamed answer written to the client as its rounds arrive. */
  stream(write: (chunk: string) => void): ApiStream;
}

/** A stream's bytes read as they arrive. */
export interface StreamReader {
  push(chunk: Buffer): void;
  end(): void;
}

/** One server-sent event. */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** A streamed answer across its rounds. */
export interface ApiStream {
  /** One event of the current round's answer: text and thinking go on at once, calls are held. */
  event(e: SseEvent): void;
  /** The round's answer ended: its turn, or null when it ended without a whole message (what was held goes on as it is). */
  ended(): ModelTurn | null;
  /** A recall round is answered: the lines go into the client's answer, the round's own calls are dropped, the next round follows. */
  next(lines: readonly string[]): void;
  /** No more rounds: what was held goes on (less the recall calls), and the message ends. */
  finish(): void;
  /** The next round was refused by a refusal we caused: the lines (in place of the round's recall lines) go in, and the message ends as `finish` ends it. */
  end(lines: readonly string[]): void;
  /** The next round's upstream refused for a reason not ours: the client's answer ends with an error in the API's shape. */
  fail(message: string): void;
}

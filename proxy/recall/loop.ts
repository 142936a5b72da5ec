/**
 * The recall loop: while the model's answer calls `cliff_recall`, the proxy answers the call from
 * the request's own history, sends the model's turn and the answers back to it, and goes on; the
 * client receives one answer with no trace of the calls, one line per recall in their place. A
 * call of the client's made beside a recall is not run: the model is told so and re-plans. At
 * most MAX_RECALL_ROUNDS rounds per client request; a recall asked past them is left out. A later
 * round the upstream refuses with a refusal we caused never reaches the client as a failure: a
 * whole answer falls back to the client's own request (the handler sends it, as for a first body),
 * a stream ends as one answer with the recall left unanswered and a line that says so.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerRecall, RECALL_TOOL_NAME, recallLine, unansweredLine, type RecallAnswer, type RecallTexts } from "../../core/index.js";
import { editedMember, ERROR_BODY_LIMIT, valueText, withValue, type OurRefusal } from "../decision/index.js";
import { SseReader } from "./sse.js";
import type { ApiStream, CallAnswer, ModelTurn, RecallApi, SseEvent, StreamReader } from "./types.js";

/** Recall rounds one client request may take. */
export const MAX_RECALL_ROUNDS = 3;

const ANSWER_LIMIT = 64 * 1024 * 1024;

/** What the line of a recall the model never got the answer to says stopped it. */
const REFUSED_WHY = "the provider refused the request";

/** A recall round refused by a refusal we caused: the round (1 for the first after the model's first answer). `unanswered`: the stream ended without the recall; absent, nothing reached the client and the client's own request is to be sent. */
export interface RoundRefused extends OurRefusal {
  readonly round: number;
  readonly unanswered?: true;
}

export interface LoopContext {
  readonly api: RecallApi;
  /** The body that went upstream: the compacted request with the tool offered. */
  readonly body: Buffer;
  /** Sends a further round's body as the first went. */
  readonly send: (body: Buffer) => Promise<IncomingMessage>;
  /** An answer's headers as they go on to the client (hop-by-hop ones out). */
  readonly headers: (upstream: IncomingMessage) => Record<string, string | string[]>;
  /** The texts the request's history holds (made when first asked). */
  readonly texts: () => RecallTexts;
  /** Each further round's answer, as it starts (its usage is counted). */
  readonly onRound: (upstream: IncomingMessage) => void;
  /** Each recall answered. */
  readonly onRecall: (answer: RecallAnswer) => void;
  /** A further round's refusal when it is one we caused (the handler's rule, with its fallback on), else null. */
  readonly ours: (upstream: IncomingMessage, body: Buffer, complete: boolean) => OurRefusal | null;
}

/** The continuation: the conversation sent so far with `items` after it. */
export function continued(body: string, key: string, items: readonly unknown[]): string {
  let list = valueText(body, key) ?? "[]";
  // A Responses `input` may be one string: the user's message.
  if (list.startsWith('"')) list = `[{"role":"user","content":${list}}]`;
  const close = list.lastIndexOf("]");
  const empty = list.slice(1, close).trim() === "";
  const added = items.map((i) => JSON.stringify(i)).join(",");
  return withValue(body, key, list.slice(0, close) + (empty ? "" : ",") + added + "]") ?? body;
}

/** The continuation of `body` in `api`'s form: inside its envelope when it has one. */
function continuedIn(api: RecallApi, body: string, items: readonly unknown[]): string {
  if (api.envelope === undefined) return continued(body, api.listKey, items);
  return editedMember(body, api.envelope, (request) => continued(request, api.listKey, items)) ?? body;
}

/** The recalls of a turn answered; the client's calls beside them left unrun. Null: the turn made no recall. */
function answered(turn: ModelTurn, c: LoopContext): { answers: CallAnswer[]; lines: string[] } | null {
  if (!turn.calls.some((x) => x.name === RECALL_TOOL_NAME)) return null;
  const lines: string[] = [];
  const answers = turn.calls.map((call): CallAnswer => {
    if (call.name !== RECALL_TOOL_NAME) return null;
    const a = answerRecall(call.args, c.texts());
    c.onRecall(a);
    lines.push(recallLine(a));
    return a;
  });
  return { answers, lines };
}

function clientHeaders(c: LoopContext, upstream: IncomingMessage): Record<string, string | string[]> {
  const h = { ...c.headers(upstream) };
  delete h["content-encoding"];
  delete h["content-length"];
  return h;
}

/** A whole answer, up to `limit` bytes (complete: it all came). */
function readAll(upstream: IncomingMessage, limit: number): Promise<{ bytes: Buffer; complete: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = (complete: boolean): void => resolve({ bytes: Buffer.concat(chunks), complete });
    upstream.on("data", (c: Buffer) => {
      if ((total += c.length) <= limit) chunks.push(c);
    });
    upstream.on("end", () => done(total <= limit));
    upstream.on("error", () => done(false));
  });
}

/** The next round: the conversation so far with the turn and its answers, sent upstream. */
async function nextRound(c: LoopContext, body: { text: string }, turn: ModelTurn, answers: CallAnswer[]): Promise<IncomingMessage> {
  body.text = continuedIn(c.api, body.text, [...turn.items, ...c.api.resultItems(turn, answers)]);
  const upstream = await c.send(Buffer.from(body.text, "utf8"));
  c.onRound(upstream);
  return upstream;
}

/** The loop over a whole (non-streamed) answer: the client gets one JSON answer, or a later round's refusal as it came unless it is ours (then nothing is written). */
async function loopJson(first: IncomingMessage, res: ServerResponse, c: LoopContext): Promise<RoundRefused | null> {
  const body = { text: c.body.toString("utf8") };
  const answers: Record<string, unknown>[] = [];
  const lines: string[][] = [];
  let upstream = first;
  for (let round = 0; ; round++) {
    const read = await readAll(upstream, ANSWER_LIMIT);
    const bytes = read.bytes;
    let answer: unknown = null;
    try {
      answer = JSON.parse(bytes.toString("utf8"));
    } catch {
      // relayed as it came
    }
    const ok = (upstream.statusCode ?? 0) < 300 && read.complete && answer !== null && typeof answer === "object" && !Array.isArray(answer);
    if (!ok) {
      const refused = c.ours(upstream, bytes, read.complete);
      if (refused !== null) return { ...refused, round };
      res.writeHead(upstream.statusCode ?? 502, clientHeaders(c, upstream));
      res.end(bytes);
      return null;
    }
    answers.push(answer as Record<string, unknown>);
    const turn = c.api.turnOf(answer as Record<string, unknown>);
    const recall = round < MAX_RECALL_ROUNDS ? answered(turn, c) : null;
    if (recall === null) {
      const out = Buffer.from(JSON.stringify(c.api.merged(answers, lines)), "utf8");
      res.writeHead(first.statusCode ?? 200, { ...clientHeaders(c, first), "content-length": String(out.length) });
      res.end(out);
      return null;
    }
    lines.push(recall.lines);
    upstream = await nextRound(c, body, turn, recall.answers);
  }
}

/** One round's events through the stream; resolves when the upstream's answer has ended. */
function pump(upstream: IncomingMessage, reader: StreamReader): Promise<void> {
  return new Promise((resolve) => {
    upstream.on("data", (chunk: Buffer) => reader.push(chunk));
    upstream.on("end", () => (reader.end(), resolve()));
    upstream.on("error", () => resolve());
    upstream.on("close", () => resolve());
  });
}

/** A further round refused: a refusal of ours ends the answer with the turn's recalls unanswered, any other ends it with an error. */
async function refusedRound(upstream: IncomingMessage, stream: ApiStream, c: LoopContext, turn: ModelTurn, round: number): Promise<RoundRefused | null> {
  const read = await readAll(upstream, ERROR_BODY_LIMIT);
  const refused = c.ours(upstream, read.bytes, read.complete);
  if (refused === null) {
    stream.fail(`cliffcompaction: the upstream refused a recall round (${upstream.statusCode}): ${read.bytes.toString("utf8").slice(0, 500)}`);
    return null;
  }
  stream.end(turn.calls.filter((x) => x.name === RECALL_TOOL_NAME).map((x) => unansweredLine(x.args, REFUSED_WHY)));
  return { ...refused, round, unanswered: true };
}

/** The loop over a streamed answer: text and thinking go on at once, calls wait for the message's end. */
async function loopStream(first: IncomingMessage, res: ServerResponse, c: LoopContext): Promise<RoundRefused | null> {
  res.writeHead(first.statusCode ?? 200, clientHeaders(c, first));
  const stream = c.api.stream((chunk) => void res.write(chunk));
  const body = { text: c.body.toString("utf8") };
  let upstream = first;
  let gone = false;
  res.on("close", () => {
    gone = true;
    upstream.destroy();
  });
  let refused: RoundRefused | null = null;
  for (let round = 0; !gone; round++) {
    const emit = (e: SseEvent): void => stream.event(e);
    await pump(upstream, c.api.streamReader?.(emit) ?? new SseReader(emit));
    const turn = stream.ended();
    const recall = turn === null || round >= MAX_RECALL_ROUNDS ? null : answered(turn, c);
    if (turn === null || recall === null || gone) {
      stream.finish();
      break;
    }
    upstream = await nextRound(c, body, turn, recall.answers);
    if ((upstream.statusCode ?? 0) >= 300) {
      refused = await refusedRound(upstream, stream, c, turn, round + 1);
      break;
    }
    stream.next(recall.lines);
  }
  res.end();
  return refused;
}

/** The client's answer to a request that offered the tool, from the upstream's first answer on; a round refused by a refusal of ours, or null. */
export function recallLoop(first: IncomingMessage, res: ServerResponse, c: LoopContext): Promise<RoundRefused | null> {
  const streamed = c.api.streamReader !== undefined || /event-stream/i.test(String(first.headers["content-type"] ?? ""));
  return streamed ? loopStream(first, res, c) : loopJson(first, res, c);
}

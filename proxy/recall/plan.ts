/**
 * Whether a request offers the recall tool, and its answer when it does. The tool goes with every
 * request that carries a cliff's summary (a function of the request, so warm = cold and replicas
 * agree) in an API the loop serves, unless the config turns it off or the client has a tool of
 * that name. The upstream is asked for plain bytes, as the loop reads every round.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RecallTexts, tokensOfChars, type Config, type DialectName, type PrepareContext, type RecallAnswer } from "../../core/index.js";
import type { OurRefusal, RecallRecord } from "../decision/index.js";
import { recallApiOf, type RecallRoute } from "./apis.js";
import { recallLoop, type RoundRefused } from "./loop.js";
import { withRecallTool } from "./offer.js";
import type { RecallApi } from "./types.js";

/** How the handler sends a further round and reads each answer. */
export interface Rounds {
  /** The body that went upstream first. */
  readonly body: Buffer;
  readonly send: (body: Buffer) => Promise<IncomingMessage>;
  readonly headers: (upstream: IncomingMessage) => Record<string, string | string[]>;
  /** Each answer's usage counted. */
  readonly read: (upstream: IncomingMessage) => void;
  /** A further round's refusal when it is one we caused, else null. */
  readonly ours: (upstream: IncomingMessage, body: Buffer, complete: boolean) => OurRefusal | null;
}

export interface RecallPlan {
  /** The outgoing body with the tool (the same body when it cannot be offered). */
  offer(body: Buffer): Buffer;
  /** What was recalled so far. */
  readonly record: RecallRecord;
  /** The client's answer, from the upstream's first answer on; `read` counts each round's usage. A round refused by a refusal of ours, or null. */
  answer(first: IncomingMessage, res: ServerResponse, rounds: Rounds): Promise<RoundRefused | null>;
}

/** The plan for a decided request, or null: no tool for it. `route`: where it goes (its envelope, its URL). */
export function recallPlan(cfg: Config, api: DialectName, prepared: PrepareContext | null, body: Buffer, route?: RecallRoute): RecallPlan | null {
  if (!cfg.recallTool || cfg.shadow || prepared === null || !prepared.modified || prepared.baseCut <= 0) return null;
  const loop = recallApiOf(api, prepared.body, route);
  if (loop === null || withRecallTool(api, body.toString("utf8"), loop.envelope) === null) return null;
  return new Plan(api, loop, prepared, cfg);
}

class Plan implements RecallPlan {
  readonly record: RecallRecord = { rounds: 0, calls: 0, tokens: 0 };
  private texts: RecallTexts | null = null;

  constructor(private readonly api: DialectName, private readonly loop: RecallApi, private readonly prepared: PrepareContext, private readonly cfg: Config) {}

  offer(body: Buffer): Buffer {
    const text = withRecallTool(this.api, body.toString("utf8"), this.loop.envelope);
    return text === null ? body : Buffer.from(text, "utf8");
  }

  answer(first: IncomingMessage, res: ServerResponse, rounds: Rounds): Promise<RoundRefused | null> {
    const read = rounds.read;
    read(first);
    const p = this.prepared;
    return recallLoop(first, res, {
      api: this.loop, body: rounds.body, send: rounds.send, headers: rounds.headers, ours: rounds.ours,
      texts: () => (this.texts ??= RecallTexts.of(p.messages, p.dialect, this.cfg, p.baseCut)),
      onRound: (u) => {
        this.record.rounds++;
        read(u);
      },
      onRecall: (a: RecallAnswer) => {
        this.record.calls++;
        this.record.tokens += tokensOfChars(a.text.length);
      },
    });
  }
}

/** The headers a request that offers the tool goes with: plain bytes asked for, as every round is read. */
export function plainAnswers<H extends Record<string, unknown>>(headers: H): H {
  return { ...headers, "accept-encoding": "identity" };
}

/**
 * A recall round the provider refuses, through `serve` against a scripted model told to refuse a
 * request that carries a recall's answer. A refusal the proxy caused (a 4xx about the body, or
 * about its length) never reaches the client as a failure: a whole answer falls back to the
 * client's own request, sent as it came, its answer relayed; a stream, whose text already reached
 * the client, ends as one well-formed answer with a line saying the recall could not be answered.
 * Either way the request's event says `fallback` and counts the rounds. A refusal about the client,
 * its quota or the provider's load (429) goes on as the client would have seen it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf } from "../../core/index.js";
import type { RunningProxy } from "../../proxy/index.js";
import { logLine } from "../../proxy/observe/index.js";
import { recallModel, recallsIn, type RecallModel, type Refusal, type Seen } from "../helpers/recall-model.js";
import { stepTexts } from "../helpers/recall-history.js";
import { recallProxy } from "../helpers/recall-proxy.js";

const TEXTS = stepTexts(8, 60, true);
const REF = refOf(TEXTS[1]);
const OURS: Refusal = { status: 400, type: "invalid_request_error", message: "messages.17.content.0: a rule nobody foresaw" };
const TOO_LONG: Refusal = { status: 400, type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" };
const THEIRS: Refusal = { status: 429, type: "rate_limit_error", message: "slow down" };
const couldNot = (what: string): string => `[cliffcompaction could not ${what}: the provider refused the request]`;

function anthropicMessages(): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
  TEXTS.forEach((t, i) => {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Running step ${i}.` }, { type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `make step${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: t }] });
  });
  return [...msgs, { role: "assistant", content: [{ type: "text", text: "All steps ran." }] }, { role: "user", content: "What did step 1 print?" }];
}

function chatMessages(): unknown[] {
  const msgs: unknown[] = [{ role: "system", content: "You are an agent." }, { role: "user", content: "Fix the build." }];
  TEXTS.forEach((t, i) => {
    msgs.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `make step${i}` }) } }] });
    msgs.push({ role: "tool", tool_call_id: `c${i}`, content: t });
  });
  return [...msgs, { role: "assistant", content: "All steps ran." }, { role: "user", content: "What did step 1 print?" }];
}

let model: RecallModel;
let proxy: RunningProxy;
const logs: string[] = [];
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  proxy = await recallProxy(model.url, { log: (l) => logs.push(l), logJson: true }, "/v1");
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/**
 * The model recalls `then.length + 1` times in a row (a ref, then each of `then`), and answers in
 * words once the request offers no recall tool (the client's own request); `refuse` decides which
 * requests the provider refuses.
 */
function scripted(refuse: (s: Seen) => Refusal | undefined, then: Record<string, unknown>[] = []): void {
  model.refused.length = 0;
  model.seen.length = 0;
  model.refuse = refuse;
  model.script = (s) => {
    if (!s.tools.includes("cliff_recall")) return { text: "Answered from the whole history." };
    const round = model.seen.length - 1;
    return { text: round === 0 ? "Let me look." : `Round ${round}.`, calls: [{ name: "cliff_recall", input: round === 0 ? { ref: REF } : then[round - 1] }] };
  };
}

const refusingRecalls = (r: Refusal) => (s: Seen): Refusal | undefined => (recallsIn(s).length > 0 ? r : undefined);

/** The request's event, once the proxy has written it (a session's warnings aside). */
async function eventOf(from: number): Promise<any> {
  const events = (): string[] => logs.slice(from).filter((l) => l.startsWith("{"));
  for (let i = 0; i < 100 && events().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  expect(events()).toHaveLength(1);
  return JSON.parse(events()[0]);
}

async function post(path: string, body: Record<string, unknown>): Promise<{ status: number; raw: string; event: any }> {
  const from = logs.length;
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", authorization: "Bearer k", "anthropic-version": "2023-06-01" }, body: JSON.stringify(body) });
  const raw = await r.text();
  return { status: r.status, raw, event: await eventOf(from) };
}

/** The provider's usage the status counts, over every session. */
async function usage(): Promise<{ input: number; output: number }> {
  const status = (await (await fetch(proxy.url + "/_cliff/status")).json()) as { sessions: { usage: { input: number; output: number } }[] };
  return status.sessions.reduce((t, s) => ({ input: t.input + s.usage.input, output: t.output + s.usage.output }), { input: 0, output: 0 });
}

const datas = (raw: string): string[] => raw.split("\n\n").filter((e) => e.trim() !== "").map((e) => e.split("\n").find((l) => l.startsWith("data: "))!.slice(6));

/** A streamed Anthropic message put together, its order checked: one start, blocks opened and closed in index order, one stop, no error. */
function anthropicStreamed(raw: string): any {
  const events = datas(raw).map((d) => JSON.parse(d));
  expect(events.map((e) => e.type)).not.toContain("error");
  expect(events.filter((e) => e.type === "message_start")).toHaveLength(1);
  expect(events.at(-1).type).toBe("message_stop");
  expect(events.filter((e) => e.type === "message_stop")).toHaveLength(1);
  const message = { ...events[0].message, content: [] as any[] };
  let open = -1;
  for (const e of events) {
    if (e.type === "content_block_start") {
      expect([e.index, open]).toEqual([message.content.length, -1]);
      message.content.push({ ...e.content_block });
      open = e.index;
    } else if (e.type === "content_block_delta") {
      expect(e.index).toBe(open);
      if (e.delta.type === "text_delta") message.content[open].text += e.delta.text;
    } else if (e.type === "content_block_stop") {
      expect(e.index).toBe(open);
      open = -1;
    } else if (e.type === "message_delta") Object.assign(message, e.delta, { usage: e.usage });
  }
  expect(open).toBe(-1);
  return message;
}

/** A streamed completion put together: one role delta, one finishing chunk, one `[DONE]` last, no error. */
function chatStreamed(raw: string): { content: string; finish: string; calls: unknown[] } {
  const all = datas(raw);
  expect(all.at(-1)).toBe("[DONE]");
  expect(all.filter((d) => d === "[DONE]")).toHaveLength(1);
  const chunks = all.slice(0, -1).map((d) => JSON.parse(d));
  expect(chunks.filter((c) => c.error !== undefined)).toEqual([]);
  expect(chunks.filter((c) => c.choices?.[0]?.delta?.role !== undefined)).toHaveLength(1);
  const finishing = chunks.filter((c) => c.choices?.[0]?.finish_reason);
  expect(finishing).toHaveLength(1);
  const deltas = chunks.map((c) => c.choices?.[0]?.delta ?? {});
  return { content: deltas.map((d) => d.content ?? "").join(""), finish: finishing[0].choices[0].finish_reason, calls: deltas.flatMap((d) => d.tool_calls ?? []) };
}

const anthropic = (stream: boolean): Record<string, unknown> => ({ model: "claude-sonnet-4-5", max_tokens: 1024, stream, tools: [{ name: "bash", description: "run", input_schema: { type: "object" } }], messages: anthropicMessages() });
const chat = (stream: boolean): Record<string, unknown> => ({ model: "gpt-5.5", stream, tools: [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }], messages: chatMessages() });

/** The client's own request reached the model as it came: its messages, its tools, no recall tool. */
function originalSent(s: Seen, sent: Record<string, unknown>): void {
  expect(s.tools).toEqual(["bash"]);
  expect(s.body.messages).toEqual(sent.messages);
}

for (const stream of [false, true]) {
  const how = stream ? "streamed" : "whole";
  describe(`Anthropic Messages, ${how}: a refused recall round`, () => {
    for (const [name, refusal] of [["a 400 the proxy caused", OURS], ["a refusal of its length", TOO_LONG]] as const) {
      it(`${name}: the client's answer is well formed, with no trace of the tool, and the event says fallback`, async () => {
        scripted(refusingRecalls(refusal));
        const sent = anthropic(stream);
        const before = await usage();
        const { status, raw, event } = await post("/v1/messages", sent);
        // Every answer's usage counted: the first round's, and the client's own request's after a whole answer's fallback.
        await expect.poll(async () => (await usage()).output - before.output).toBe(stream ? 10 : 20);
        expect((await usage()).input - before.input).toBe(stream ? 100 : 200);
        expect(status, raw).toBe(200);
        expect(raw).not.toContain("cliff_recall");
        expect(model.refused).toEqual([]);
        expect(recallsIn(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
        expect(event).toMatchObject({ action: "fallback", status: 200, recall: { rounds: 1, calls: 1 } });
        if (!stream) {
          expect(model.seen).toHaveLength(3);
          originalSent(model.seen[2], sent);
          const message = JSON.parse(raw);
          expect(message.content).toEqual([{ type: "text", text: "Answered from the whole history." }]);
          expect(message.stop_reason).toBe("end_turn");
          expect(event.refused).toEqual({ status: 400, type: "invalid_request_error", round: 1 });
          expect(event.messagesOut).toBe(event.messagesIn);
          return;
        }
        expect(model.seen).toHaveLength(2);
        const message = anthropicStreamed(raw);
        expect(message.content).toEqual([{ type: "text", text: "Let me look." }, { type: "text", text: couldNot(`recall ref ${REF}`) }]);
        expect(message.stop_reason).toBe("end_turn");
        expect(event.refused).toEqual({ status: 400, type: "invalid_request_error", round: 1, unanswered: true });
        expect(event.messagesOut).toBeLessThan(event.messagesIn);
      });
    }

    it("a refusal of the second round: the first recall's line stays, the second's says it could not be answered", async () => {
      scripted(() => (model.seen.length === 3 ? OURS : undefined), [{ search: "step2 line 4" }]);
      const sent = anthropic(stream);
      const { status, raw, event } = await post("/v1/messages", sent);
      expect(status, raw).toBe(200);
      expect(raw).not.toContain("cliff_recall");
      expect(event).toMatchObject({ action: "fallback", refused: { round: 2 }, recall: { rounds: 2, calls: 2 } });
      if (!stream) return originalSent(model.seen[3], sent);
      expect(model.seen).toHaveLength(3);
      expect(anthropicStreamed(raw).content.map((b: any) => b.text)).toEqual([
        "Let me look.",
        `[cliffcompaction recalled ref ${REF}, ${TEXTS[1].length.toLocaleString("en-US")} chars]`,
        "Round 1.",
        couldNot("search the earlier history"),
      ]);
    });

    it("a refusal about the client's quota (429) goes on as the client would have seen it, the original never sent", async () => {
      scripted(refusingRecalls(THEIRS));
      const { status, raw, event } = await post("/v1/messages", anthropic(stream));
      expect(model.seen).toHaveLength(2);
      expect(event.action).not.toBe("fallback");
      expect(event.refused).toBeUndefined();
      if (!stream) {
        expect(status).toBe(429);
        return void expect(JSON.parse(raw)).toEqual({ type: "error", error: { type: THEIRS.type, message: THEIRS.message } });
      }
      expect(status).toBe(200);
      expect(datas(raw).map((d) => JSON.parse(d)).at(-1)).toMatchObject({ type: "error" });
      expect(raw).toContain("(429)");
    });
  });

  describe(`OpenAI Chat Completions, ${how}: a refused recall round`, () => {
    it("a 400 the proxy caused: one well-formed completion with no trace of the tool, and the event says fallback", async () => {
      scripted(refusingRecalls(OURS));
      const sent = chat(stream);
      const { status, raw, event } = await post("/v1/chat/completions", sent);
      expect(status, raw).toBe(200);
      expect(raw).not.toContain("cliff_recall");
      expect(event).toMatchObject({ action: "fallback", status: 200, refused: { status: 400, type: "invalid_request_error", round: 1 }, recall: { rounds: 1, calls: 1 } });
      if (!stream) {
        expect(model.seen).toHaveLength(3);
        originalSent(model.seen[2], sent);
        const c = JSON.parse(raw);
        expect(c.choices[0].message.content).toBe("Answered from the whole history.");
        return void expect(c.choices[0].finish_reason).toBe("stop");
      }
      expect(model.seen).toHaveLength(2);
      const c = chatStreamed(raw);
      expect(c).toEqual({ content: `Let me look.\n\n${couldNot(`recall ref ${REF}`)}`, finish: "stop", calls: [] });
      expect(event.refused.unanswered).toBe(true);
    });

    it("a 429 goes on as the client would have seen it", async () => {
      scripted(refusingRecalls(THEIRS));
      const { status, raw, event } = await post("/v1/chat/completions", chat(stream));
      expect(model.seen).toHaveLength(2);
      expect(event.refused).toBeUndefined();
      if (!stream) return void expect(status).toBe(429);
      expect(datas(raw).filter((d) => d !== "[DONE]").map((d) => JSON.parse(d)).at(-1)).toMatchObject({ error: { type: "upstream_error" } });
    });
  });
}

describe("with the fallback turned off", () => {
  it("a refused recall round goes on as it came", async () => {
    const off = await recallProxy(model.url, { fallback: false });
    try {
      scripted(refusingRecalls(OURS));
      const r = await fetch(off.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify(anthropic(false)) });
      expect(r.status).toBe(400);
      expect(model.seen).toHaveLength(2);
    } finally {
      await off.close();
    }
  });
});

describe("the log line", () => {
  it("says which round was refused and what the client got instead", () => {
    const record = { api: "anthropic", messagesIn: 19, messagesOut: 19, tokensIn: 9000, tokensOut: 9000, action: "fallback" as const, escalations: 0, addedMs: 1, status: 200 };
    const at = new Date("2026-12-01T00:00:00Z");
    expect(logLine({ ...record, refused: { status: 400, type: "invalid_request_error", round: 2 } }, false, at)).toContain(" fallback (recall round 2 refused 400 invalid_request_error: sent the original) ");
    expect(logLine({ ...record, refused: { status: 400, type: null, round: 1, unanswered: true } }, false, at)).toContain(" fallback (recall round 1 refused 400 without a type: ended the answer without the recall) ");
    expect(logLine({ ...record, refused: { status: 400, type: "invalid_request_error" } }, false, at)).toContain(" fallback (compacted body refused 400 invalid_request_error: sent the original) ");
  });
});

/**
 * The recall loop through `serve`, Anthropic Messages, whole and streamed, against a scripted
 * model that refuses what the API refuses: a recall by ref brings back the exact bytes, a search,
 * a long text in pages, three rounds then a stop, a recall beside a client call, an unknown ref,
 * thinking signatures sent back intact; the client gets one well-formed answer with the recall
 * lines and no trace of the tool; --no-recall-tool offers nothing; warm = cold; two replicas alike.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf, resolveConfig, RECALL_PAGE_CHARS } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel, type Reply, type Seen } from "../helpers/recall-model.js";
import { stepLines, stepTexts } from "../helpers/recall-history.js";
import { recallProxy } from "../helpers/recall-proxy.js";

const TEXTS = stepTexts(8, 60, true);
TEXTS[2] = stepLines("long", 1500, true); // over a page
const REF = refOf(TEXTS[1]);

function history(question = "What did step 1 print on line 3?"): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
  TEXTS.forEach((t, i) => {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Running step ${i}.` }, { type: "tool_use", id: `tu_${i}`, name: "bash", input: { command: `make step${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: t }] });
  });
  msgs.push({ role: "assistant", content: [{ type: "text", text: "All steps ran." }] });
  msgs.push({ role: "user", content: question });
  return msgs;
}

const TOOLS = [{ name: "bash", description: "run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } }];

let model: RecallModel;
let proxy: RunningProxy;
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  proxy = await recallProxy(model.url);
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/** The client's answer, as one message: streamed events put together (and checked for order) or the JSON. */
async function ask(body: Record<string, unknown>, p = proxy): Promise<{ message: any; raw: string }> {
  const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" }, body: JSON.stringify(body) });
  const raw = await r.text();
  expect(r.status, raw).toBe(200);
  if (body.stream !== true) return { message: JSON.parse(raw), raw };
  const events = raw.split("\n\n").filter((e) => e.trim() !== "").map((e) => JSON.parse(e.split("\n").find((l) => l.startsWith("data: "))!.slice(6)));
  expect(events.filter((e) => e.type === "message_start")).toHaveLength(1);
  expect(events.filter((e) => e.type === "message_stop")).toHaveLength(1);
  const message = { ...events[0].message, content: [] as any[] };
  let open = -1;
  for (const e of events) {
    if (e.type === "content_block_start") {
      expect(e.index).toBe(message.content.length);
      expect(open).toBe(-1);
      open = e.index;
      message.content.push({ ...e.content_block, ...(e.content_block.type === "tool_use" ? { input: "" } : {}) });
    } else if (e.type === "content_block_delta") {
      expect(e.index).toBe(open);
      const b = message.content[e.index];
      if (e.delta.type === "text_delta") b.text += e.delta.text;
      if (e.delta.type === "thinking_delta") b.thinking += e.delta.thinking;
      if (e.delta.type === "signature_delta") b.signature = e.delta.signature;
      if (e.delta.type === "input_json_delta") b.input += e.delta.partial_json;
    } else if (e.type === "content_block_stop") {
      expect(e.index).toBe(open);
      open = -1;
    } else if (e.type === "message_delta") Object.assign(message, e.delta, { usage: e.usage });
  }
  for (const b of message.content) if (b.type === "tool_use") b.input = JSON.parse(b.input || "{}");
  return { message, raw };
}

const body = (stream: boolean, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ model: "claude-sonnet-4-5", max_tokens: 1024, stream, tools: TOOLS, messages: history(), ...extra });
const recalls = (s: Seen): { name: string; text: string; isError: boolean }[] => s.results.filter((r) => r.name === "cliff_recall");

function scripted(first: (s: Seen) => Reply, then: (s: Seen, round: number) => Reply): void {
  model.refused.length = 0;
  model.seen.length = 0;
  model.script = (s) => {
    const round = s.results.filter((r) => r.name === "cliff_recall").length > 0 ? model.seen.length - 1 : 0;
    return round === 0 ? first(s) : then(s, round);
  };
}

for (const stream of [false, true]) {
  describe(`Anthropic Messages, ${stream ? "streamed" : "whole"}`, () => {
    it("a recall by ref: the exact bytes reach the model, the client gets one answer with the line and no trace of the tool", async () => {
      scripted(() => ({ thinking: "I need step 1's output.", text: "Let me look.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: `Line 3 was: ${recalls(s)[0].text.split("\n")[3]}` }));
      const { message, raw } = await ask(body(stream));
      expect(model.refused).toEqual([]);
      expect(model.seen).toHaveLength(2);
      expect(model.seen[0].tools).toEqual(["bash", "cliff_recall"]);
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
      expect(raw).not.toContain("cliff_recall");
      expect(raw).not.toContain("tool_use");
      expect(message.content.map((b: any) => b.type)).toEqual(["thinking", "text", "text", "text"]);
      expect(message.content[2].text).toBe(`[cliffcompaction recalled ref ${REF}, ${TEXTS[1].length.toLocaleString("en-US")} chars]`);
      expect(message.content[3].text).toBe(`Line 3 was: ${TEXTS[1].split("\n")[3]}`);
      expect(message.stop_reason).toBe("end_turn");
      expect(message.usage.output_tokens).toBe(20);
    });

    it("thinking with tool use: the turn goes back with its signed thinking first, and the upstream accepts every round", async () => {
      scripted(() => ({ thinking: "Recall first.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ thinking: "Now run it.", calls: [{ name: "bash", input: { command: "make" } }] }));
      const { message } = await ask(body(stream, { thinking: { type: "enabled", budget_tokens: 1024 } }));
      expect(model.refused).toEqual([]);
      const turn = model.seen[1].body.messages.at(-2);
      expect(turn.content.map((b: any) => b.type)).toEqual(["thinking", "tool_use"]);
      expect(message.content.map((b: any) => b.type)).toEqual(["thinking", "text", "thinking", "tool_use"]);
      expect(message.content[3]).toMatchObject({ name: "bash", input: { command: "make" } });
      expect(message.stop_reason).toBe("tool_use");
    });

    it("a search gives matching lines with their refs; a long text comes in pages", async () => {
      scripted(() => ({ calls: [{ name: "cliff_recall", input: { search: "step1 line 3:" } }] }), (s, round) => {
        const last = recalls(s)[0].text;
        if (round === 1) return { calls: [{ name: "cliff_recall", input: { ref: refOf(TEXTS[2]) } }] };
        const next = /"offset": (\d+)/.exec(last.split("\n")[0]);
        return next === null ? { text: "done" } : { calls: [{ name: "cliff_recall", input: { ref: refOf(TEXTS[2]), offset: Number(next[1]) } }] };
      });
      const { message } = await ask(body(stream));
      expect(model.refused).toEqual([]);
      expect(recalls(model.seen[1])[0].text).toContain(`${REF}:4: step1 line 3: value 21`);
      const pages = model.seen.slice(2).map((s) => recalls(s)[0].text);
      expect(pages).toHaveLength(2);
      expect(pages[0].split("\n")[0]).toContain("remain");
      const joined = pages.map((p) => p.slice(p.indexOf("\n") + 1)).join("");
      expect(joined.length).toBeGreaterThanOrEqual(2 * RECALL_PAGE_CHARS);
      expect(joined).toBe(TEXTS[2].slice(0, joined.length));
      expect(pages[0].length).toBeGreaterThan(RECALL_PAGE_CHARS);
      expect(message.content.filter((b: any) => b.type === "text" && b.text.startsWith("[cliffcompaction")).length).toBe(3);
    });

    it("three rounds, then a stop: a fourth recall is left out and the client's answer ends as a turn", async () => {
      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ text: "again", calls: [{ name: "cliff_recall", input: { ref: REF } }] }));
      const { message, raw } = await ask(body(stream));
      expect(model.seen).toHaveLength(4);
      expect(recalls(model.seen[3])[0].text).toBe(TEXTS[1]);
      expect(raw).not.toContain("cliff_recall");
      expect(message.stop_reason).toBe("end_turn");
      expect(message.content.filter((b: any) => b.type === "tool_use")).toEqual([]);
    });

    it("a recall beside a client call: the recall answered, the call not run, the model re-plans", async () => {
      scripted(() => ({ calls: [{ name: "bash", input: { command: "ls" } }, { name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "bash", input: { command: "make step1" } }] }));
      const { message } = await ask(body(stream));
      expect(model.refused).toEqual([]);
      const results = model.seen[1].results;
      expect(results.map((r) => [r.name, r.isError])).toEqual([["bash", true], ["cliff_recall", false]]);
      expect(results[0].text).toContain("Not run");
      expect(message.content.filter((b: any) => b.type === "tool_use").map((b: any) => b.input)).toEqual([{ command: "make step1" }]);
    });

    it("an unknown ref is a clear tool error", async () => {
      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: "0123456789ab" } }] }), () => ({ text: "I will run it again." }));
      await ask(body(stream));
      expect(recalls(model.seen[1])[0]).toMatchObject({ isError: true });
      expect(recalls(model.seen[1])[0].text).toContain("No text with ref 0123456789ab");
    });
  });
}

describe("what the proxy counts", () => {
  it("the metrics count every recall, the rounds they took and their tokens", async () => {
    const before = await (await fetch(proxy.url + "/_cliff/metrics")).text();
    const count = (text: string, name: string): number => Number(new RegExp(`cliffcompaction_${name}\\{api="anthropic"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }, { name: "cliff_recall", input: { search: "step2" } }] }), () => ({ text: "done" }));
    await ask(body(true));
    let after = before;
    for (let i = 0; i < 50 && count(after, "recalls_total") === count(before, "recalls_total"); i++) {
      await new Promise((r) => setTimeout(r, 20));
      after = await (await fetch(proxy.url + "/_cliff/metrics")).text();
    }
    expect(count(after, "recalls_total") - count(before, "recalls_total")).toBe(2);
    expect(count(after, "recall_rounds_total") - count(before, "recall_rounds_total")).toBe(1);
    expect(count(after, "recall_tokens_total") - count(before, "recall_tokens_total")).toBeGreaterThan(Math.floor(TEXTS[1].length / 4));
  });
});

describe("when the tool is offered", () => {
  it("not on a request without a cliff, not when the client has a tool of that name, not with --no-recall-tool", async () => {
    scripted(() => ({ text: "plain" }), () => ({ text: "?" }));
    await ask({ model: "claude-sonnet-4-5", max_tokens: 64, tools: TOOLS, messages: [{ role: "user", content: "hi" }] });
    expect(model.seen[0].tools).toEqual(["bash"]);
    const own = [...TOOLS, { name: "cliff_recall", description: "mine", input_schema: { type: "object" } }];
    await ask(body(false, { tools: own }));
    expect(model.seen[1].tools).toEqual(["bash", "cliff_recall"]);
    expect(model.seen[1].body.tools[1].description).toBe("mine");
    const off = await startProxy({ config: resolveConfig({ thresholdTokens: 3000, keepRecent: 1, archive: false, recallTool: false }), port: 0, upstreams: { anthropic: model.url, openai: model.url }, log: () => undefined });
    try {
      await ask(body(false), off);
      expect(model.seen[2].tools).toEqual(["bash"]);
      expect(JSON.stringify(model.seen[2].body)).toContain("summary of your previous actions");
    } finally {
      await off.close();
    }
  });

  it("the same tool bytes on every request of a session, warm or cold, and two replicas answer a recall alike", async () => {
    scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: String(recalls(s)[0].text.length) }));
    const other = await recallProxy(model.url);
    try {
      const full = history();
      const sent: string[][] = [[], []];
      for (let n = 13; n <= full.length; n += 2) {
        for (const [i, p] of [proxy, other].entries()) {
          // The second replica sees only every other request: cold where the first is warm.
          if (i === 1 && n % 4 === 1) continue;
          const from = model.seen.length;
          await ask({ model: "claude-sonnet-4-5", max_tokens: 64, tools: TOOLS, messages: [...full.slice(0, n), { role: "assistant", content: "Noted." }, { role: "user", content: `question ${n}` }] }, p);
          sent[i].push(...model.seen.slice(from).map((s) => JSON.stringify(s.body)));
        }
      }
      expect(model.refused).toEqual([]);
      const tools = new Set(model.seen.filter((s) => s.tools.includes("cliff_recall")).map((s) => JSON.stringify(s.body.tools)));
      expect(tools.size).toBe(1);
      expect(sent[1].length).toBeGreaterThanOrEqual(4);
      expect(sent[1].filter((s) => s.includes('"name":"cliff_recall","input"')).length).toBeGreaterThan(1);
      for (const s of sent[1]) expect(sent[0]).toContain(s);
    } finally {
      await other.close();
    }
  });
});

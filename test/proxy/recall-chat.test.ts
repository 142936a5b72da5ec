/**
 * The recall loop through `serve`, OpenAI Chat Completions (OpenCode's and Copilot CLI's API),
 * whole and streamed, against a scripted model that refuses a call left without its tool message:
 * a recall by ref brings back the exact bytes, reasoning goes back with the turn, a recall beside a
 * client call, three rounds then a stop, an unknown ref; one completion to the client, the recall
 * line in its text, no trace of the tool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf } from "../../core/index.js";
import type { RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel, type Reply, type Seen, recallsIn, scriptRecall } from "../helpers/recall-model.js";
import { stepTexts } from "../helpers/recall-history.js";
import { recallProxy } from "../helpers/recall-proxy.js";

const TEXTS = stepTexts(8, 70);
const REF = refOf(TEXTS[1]);

function messages(): unknown[] {
  const msgs: unknown[] = [{ role: "system", content: "You are an agent." }, { role: "user", content: "Fix the build." }];
  TEXTS.forEach((t, i) => {
    msgs.push({ role: "assistant", content: null, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `make step${i}` }) } }] });
    msgs.push({ role: "tool", tool_call_id: `c${i}`, content: t });
  });
  msgs.push({ role: "assistant", content: "All steps ran." }, { role: "user", content: "What did step 1 print?" });
  return msgs;
}

const TOOLS = [{ type: "function", function: { name: "bash", description: "run", parameters: { type: "object", properties: { command: { type: "string" } } } } }];

let model: RecallModel;
let proxy: RunningProxy;
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  proxy = await recallProxy(model.url, {}, "/v1");
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/** The client's completion: the streamed chunks put together, or the JSON. */
async function ask(stream: boolean): Promise<{ message: any; finish: string; raw: string; usage: any }> {
  const body = { model: "gpt-5.5", stream, ...(stream ? { stream_options: { include_usage: true } } : {}), tools: TOOLS, messages: messages() };
  const r = await fetch(proxy.url + "/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify(body) });
  const raw = await r.text();
  expect(r.status, raw).toBe(200);
  if (!stream) {
    const c = JSON.parse(raw);
    return { message: c.choices[0].message, finish: c.choices[0].finish_reason, raw, usage: c.usage };
  }
  const datas = raw.split("\n\n").filter((e) => e.trim() !== "").map((e) => e.slice(6));
  expect(datas.at(-1)).toBe("[DONE]");
  expect(datas.filter((d) => d === "[DONE]")).toHaveLength(1);
  const chunks = datas.slice(0, -1).map((d) => JSON.parse(d));
  const message: any = { content: "", tool_calls: [] };
  let finish = "";
  let usage: any;
  for (const c of chunks) {
    if (c.usage) usage = c.usage;
    const ch = c.choices[0];
    if (ch === undefined) continue;
    if (typeof ch.delta.content === "string") message.content += ch.delta.content;
    for (const t of ch.delta.tool_calls ?? []) message.tool_calls[t.index] = { ...(message.tool_calls[t.index] ?? {}), ...t };
    if (ch.finish_reason) finish = ch.finish_reason;
  }
  expect(chunks.filter((c) => c.choices[0]?.delta?.role !== undefined)).toHaveLength(1);
  return { message, finish, raw, usage };
}

const recalls = recallsIn;
const scripted = (first: (s: Seen) => Reply, then: (s: Seen) => Reply): void => scriptRecall(model, first, then);

for (const stream of [false, true]) {
  describe(`OpenAI Chat Completions, ${stream ? "streamed" : "whole"}`, () => {
    it("a recall by ref: the exact bytes reach the model, reasoning goes back with the turn, one completion with the line", async () => {
      scripted(() => ({ thinking: "Need step 1.", text: "Looking.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: `It printed ${recalls(s)[0].text.split("\n")[2]}` }));
      const { message, finish, raw, usage } = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[0].tools).toEqual(["bash", "cliff_recall"]);
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
      expect(model.seen[1].body.messages.at(-2)).toMatchObject({ role: "assistant", content: "Looking.", reasoning_content: "Need step 1." });
      expect(raw).not.toContain("cliff_recall");
      expect(raw).not.toContain("tool_calls\":[{");
      expect(message.content).toBe(`Looking.\n\n[cliffcompaction recalled ref ${REF}, ${TEXTS[1].length.toLocaleString("en-US")} chars]\n\nIt printed ${TEXTS[1].split("\n")[2]}`);
      expect(finish).toBe("stop");
      expect(usage.completion_tokens).toBe(20);
    });

    it("a recall beside a client call: the call not run, the model re-plans; three rounds, then a stop; an unknown ref", async () => {
      scripted(() => ({ calls: [{ name: "bash", input: { command: "ls" } }, { name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "bash", input: { command: "make" } }] }));
      const mixed = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[1].results.map((r) => [r.name, r.isError])).toEqual([["bash", true], ["cliff_recall", false]]);
      expect(mixed.message.tool_calls.map((c: any) => c.function.arguments)).toEqual(['{"command":"make"}']);
      expect(mixed.finish).toBe("tool_calls");

      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "cliff_recall", input: { ref: "0123456789ab" } }] }));
      const stop = await ask(stream);
      expect(model.seen).toHaveLength(4);
      expect(recalls(model.seen[2])[0].text).toMatch(/^Error: No text with ref 0123456789ab/);
      expect(stop.raw).not.toContain("cliff_recall");
      expect(stop.finish).toBe("stop");
    });
  });
}

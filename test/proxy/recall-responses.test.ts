/**
 * The recall loop through `serve`, OpenAI Responses (Codex's API), whole and streamed, against a
 * scripted model that refuses what the API refuses (a call without its reasoning item, item ids
 * when nothing is stored, an output without its call): a recall by ref brings back the exact
 * bytes, reasoning items go back intact, a recall beside a client call, three rounds then a stop;
 * the client gets one response with the recall line and no trace of the tool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf } from "../../core/index.js";
import type { RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel, type Reply, type Seen, recallsIn, scriptRecall } from "../helpers/recall-model.js";
import { stepTexts } from "../helpers/recall-history.js";
import { recallProxy } from "../helpers/recall-proxy.js";

const TEXTS = stepTexts(8, 70);
const REF = refOf(TEXTS[1]);

function input(): unknown[] {
  const items: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Fix the build." }] }];
  TEXTS.forEach((t, i) => {
    items.push({ type: "function_call", call_id: `c${i}`, name: "shell", arguments: JSON.stringify({ command: ["make", `step${i}`] }) });
    items.push({ type: "function_call_output", call_id: `c${i}`, output: t });
  });
  items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: "All steps ran." }] });
  items.push({ type: "message", role: "user", content: [{ type: "input_text", text: "What did step 1 print?" }] });
  return items;
}

const TOOLS = [{ type: "function", name: "shell", description: "run", parameters: { type: "object", properties: { command: { type: "array", items: { type: "string" } } } } }];

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

/** The client's response: the streamed events checked for order and put together, or the JSON. */
async function ask(stream: boolean): Promise<{ response: any; raw: string }> {
  const body = { model: "gpt-5.5", stream, store: false, include: ["reasoning.encrypted_content"], tools: TOOLS, input: input() };
  const r = await fetch(proxy.url + "/v1/responses", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify(body) });
  const raw = await r.text();
  expect(r.status, raw).toBe(200);
  if (!stream) return { response: JSON.parse(raw), raw };
  const events = raw.split("\n\n").filter((e) => e.trim() !== "").map((e) => JSON.parse(e.split("\n").find((l) => l.startsWith("data: "))!.slice(6)));
  expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  expect(events.filter((e) => e.type === "response.created")).toHaveLength(1);
  const added = events.filter((e) => e.type === "response.output_item.added").map((e) => e.output_index);
  expect(added).toEqual(added.map((_, i) => i));
  const done = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
  const completed = events.filter((e) => e.type === "response.completed");
  expect(completed).toHaveLength(1);
  expect(completed[0].response.output).toEqual(done);
  return { response: completed[0].response, raw };
}

const recalls = recallsIn;
const scripted = (first: (s: Seen) => Reply, then: (s: Seen) => Reply): void => scriptRecall(model, first, then);

for (const stream of [false, true]) {
  describe(`OpenAI Responses, ${stream ? "streamed" : "whole"}`, () => {
    it("a recall by ref with reasoning: the exact bytes reach the model, the reasoning item goes back before its call, one response to the client", async () => {
      scripted(() => ({ thinking: "Need step 1.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: `It printed ${recalls(s)[0].text.split("\n")[2]}` }));
      const { response, raw } = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[0].tools).toEqual(["shell", "cliff_recall"]);
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
      const sent = model.seen[1].body.input.slice(-3);
      expect(sent.map((i: any) => i.type)).toEqual(["reasoning", "function_call", "function_call_output"]);
      expect(sent.every((i: any) => i.id === undefined)).toBe(true);
      expect(raw).not.toContain("cliff_recall");
      expect(raw).not.toContain("function_call");
      expect(response.output.map((i: any) => i.type)).toEqual(["reasoning", "message", "message"]);
      expect(response.output[1].content[0].text).toBe(`[cliffcompaction recalled ref ${REF}, ${TEXTS[1].length.toLocaleString("en-US")} chars]`);
      expect(response.output[2].content[0].text).toBe(`It printed ${TEXTS[1].split("\n")[2]}`);
      expect(response.usage.output_tokens).toBe(20);
    });

    it("a recall beside a client call: the call not run, the model re-plans; three rounds, then a stop", async () => {
      scripted(() => ({ calls: [{ name: "shell", input: { command: ["ls"] } }, { name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "shell", input: { command: ["make"] } }] }));
      const { response } = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[1].results.map((r) => [r.name, r.isError])).toEqual([["shell", true], ["cliff_recall", false]]);
      expect(response.output.filter((i: any) => i.type === "function_call").map((i: any) => i.arguments)).toEqual(['{"command":["make"]}']);

      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "cliff_recall", input: { search: "step1 line 2" } }] }));
      const stop = await ask(stream);
      expect(model.seen).toHaveLength(4);
      expect(stop.raw).not.toContain("cliff_recall");
      expect(stop.response.output.filter((i: any) => i.type === "function_call")).toEqual([]);
    });

    it("an unknown ref is a clear tool error", async () => {
      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: "0123456789ab" } }] }), () => ({ text: "ok" }));
      await ask(stream);
      expect(recalls(model.seen[1])[0].text).toMatch(/^Error: No text with ref 0123456789ab/);
    });
  });
}

/**
 * The recall loop through `serve`, the Gemini API (generateContent and its SSE stream), against a
 * scripted model that refuses a call part without its thought signature or a turn whose responses
 * do not match its calls: a recall by ref brings back the exact bytes, signatures go back intact,
 * a recall beside a client call, three rounds then a stop; one answer, the line, no trace of the tool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf, resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel, type Reply, type Seen, recallsIn, scriptRecall } from "../helpers/recall-model.js";

const lines = (tag: string, n: number): string => Array.from({ length: n }, (_, i) => `${tag} line ${i}: value ${i * 7}`).join("\n");
const TEXTS = Array.from({ length: 8 }, (_, i) => lines(`step${i}`, 70));
const REF = refOf(TEXTS[1]);

function contents(): unknown[] {
  const out: unknown[] = [{ role: "user", parts: [{ text: "Fix the build." }] }];
  TEXTS.forEach((t, i) => {
    out.push({ role: "model", parts: [{ functionCall: { name: "run_shell_command", args: { command: `make step${i}` } } }] });
    out.push({ role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: { output: t } } }] });
  });
  out.push({ role: "model", parts: [{ text: "All steps ran." }] }, { role: "user", parts: [{ text: "What did step 1 print?" }] });
  return out;
}

const TOOLS = [{ functionDeclarations: [{ name: "run_shell_command", description: "run", parametersJsonSchema: { type: "object", properties: { command: { type: "string" } } } }] }];

let model: RecallModel;
let proxy: RunningProxy;
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 3000, keepRecent: 1, archive: false }), port: 0, upstreams: { gemini: model.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/** The client's answer as its parts: the streamed chunks' parts in order, or the JSON's. */
async function ask(stream: boolean): Promise<{ parts: any[]; raw: string; usage: any }> {
  const path = stream ? "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse" : "/v1beta/models/gemini-3-pro:generateContent";
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", "x-goog-api-key": "k" }, body: JSON.stringify({ contents: contents(), tools: TOOLS }) });
  const raw = await r.text();
  expect(r.status, raw).toBe(200);
  const chunks = stream ? raw.split(/\r?\n\r?\n/).filter((e) => e.trim() !== "").map((e) => JSON.parse(e.slice(6))) : [JSON.parse(raw)];
  const parts = chunks.flatMap((c) => c.candidates[0].content.parts).filter((p: any) => p.text !== "");
  expect(chunks.filter((c) => c.candidates[0].finishReason !== undefined)).toHaveLength(1);
  expect(chunks.at(-1).candidates[0].finishReason).toBe("STOP");
  return { parts, raw, usage: chunks.at(-1).usageMetadata };
}

const recalls = recallsIn;
const scripted = (first: (s: Seen) => Reply, then: (s: Seen) => Reply): void => scriptRecall(model, first, then);

for (const stream of [false, true]) {
  describe(`Gemini API, ${stream ? "streamed" : "whole"}`, () => {
    it("a recall by ref: the exact bytes reach the model, the call goes back with its thought signature, one answer with the line", async () => {
      scripted(() => ({ thinking: "Need step 1.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: `It printed ${recalls(s)[0].text.split("\n")[2]}` }));
      const { parts, raw, usage } = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[0].tools).toEqual(["run_shell_command", "cliff_recall"]);
      expect(model.seen[0].body.tools[0].functionDeclarations[1].parametersJsonSchema).toBeDefined();
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
      expect(raw).not.toContain("cliff_recall");
      expect(raw).not.toContain("functionCall");
      expect(parts.map((p) => p.text)).toEqual(["Need step 1.", `\n[cliffcompaction recalled ref ${REF}, ${TEXTS[1].length.toLocaleString("en-US")} chars]\n`, `It printed ${TEXTS[1].split("\n")[2]}`]);
      expect(usage.candidatesTokenCount).toBe(20);
    });

    it("a recall beside a client call, the call not run; three rounds, then a stop", async () => {
      scripted(() => ({ calls: [{ name: "run_shell_command", input: { command: "ls" } }, { name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "run_shell_command", input: { command: "make" } }] }));
      const mixed = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen[1].results.map((r) => [r.name, r.isError])).toEqual([["run_shell_command", true], ["cliff_recall", false]]);
      expect(mixed.parts.filter((p) => p.functionCall).map((p) => p.functionCall.args)).toEqual([{ command: "make" }]);

      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "cliff_recall", input: { search: "step1" } }] }));
      const stop = await ask(stream);
      expect(model.refused).toEqual([]);
      expect(model.seen).toHaveLength(4);
      expect(stop.raw).not.toContain("cliff_recall");
    });
  });
}

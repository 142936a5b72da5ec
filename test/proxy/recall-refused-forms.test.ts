/**
 * A recall round the provider refuses, in OpenAI Responses and in each Gemini form, through `serve`
 * against a scripted model told to refuse a request that carries a recall's answer with a 400 the
 * proxy caused: a whole answer falls back to the client's own request, its answer relayed; a stream
 * ends as one well-formed answer in its API's shape (Responses: one `response.completed` listing the
 * items given; Gemini: one last chunk with its finish reason, a JSON array closed) with a line saying
 * the recall could not be answered; the request's event says `fallback`. A 429 goes on as it came.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf, resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { recallModel, recallsIn, type RecallModel, type Refusal, type Seen } from "../helpers/recall-model.js";
import { stepTexts } from "../helpers/recall-history.js";

const TEXTS = stepTexts(8, 70);
const REF = refOf(TEXTS[1]);
const COULD_NOT = `[cliffcompaction could not recall ref ${REF}: the provider refused the request]`;

function responsesInput(): unknown[] {
  const items: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Fix the build." }] }];
  TEXTS.forEach((t, i) => {
    items.push({ type: "function_call", call_id: `c${i}`, name: "shell", arguments: JSON.stringify({ command: ["make", `step${i}`] }) });
    items.push({ type: "function_call_output", call_id: `c${i}`, output: t });
  });
  return [...items, { type: "message", role: "user", content: [{ type: "input_text", text: "What did step 1 print?" }] }];
}

function geminiContents(): unknown[] {
  const out: unknown[] = [{ role: "user", parts: [{ text: "Fix the build." }] }];
  TEXTS.forEach((t, i) => {
    out.push({ role: "model", parts: [{ functionCall: { name: "run_shell_command", args: { command: `make step${i}` } } }] });
    out.push({ role: "user", parts: [{ functionResponse: { name: "run_shell_command", response: { output: t } } }] });
  });
  return [...out, { role: "model", parts: [{ text: "All steps ran." }] }, { role: "user", parts: [{ text: "What did step 1 print?" }] }];
}

let model: RecallModel;
let proxy: RunningProxy;
const logs: string[] = [];
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  const config = resolveConfig({ thresholdTokens: 3000, keepRecent: 1, archive: false });
  proxy = await startProxy({ config, port: 0, upstreams: { openai: model.url + "/v1", gemini: model.url, codeassist: model.url }, log: (l) => logs.push(l), logJson: true });
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/** The model recalls a ref while the tool is offered and answers in words on the client's own request; `refusal` answers a request carrying the recall. */
function scripted(refusal: Refusal): void {
  model.refused.length = 0;
  model.seen.length = 0;
  model.refuse = (s) => (recallsIn(s).length > 0 ? refusal : undefined);
  model.script = (s: Seen) => (s.tools.includes("cliff_recall") ? { text: "Let me look.", calls: [{ name: "cliff_recall", input: { ref: REF } }] } : { text: "Answered from the whole history." });
}

const OURS: Refusal = { status: 400, type: "invalid_request_error", message: "a rule nobody foresaw" };
const THEIRS: Refusal = { status: 429, type: "rate_limit_error", message: "slow down" };

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; raw: string; event: any }> {
  const from = logs.length;
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k", ...headers }, body: JSON.stringify(body) });
  const raw = await r.text();
  const events = (): string[] => logs.slice(from).filter((l) => l.startsWith("{"));
  for (let i = 0; i < 100 && events().length === 0; i++) await new Promise((res) => setTimeout(res, 10));
  expect(events()).toHaveLength(1);
  return { status: r.status, raw, event: JSON.parse(events()[0]) };
}

const sseDatas = (raw: string): any[] => raw.split(/\r?\n\r?\n/).filter((e) => e.trim() !== "").map((e) => JSON.parse(e.split(/\r?\n/).find((l) => l.startsWith("data:"))!.replace(/^data: ?/, "")));

for (const stream of [false, true]) {
  describe(`OpenAI Responses, ${stream ? "streamed" : "whole"}: a refused recall round`, () => {
    const body = { model: "gpt-5.5", stream, store: false, tools: [{ type: "function", name: "shell", parameters: { type: "object" } }], input: responsesInput() };

    it("a 400 the proxy caused: one well-formed response with no trace of the tool, and the event says fallback", async () => {
      scripted(OURS);
      const { status, raw, event } = await post("/v1/responses", body);
      expect(status, raw).toBe(200);
      expect(raw).not.toContain("cliff_recall");
      expect(event).toMatchObject({ action: "fallback", status: 200, refused: { status: 400, type: "invalid_request_error", round: 1 }, recall: { rounds: 1, calls: 1 } });
      const texts = (output: any[]): string[] => output.flatMap((i: any) => (i.type === "message" ? i.content.map((c: any) => c.text) : [`(${i.type})`]));
      if (!stream) {
        expect(model.seen).toHaveLength(3);
        expect(model.seen[2].tools).toEqual(["shell"]);
        expect(model.seen[2].body.input).toEqual(body.input);
        return void expect(texts(JSON.parse(raw).output)).toEqual(["Answered from the whole history."]);
      }
      expect(model.seen).toHaveLength(2);
      const events = sseDatas(raw);
      expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
      expect(events.filter((e) => e.type === "response.created")).toHaveLength(1);
      expect(events.map((e) => e.type)).not.toContain("error");
      expect(events.at(-1).type).toBe("response.completed");
      const added = events.filter((e) => e.type === "response.output_item.added").map((e) => e.output_index);
      expect(added).toEqual(added.map((_, i) => i));
      const done = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item);
      expect(events.at(-1).response.output).toEqual(done);
      expect(texts(done)).toEqual(["Let me look.", COULD_NOT]);
      expect(event.refused.unanswered).toBe(true);
    });

    it("a 429 goes on as the client would have seen it", async () => {
      scripted(THEIRS);
      const { status, raw, event } = await post("/v1/responses", body);
      expect(model.seen).toHaveLength(2);
      expect(event.refused).toBeUndefined();
      if (!stream) return void expect(status).toBe(429);
      expect(sseDatas(raw).at(-1)).toMatchObject({ type: "error" });
    });
  });
}

const GEMINI = [
  { name: "Gemini API, whole", path: "/v1beta/models/gemini-3-pro:generateContent", codeAssist: false, framing: "json" },
  { name: "Gemini API, streamed (alt=sse)", path: "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse", codeAssist: false, framing: "sse" },
  { name: "Code Assist, streamed as one JSON array", path: "/v1internal:streamGenerateContent", codeAssist: true, framing: "array" },
] as const;

for (const form of GEMINI) {
  describe(`${form.name}: a refused recall round`, () => {
    const request = { contents: geminiContents(), tools: [{ functionDeclarations: [{ name: "run_shell_command", parametersJsonSchema: { type: "object" } }] }] };
    const body = form.codeAssist ? { model: "gemini-3-pro", project: "proj-1", user_prompt_id: "prompt-1", request } : request;

    it("a 400 the proxy caused: one answer in the client's form, its last chunk finished, and the event says fallback", async () => {
      scripted(OURS);
      const { status, raw, event } = await post(form.path, body, form.codeAssist ? {} : { "x-goog-api-key": "k" });
      expect(status, raw).toBe(200);
      expect(raw).not.toContain("cliff_recall");
      expect(event).toMatchObject({ action: "fallback", refused: { status: 400, type: "invalid_request_error", round: 1 }, recall: { rounds: 1, calls: 1 } });
      const outer: any[] = form.framing === "sse" ? sseDatas(raw) : form.framing === "array" ? JSON.parse(raw) : [JSON.parse(raw)];
      const chunks = form.codeAssist ? outer.map((c) => c.response) : outer;
      expect(chunks.filter((c) => c.candidates[0].finishReason !== undefined)).toHaveLength(1);
      expect(chunks.at(-1).candidates[0].finishReason).toBe("STOP");
      const texts = chunks.flatMap((c) => c.candidates[0].content.parts).map((p: any) => p.text).filter((t: string) => t !== "");
      if (form.framing === "json") {
        expect(model.seen).toHaveLength(3);
        expect(model.seen[2].tools).toEqual(["run_shell_command"]);
        return void expect(texts).toEqual(["Answered from the whole history."]);
      }
      expect(model.seen).toHaveLength(2);
      expect(texts).toEqual(["Let me look.", `\n${COULD_NOT}\n`]);
      expect(event.refused.unanswered).toBe(true);
    });
  });
}

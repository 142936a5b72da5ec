/**
 * The recall loop through `serve` in each form a Gemini request comes in: the Gemini API and Code
 * Assist (Gemini CLI signed in with Google: the request under `request`, each answer under
 * `response`), each whole, streamed as server-sent events (`alt=sse`) and streamed as one JSON array.
 * The scripted model refuses what the real one refuses: a call part without its thought signature,
 * a turn whose responses do not match its calls, two contents of one role in a row, and (Code
 * Assist) a field its envelope or its request does not know. A recall by ref brings back the exact
 * bytes, a search the matching lines, an unknown ref a clear error; signatures go back intact; a
 * recall beside a client call, three rounds then a stop; one answer in the client's form, the line,
 * no trace of the tool.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refOf, resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel, type Reply, type Seen, recallsIn, scriptRecall } from "../helpers/recall-model.js";
import { stepTexts } from "../helpers/recall-history.js";

const TEXTS = stepTexts(8, 70);
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

interface Form {
  name: string;
  path: string;
  codeAssist: boolean;
  framing: "json" | "sse" | "array";
}

const FORMS: Form[] = [
  { name: "Gemini API, whole", path: "/v1beta/models/gemini-3-pro:generateContent", codeAssist: false, framing: "json" },
  { name: "Gemini API, streamed (alt=sse)", path: "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse", codeAssist: false, framing: "sse" },
  { name: "Gemini API, streamed as one JSON array", path: "/v1beta/models/gemini-3-pro:streamGenerateContent", codeAssist: false, framing: "array" },
  { name: "Code Assist, whole", path: "/v1internal:generateContent", codeAssist: true, framing: "json" },
  { name: "Code Assist, streamed (alt=sse)", path: "/v1internal:streamGenerateContent?alt=sse", codeAssist: true, framing: "sse" },
  { name: "Code Assist, streamed as one JSON array", path: "/v1internal:streamGenerateContent", codeAssist: true, framing: "array" },
];

let model: RecallModel;
let proxy: RunningProxy;
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  const config = resolveConfig({ thresholdTokens: 3000, keepRecent: 1, archive: false });
  proxy = await startProxy({ config, port: 0, upstreams: { gemini: model.url, codeassist: model.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

/** The request in the form's body: Code Assist's envelope around it, or itself. */
function requestBody(form: Form): unknown {
  const request = { contents: contents(), tools: TOOLS };
  return form.codeAssist ? { model: "gemini-3-pro", project: "proj-1", user_prompt_id: "prompt-1", request: { ...request, session_id: "sess-1" } } : request;
}

/** The chunks of the client's answer in the form's framing, each in the envelope it must come in. */
function chunksOf(form: Form, raw: string): any[] {
  const chunks: any[] = form.framing === "sse" ? raw.split(/\r?\n\r?\n/).filter((e) => e.trim() !== "").map((e) => JSON.parse(e.replace(/^data: ?/, ""))) : form.framing === "array" ? JSON.parse(raw) : [JSON.parse(raw)];
  expect(Array.isArray(chunks)).toBe(true);
  if (!form.codeAssist) return chunks;
  for (const c of chunks) expect(Object.keys(c).sort(), JSON.stringify(c)).toEqual(["response", "traceId"]);
  return chunks.map((c) => c.response);
}

/** The client's answer as its parts: the chunks' parts in order; one finishing chunk, the last. */
async function ask(form: Form): Promise<{ parts: any[]; raw: string; usage: any }> {
  const headers = { "content-type": "application/json", ...(form.codeAssist ? { authorization: "Bearer ya29.test" } : { "x-goog-api-key": "k" }) };
  const r = await fetch(proxy.url + form.path, { method: "POST", headers, body: JSON.stringify(requestBody(form)) });
  const raw = await r.text();
  expect(r.status, raw).toBe(200);
  const chunks = chunksOf(form, raw);
  const parts = chunks.flatMap((c) => c.candidates[0].content.parts).filter((p: any) => p.text !== "");
  expect(chunks.filter((c) => c.candidates[0].finishReason !== undefined)).toHaveLength(1);
  expect(chunks.at(-1).candidates[0].finishReason).toBe("STOP");
  return { parts, raw, usage: chunks.at(-1).usageMetadata };
}

const recalls = recallsIn;

/** The proxy's Gemini recalls and recall rounds so far, from its metrics. */
async function counted(): Promise<{ recalls: number; rounds: number }> {
  const text = await (await fetch(proxy.url + "/_cliff/metrics")).text();
  const of = (name: string): number => Number(new RegExp(`^cliffcompaction_${name}\\{api="gemini"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return { recalls: of("recalls_total"), rounds: of("recall_rounds_total") };
}
const scripted = (first: (s: Seen) => Reply, then: (s: Seen) => Reply): void => scriptRecall(model, first, then);
const line = (text: string): string => `\n[cliffcompaction recalled ref ${REF}, ${text.length.toLocaleString("en-US")} chars]\n`;

for (const form of FORMS) {
  describe(form.name, () => {
    it("a recall by ref: the exact bytes reach the model, the call goes back with its thought signature, one answer with the line", async () => {
      scripted(() => ({ thinking: "Need step 1.", calls: [{ name: "cliff_recall", input: { ref: REF } }] }), (s) => ({ text: `It printed ${recalls(s)[0].text.split("\n")[2]}` }));
      const before = await counted();
      const { parts, raw, usage } = await ask(form);
      // The recall and its round counted, as in every API.
      await expect.poll(counted).toEqual({ recalls: before.recalls + 1, rounds: before.rounds + 1 });
      expect(model.refused).toEqual([]);
      expect(model.seen).toHaveLength(2);
      expect(model.seen[0].tools).toEqual(["run_shell_command", "cliff_recall"]);
      expect(model.seen[0].body.tools[0].functionDeclarations[1].parametersJsonSchema).toBeDefined();
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: TEXTS[1], isError: false }]);
      // The model's turn went back whole: its thought, then its call with the signature it was given.
      const turn = model.seen[1].body.contents.at(-2);
      expect(turn.role).toBe("model");
      expect(turn.parts.map((p: any) => (p.thought ? "thought" : p.functionCall ? `call ${p.functionCall.name}` : "text"))).toEqual(["thought", "call cliff_recall"]);
      expect(turn.parts[1].thoughtSignature).toMatch(/^sig-/);
      if (form.codeAssist) {
        // The envelope went out as the client sent it, on every round.
        for (const s of model.seen) expect([s.envelope!.model, s.envelope!.project, s.envelope!.user_prompt_id, s.body.session_id]).toEqual(["gemini-3-pro", "proj-1", "prompt-1", "sess-1"]);
      } else for (const s of model.seen) expect(s.envelope).toBeUndefined();
      expect(raw).not.toContain("cliff_recall");
      expect(raw).not.toContain("functionCall");
      expect(parts.map((p) => p.text)).toEqual(["Need step 1.", line(TEXTS[1]), `It printed ${TEXTS[1].split("\n")[2]}`]);
      expect(usage.candidatesTokenCount).toBe(20);
    });

    it("a search gives the matching lines with their refs; an unknown ref is a clear tool error", async () => {
      scripted(() => ({ calls: [{ name: "cliff_recall", input: { search: "STEP1 line 12:" } }] }), (s) => ({ text: recalls(s)[0].text.split("\n")[1] }));
      const search = await ask(form);
      expect(model.refused).toEqual([]);
      expect(recalls(model.seen[1])).toEqual([{ name: "cliff_recall", text: `1 matching line (ref:line: text); {"ref": "…"} gives a whole text:\n${REF}:13: step1 line 12: value 84`, isError: false }]);
      expect(search.parts.map((p) => p.text)).toEqual(["\n[cliffcompaction searched the earlier history, 1 matching line]\n", `${REF}:13: step1 line 12: value 84`]);

      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: "0123456789ab" } }] }), () => ({ text: "That text is gone." }));
      const unknown = await ask(form);
      expect(model.refused).toEqual([]);
      const [answer] = recalls(model.seen[1]);
      expect(answer.isError).toBe(true);
      expect(answer.text).toContain("0123456789ab");
      expect(unknown.raw).not.toContain("cliff_recall");
      expect(unknown.parts.at(-1).text).toBe("That text is gone.");
    });

    it("a recall beside a client call, the call not run; three rounds, then a stop", async () => {
      scripted(() => ({ calls: [{ name: "run_shell_command", input: { command: "ls" } }, { name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "run_shell_command", input: { command: "make" } }] }));
      const mixed = await ask(form);
      expect(model.refused).toEqual([]);
      expect(model.seen[1].results.map((r) => [r.name, r.isError])).toEqual([["run_shell_command", true], ["cliff_recall", false]]);
      const calls = mixed.parts.filter((p) => p.functionCall);
      expect(calls.map((p) => p.functionCall.args)).toEqual([{ command: "make" }]);
      // The client's call keeps the signature the model gave it, for the client to send back.
      expect(calls[0].thoughtSignature).toMatch(/^sig-/);

      scripted(() => ({ calls: [{ name: "cliff_recall", input: { ref: REF } }] }), () => ({ calls: [{ name: "cliff_recall", input: { search: "step1" } }] }));
      const stop = await ask(form);
      expect(model.refused).toEqual([]);
      expect(model.seen).toHaveLength(4);
      expect(stop.raw).not.toContain("cliff_recall");
    });
  });
}

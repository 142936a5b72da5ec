/**
 * The Gemini API side of the agents' recall script (Gemini CLI): a request read as the script's turn,
 * checked against the rules the real API refuses a body for (test/helpers/gemini-model.ts's
 * `geminiViolation`: user and model contents alternate, each function response answers the call
 * before it by name, order and id, the current turn's calls carry the thought signature this model
 * gave them, a signature is never moved), and the script's reply written as `generateContent` or
 * `streamGenerateContent?alt=sse` answers it. Each call gets an id and a signature of its own.
 * Code Assist too (Gemini CLI signed in with Google): the request under `request`, in an envelope
 * that must hold no field Code Assist does not know, each answer under `response`; its other
 * methods answered as a signed-in user's (a tier, a project).
 */
import { RECALL_TOOL_NAME } from "../../core/index.js";
import { callId, codeAssistViolation, geminiViolation, pairingViolation, sideText, signatureOf, signatureViolation } from "../helpers/gemini-model.js";
import type { ScriptReply, ScriptTurn } from "./recall-script.js";

const parts = (c: any): any[] => (Array.isArray(c?.parts) ? c.parts : []);

/** What a function response holds for the script: its output (or error) text, else the response itself. */
const responseContent = (r: any): unknown => (typeof r?.output === "string" ? r.output : typeof r?.error === "string" ? r.error : r);

/** A Gemini request as the script's turn. */
export function geminiTurn(body: any): ScriptTurn {
  const contents: any[] = Array.isArray(body.contents) ? body.contents : [];
  const tools: any[] = (body.tools ?? []).flatMap((t: any) => t.functionDeclarations ?? []);
  const all: unknown[] = [];
  let recallCalls = 0;
  for (const c of contents) for (const p of parts(c)) {
    if (p.functionCall?.name === RECALL_TOOL_NAME) recallCalls++;
    if (p.functionResponse !== undefined) all.push(responseContent(p.functionResponse.response));
  }
  const last = parts(contents[contents.length - 1]).filter((p) => p.functionResponse !== undefined).map((p) => {
    const r = p.functionResponse;
    return { name: String(r.name), content: responseContent(r.response), isError: r.response?.error !== undefined };
  });
  return { shell: tools.find((t) => t.name === "run_shell_command"), offersRecall: tools.some((t) => t.name === RECALL_TOOL_NAME), last, all, recallCalls };
}

/** Code Assist's methods: `/v1internal:{method}`. */
const CODE_ASSIST = /\/v\d+[a-z]*internal:(\w+)$/;
export const codeAssistMethod = (path: string): string | null => CODE_ASSIST.exec(path)?.[1] ?? null;

/** The Gemini request in a body: Code Assist's under `request`, else the body. */
export const requestIn = (body: any, path: string): any => (codeAssistMethod(path) === null ? body : body?.request);

/** What Code Assist answers a method other than a generate one: a signed-in user's tier and project, else nothing to report. */
export function codeAssistOther(method: string): string {
  if (method === "loadCodeAssist") return JSON.stringify({ currentTier: { id: "standard-tier", name: "Gemini Code Assist", hasOnboardedPreviously: true }, allowedTiers: [{ id: "standard-tier", isDefault: true }], cloudaicompanionProject: "cliff-test-project" });
  if (method === "countTokens") return JSON.stringify({ totalTokens: 100 });
  return "{}";
}

/** Why the real API (Code Assist's, for a body on its path) would refuse this body (null: it would take it). */
export function geminiRefusal(body: any, path = ""): string | null {
  if (codeAssistMethod(path) !== null) {
    const bad = codeAssistViolation(body);
    if (bad !== null) return bad;
    body = body.request;
  }
  const declared: string[] = (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name));
  if (new Set(declared).size !== declared.length) return "Duplicate function declaration found";
  // Gemini CLI's model router (signed in with Google) sends its classifier, which declares no tools,
  // two user contents in a row, and the service answers it: turn order is checked on the agent's
  // turns, the requests a cliff cuts.
  if (declared.length === 0) return pairingViolation(body.contents) ?? signatureViolation(body.contents);
  return geminiViolation(body.contents);
}

/** Gemini CLI's side requests (the next-speaker check, loop detection) ask for JSON and get it. */
export const isSideRequest = (body: any): boolean => body?.generationConfig?.responseMimeType === "application/json";
export const sideAnswer = (body: any): ScriptReply => ({ text: sideText(body) });

let calls = 0;

/** The reply as `path` (with its query) asks: one JSON answer, `alt=sse` chunks (the parts, then the finish with the usage), or those chunks as one JSON array. */
export function geminiAnswer(reply: ScriptReply, url: URL): { type: string; body: string } {
  const stream = url.pathname.endsWith(":streamGenerateContent");
  const codeAssist = codeAssistMethod(url.pathname) !== null;
  const out: any[] = [];
  if ("call" in reply) {
    const step = 1_000 + ++calls;
    out.push({ functionCall: { id: callId(step), name: reply.call, args: reply.input }, thoughtSignature: signatureOf(step, reply.call, reply.input) });
  } else out.push({ text: reply.text });
  const usageMetadata = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };
  const answer = (p: any[], end: boolean): object => ({
    candidates: [{ content: { role: "model", parts: p }, index: 0, ...(end ? { finishReason: "STOP" } : {}) }],
    ...(end ? { usageMetadata } : {}), modelVersion: "mock", responseId: `resp_${calls}`,
  });
  const text = (c: object): string => JSON.stringify(codeAssist ? { response: c, traceId: `trace_${calls}` } : c);
  if (!stream) return { type: "application/json", body: text(answer(out, true)) };
  const chunks = [answer(out, false), answer([{ text: "" }], true)].map(text);
  if (url.searchParams.get("alt") !== "sse") return { type: "application/json", body: `[${chunks.join(",\r\n")}]` };
  return { type: "text/event-stream", body: chunks.map((c) => `data: ${c}\r\n\r\n`).join("") };
}

/** A Google error body. */
export const geminiError = (message: string): string => JSON.stringify({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });

/**
 * A scripted Gemini API on 127.0.0.1 that checks what the real API checks of a request before it
 * answers: roles alternate (no two user or two model contents in a row); every function response
 * answers the model content just before it, one per call, by name and order (and id); and in the current turn (after the newest user content with text) each
 * function-call step carries, on its first call, the thought signature this model gave that very
 * call. A signature anywhere must be one it gave that part. A request that breaks a rule gets the
 * API's 400 INVALID_ARGUMENT and is recorded as refused.
 *
 * Each agent turn is answered with the next call of the script (its position read from the newest
 * of this model's call ids the request answers, so a retried or compacted request is answered
 * alike), then with a final text. `generateContent`, `streamGenerateContent` (`alt=sse` or the JSON
 * array), and `countTokens` are served under any prefix, Vertex paths included; Code Assist's
 * (`/v1internal:generateContent`, the request under `request`, each answer under `response`) too.
 * Usage is reported in `usageMetadata` from the body's size. It stops by itself.
 */
import http from "node:http";
import { createHash } from "node:crypto";
import { listenLoopback } from "./mock-upstream.js";

export interface GeminiStep {
  name: string;
  args: Record<string, unknown>;
}

export interface GeminiSeen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The script step answered (-1: a side request or countTokens; steps.length: the final text). */
  step: number;
  /** Why the request was refused (null: accepted). */
  refused: string | null;
  /** The usage reported for it. */
  usage?: { promptTokenCount: number; cachedContentTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount: number };
}

export interface GeminiModel {
  url: string;
  seen: GeminiSeen[];
  /** Answer this request otherwise (a status and body), before the checks. */
  override: ((seen: GeminiSeen) => { status: number; body: string } | undefined) | undefined;
  close(): Promise<void>;
}

type Part = Record<string, any>;
type Content = { role?: string; parts?: Part[] };

const CALL_ID = /^gm_call_(\d+)$/;
export const SKIP_SIGNATURE = "skip_thought_signature_validator";
export const callId = (step: number): string => `gm_call_${step}`;
/** The signature this model gives a step's call: bound to the step, the name and the arguments. */
export const signatureOf = (step: number, name: string, args: unknown): string =>
  "gmsig_" + createHash("sha256").update(`${step}\u0000${name}\u0000${JSON.stringify(args)}`).digest("base64url").slice(0, 40);

const calls = (c: Content): Part[] => (c.parts ?? []).filter((p) => p?.functionCall !== undefined);
const responses = (c: Content): Part[] => (c.parts ?? []).filter((p) => p?.functionResponse !== undefined);

/** Code Assist's envelope and the request inside it: a field it does not know is refused, as its JSON parser refuses one. */
const CODE_ASSIST_FIELDS = ["model", "project", "user_prompt_id", "request", "enabled_credit_types"];
const CODE_ASSIST_REQUEST_FIELDS = ["contents", "systemInstruction", "cachedContent", "tools", "toolConfig", "labels", "safetySettings", "generationConfig", "session_id"];

/** The first rule a Code Assist body's envelope breaks (its fields, its `model`, its `request` and the request's fields), or null. */
export function codeAssistViolation(body: any): string | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return "Invalid JSON payload received.";
  for (const k of Object.keys(body)) if (!CODE_ASSIST_FIELDS.includes(k)) return `Invalid JSON payload received. Unknown name "${k}": Cannot find field.`;
  if (typeof body.model !== "string") return "model is required";
  if (body.request === null || typeof body.request !== "object" || Array.isArray(body.request)) return "request is required";
  for (const k of Object.keys(body.request)) if (!CODE_ASSIST_REQUEST_FIELDS.includes(k)) return `Invalid JSON payload received. Unknown name "${k}" at 'request': Cannot find field.`;
  return null;
}

/** The first rule the contents break, or null. */
export function geminiViolation(contents: unknown): string | null {
  return pairingViolation(contents) ?? turnOrderViolation(contents as Content[]) ?? signatureViolation(contents as Content[]);
}

/** The API's turn order: no two contents of one role in a row. */
export function turnOrderViolation(list: Content[]): string | null {
  for (let i = 1; i < list.length; i++) if (list[i].role === list[i - 1].role) return "Please ensure that multiturn requests alternate between user and model.";
  return null;
}

/** The first pairing rule the contents break (roles, parts, each response answering its call), or null. */
export function pairingViolation(contents: unknown): string | null {
  if (!Array.isArray(contents) || contents.length === 0) return "contents must be a non-empty list";
  const list = contents as Content[];
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c?.role !== "user" && c?.role !== "model") return `contents[${i}].role must be user or model`;
    if (!Array.isArray(c.parts) || c.parts.length === 0) return `contents[${i}].parts must not be empty`;
    const r = responses(c);
    if (r.length > 0) {
      const prev = list[i - 1];
      const k = prev?.role === "model" ? calls(prev) : [];
      if (k.length !== r.length) return `Please ensure that the number of function response parts (${r.length}) is equal to the number of function call parts of the function call turn (contents[${i}])`;
      for (let j = 0; j < k.length; j++) {
        if (k[j].functionCall.name !== r[j].functionResponse.name) return `contents[${i}].parts[${j}]: function response ${r[j].functionResponse.name} does not answer call ${k[j].functionCall.name}`;
        if ((k[j].functionCall.id ?? null) !== (r[j].functionResponse.id ?? null)) return `contents[${i}].parts[${j}]: function response id does not match its call`;
      }
    }
    for (const [j, p] of (c.parts ?? []).entries()) {
      if (p?.thoughtSignature === undefined) continue;
      const fc = p.functionCall;
      const m = fc === undefined ? null : CALL_ID.exec(String(fc.id));
      // Gemini CLI's stand-in for a signature it lacks is accepted by the API too.
      if (p.thoughtSignature === SKIP_SIGNATURE && c.role === "model") continue;
      if (c.role !== "model" || m === null || p.thoughtSignature !== signatureOf(Number(m[1]), fc.name, fc.args ?? {})) return `Corrupted thought signature at contents[${i}].parts[${j}]`;
    }
  }
  return null;
}

/** The current turn's rule: each function-call step carries, on its first call, a thought signature. */
export function signatureViolation(list: Content[]): string | null {
  let start = 0;
  for (let i = list.length - 1; i >= 0; i--) {
    if (list[i].role === "user" && (list[i].parts ?? []).some((p) => typeof p?.text === "string")) {
      start = i + 1;
      break;
    }
  }
  for (let i = start; i < list.length; i++) {
    const first = list[i].role === "model" ? calls(list[i])[0] : undefined;
    if (first !== undefined && typeof first.thoughtSignature !== "string") return `Function call ${first.functionCall.name} in the ${i}. content block is missing a thought_signature`;
  }
  return null;
}

function stepOf(contents: Content[]): number {
  let next = 0;
  for (const c of contents) for (const r of responses(c)) {
    const m = CALL_ID.exec(String(r.functionResponse.id));
    if (m !== null) next = Math.max(next, Number(m[1]) + 1);
  }
  return next;
}

const geminiError = (status: number, message: string, code = "INVALID_ARGUMENT"): string => JSON.stringify({ error: { code: status, message, status: code } });

/** Gemini CLI's side requests ask for JSON (the next-speaker check, loop detection): answered so the loop goes on as scripted. */
export function sideText(body: any): string {
  const schema = JSON.stringify(body?.generationConfig?.responseJsonSchema ?? body?.generationConfig?.responseSchema ?? {});
  if (schema.includes("next_speaker")) return JSON.stringify({ reasoning: "The model answered; the user speaks next.", next_speaker: "user" });
  // The model router (Code Assist): a simple task.
  if (schema.includes("model_choice")) return JSON.stringify({ reasoning: "A short, well-defined task.", model_choice: "flash" });
  return JSON.stringify({ reasoning: "no loop", unproductive_state_confidence: 0, unproductive_state_analysis: "none", confidence: 0 });
}

function modelContent(body: any, steps: readonly GeminiStep[], final: string): { parts: Part[]; step: number } {
  const json = body?.generationConfig?.responseMimeType === "application/json";
  const agent = Array.isArray(body?.tools) && body.tools.length > 0;
  if (json || !agent) return { parts: [{ text: json ? sideText(body) : "A title" }], step: -1 };
  const step = stepOf(body.contents);
  if (step >= steps.length) return { parts: [{ text: final }], step };
  const s = steps[step];
  return { parts: [{ text: `Step ${step + 1}: ${s.name}.` }, { functionCall: { id: callId(step), name: s.name, args: s.args }, thoughtSignature: signatureOf(step, s.name, s.args) }], step };
}

/** `beforeFinal` runs (once) before the final text is answered, while the agent waits for it. */
export async function geminiModel(steps: readonly GeminiStep[], final = "All done.", lifetimeMs = 600_000, beforeFinal?: () => Promise<void>): Promise<GeminiModel> {
  let held = false;
  const model: GeminiModel = { url: "", seen: [], override: undefined, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const url = new URL(req.url ?? "/", "http://x");
      const seen: GeminiSeen = { path: req.url ?? "", headers: req.headers, body: text, step: -1, refused: null };
      model.seen.push(seen);
      const send = (status: number, type: string, payload: string) => {
        res.writeHead(status, { "content-type": type, "content-length": String(Buffer.byteLength(payload)) });
        res.end(payload);
      };
      const o = model.override?.(seen);
      if (o !== undefined) return send(o.status, "application/json", o.body);
      const method = /:(\w+)$/.exec(url.pathname)?.[1];
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return send(400, "application/json", geminiError(400, "Invalid JSON payload received."));
      }
      const codeAssist = /\/v\d+[a-z]*internal:\w+$/.test(url.pathname);
      if (codeAssist) body = body?.request;
      const contents = body?.contents ?? body?.generateContentRequest?.contents;
      const bad = geminiViolation(contents);
      if (bad !== null) {
        seen.refused = bad;
        return send(400, "application/json", geminiError(400, bad));
      }
      const prompt = Math.ceil(text.length / 4);
      if (method === "countTokens") return send(200, "application/json", JSON.stringify({ totalTokens: prompt }));
      const answer = (parts: Part[]): void => {
        const usage = { promptTokenCount: prompt, cachedContentTokenCount: Math.floor(prompt / 2), candidatesTokenCount: 20, thoughtsTokenCount: 7 };
        seen.usage = usage;
        const usageMetadata = { ...usage, totalTokenCount: prompt + 27 };
        const wrap = (chunk: object): object => (codeAssist ? { response: chunk, traceId: `trace_${model.seen.length}` } : chunk);
        const last = wrap({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata, modelVersion: "mock", responseId: `resp_${model.seen.length}` });
        if (method !== "streamGenerateContent") return send(200, "application/json", JSON.stringify(last));
        const first = wrap({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, index: 0 }], usageMetadata: { promptTokenCount: prompt, totalTokenCount: prompt }, modelVersion: "mock" });
        if (url.searchParams.get("alt") === "sse") return send(200, "text/event-stream", [first, last].map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`).join(""));
        send(200, "application/json", `[${JSON.stringify(first)},\r\n${JSON.stringify(last)}]`);
      };
      const { parts, step } = modelContent(body, steps, final);
      seen.step = step;
      if (step === steps.length && beforeFinal !== undefined && !held) {
        held = true;
        return void beforeFinal().finally(() => answer(parts));
      }
      answer(parts);
    });
  });
  return Object.assign(model, await listenLoopback(server, lifetimeMs));
}

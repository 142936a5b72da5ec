/**
 * The Gemini API through the proxy, against a scripted Gemini model that refuses what the API
 * refuses (pairing, the current turn's signatures): a Gemini CLI-shaped loop of 24 tool calls over
 * several cliffs, every request accepted; usage read from `usageMetadata` in the SSE stream, the
 * JSON-array stream and a plain answer; the bill at the model's price; the key (header or `?key=`)
 * in no log line, status or event; `countTokens` passed byte for byte; Vertex paths to the Vertex
 * upstream; the proxy's own refusals in the Gemini error shape; a context-length refusal answered
 * by one more rung.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { callId, geminiModel, geminiViolation, type GeminiModel, type GeminiStep } from "../helpers/gemini-model.js";

const KEY = "AIzaSy-TEST-KEY-7f3a9c0d1e2b";
const TOKEN = "gemini-test-admin-token-0123456789";
const STEPS: GeminiStep[] = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? { name: "read_file", args: { file_path: `src/mod${i}.ts` } } : i % 3 === 1 ? { name: "run_shell_command", args: { command: `npm test -- ${i}` } } : { name: "replace", args: { file_path: `src/mod${i - 2}.ts`, old_string: "a", new_string: `b${i}` } }));

let mock: GeminiModel;
let vertex: GeminiModel;
let codeAssist: GeminiModel;
let proxy: RunningProxy;
const logs: string[] = [];

beforeAll(async () => {
  mock = await geminiModel(STEPS, "Fixed.", 120_000);
  vertex = await geminiModel(STEPS, "Fixed.", 120_000);
  codeAssist = await geminiModel(STEPS, "Fixed.", 120_000);
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 6000, keepRecent: 2, minGainTokens: 0 }), port: 0, upstreams: { gemini: mock.url, vertex: vertex.url, codeassist: codeAssist.url }, log: (l) => logs.push(l), adminToken: TOKEN });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
  await vertex.close();
  await codeAssist.close();
});

type Content = { role: string; parts: Record<string, any>[] };

/** What a tool answers: a long listing for reads and tests, so the context grows past the threshold. */
const output = (name: string, i: number): string => (name === "replace" ? `Successfully modified file (${i}).` : `line ${i}: ${"x".repeat(60)}\n`.repeat(40));

async function post(path: string, body: unknown, headers: Record<string, string> = { "x-goog-api-key": KEY }): Promise<Response> {
  return fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

/** The model content of an answer: an SSE stream, a JSON array of chunks, or one JSON answer (parts of every chunk joined). */
async function modelOf(res: Response): Promise<Content> {
  const text = await res.text();
  const trimmed = text.trim();
  const chunks: any[] = trimmed.startsWith("data:") ? trimmed.split(/\r?\n\r?\n/).map((e) => JSON.parse(e.replace(/^data: ?/, ""))) : ([] as any[]).concat(JSON.parse(trimmed));
  // Code Assist wraps each answer in `response`.
  const parts = chunks.map((c) => c.response ?? c).flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).filter((p: any) => !(typeof p.text === "string" && p.text === ""));
  return { role: "model", parts };
}

const body = (contents: Content[]) => ({ contents, systemInstruction: { parts: [{ text: "You are Gemini CLI, an interactive CLI agent." }] }, tools: [{ functionDeclarations: STEPS.map((s) => ({ name: s.name })) }], generationConfig: { temperature: 0 } });

async function status(): Promise<any> {
  return (await fetch(proxy.url + "/_cliff/status", { headers: { authorization: `Bearer ${TOKEN}` } })).json();
}

/** What a Gemini CLI-shaped session of STEPS tool calls sent and what the upstream made of it. */
interface Loop {
  contents: Content[];
  /** The bodies the upstream received for this session (their `contents` unwrapped), in order. */
  sent: { path: string; contents: Content[]; whole: any; refused: string | null }[];
}

const summaryIn = (contents: Content[]): boolean => contents.some((c) => c.parts.some((p) => typeof p.text === "string" && p.text.startsWith(SUMMARY_HEADER)));

/**
 * Runs the session to its final text: each turn posted to `pathOf(turn)`, wrapped by `wrap` (the
 * Code Assist envelope, or the plain body), answered by `upstream`.
 */
async function runLoop(upstream: GeminiModel, pathOf: (turn: number) => string, headers: Record<string, string>, task: string, wrap = (b: unknown): unknown => b): Promise<Loop> {
  const contents: Content[] = [{ role: "user", parts: [{ text: task }] }];
  const from = upstream.seen.length;
  for (let turn = 0; turn <= STEPS.length; turn++) {
    const res = await post(pathOf(turn), wrap(body(contents)), headers);
    expect(res.status, `turn ${turn}: ${upstream.seen.at(-1)?.refused}`).toBe(200);
    const model = await modelOf(res);
    contents.push(model);
    const call = model.parts.find((p) => p.functionCall !== undefined)?.functionCall;
    if (call === undefined) break;
    contents.push({ role: "user", parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: output(call.name, turn) } } }] });
  }
  const sent = upstream.seen.slice(from).map((x) => {
    const whole = JSON.parse(x.body);
    return { path: x.path, whole, contents: (whole.request ?? whole).contents as Content[], refused: x.refused };
  });
  return { contents, sent };
}

/** Every body the upstream saw was accepted, at least two carried a summary, and each follows Google's rules. */
function expectAccepted(loop: Loop): Loop["sent"] {
  expect(loop.contents.at(-1)!.parts[0].text).toBe("Fixed.");
  // The client's own history breaks no rule; neither does any body that went out.
  expect(geminiViolation(loop.contents)).toBeNull();
  expect(loop.sent.filter((s) => s.refused !== null).map((s) => s.refused)).toEqual([]);
  for (const s of loop.sent) expect(geminiViolation(s.contents)).toBeNull();
  const compacted = loop.sent.filter((s) => summaryIn(s.contents));
  expect(compacted.length, JSON.stringify(loop.sent.map((b) => [b.contents.length, JSON.stringify(b.whole).length]))).toBeGreaterThanOrEqual(2);
  for (const b of compacted) {
    // The summary went out as parts of the task's own user content, after the task; the tail opens with a model content.
    expect(b.contents[0].role).toBe("user");
    expect(b.contents[0].parts[0].text).toBe(loop.contents[0].parts[0].text);
    expect(b.contents[0].parts.at(-1)!.text.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(b.contents[1].role).toBe("model");
  }
  return compacted;
}

describe("proxy: the Gemini API", () => {
  it("a 24-call Gemini CLI loop through several cliffs: every compacted body accepted (SSE, JSON-array stream, plain), no fallback; the session and its bill in the status", async () => {
    const paths = ["/v1beta/models/gemini-3.5-flash:streamGenerateContent?alt=sse", "/v1beta/models/gemini-3.5-flash:streamGenerateContent", "/v1beta/models/gemini-3.5-flash:generateContent"];
    const loop = await runLoop(mock, (turn) => paths[turn % 3], { "x-goog-api-key": KEY }, "Fix the failing tests in the widgets repo.");
    const compacted = expectAccepted(loop);
    // Compacted bodies went out in each of the three answer shapes.
    for (const p of paths) expect(compacted.some((b) => b.path === p), p).toBe(true);
    for (const b of loop.sent) {
      expect(b.whole.systemInstruction.parts[0].text).toBe("You are Gemini CLI, an interactive CLI agent.");
      // The client's declarations as it sent them; a compacted request (in each of the three answer shapes) also offers cliff_recall after them.
      const declared = b.whole.tools[0].functionDeclarations.map((f: any) => f.name);
      const offered = !JSON.stringify(b.contents).includes("summary of your previous actions") ? [] : ["cliff_recall"];
      expect(declared).toEqual([...body([]).tools[0].functionDeclarations.map((f) => f.name), ...offered]);
    }
    const s = await status();
    const session = s.sessions.find((x: any) => x.model === "gemini-3.5-flash");
    expect(session).toBeDefined();
    expect(session.api).toBe("gemini");
    expect(session.requests).toBe(STEPS.length + 1);
    expect(session.fallbacks).toBe(0);
    expect(session.cliffs, JSON.stringify({ ...session, context: undefined, ledger: undefined })).toBeGreaterThanOrEqual(2);
    // Usage as the model reported it, from all three answer shapes.
    const reported = mock.seen.reduce((u, x) => ({ prompt: u.prompt + x.usage!.promptTokenCount, cached: u.cached + x.usage!.cachedContentTokenCount, out: u.out + x.usage!.candidatesTokenCount + x.usage!.thoughtsTokenCount }), { prompt: 0, cached: 0, out: 0 });
    expect(session.usage).toEqual({ input: reported.prompt - reported.cached, cacheRead: reported.cached, cacheWrite: 0, output: reported.out });
    expect(session.dollars).toBeCloseTo(((reported.prompt - reported.cached) * 1.5 + reported.cached * 0.15 + reported.out * 9) / 1e6, 9);
    expect(session.ledger.bills.length).toBe(session.cliffs);
    // The key went upstream and nowhere else.
    expect(mock.seen.every((x) => x.headers["x-goog-api-key"] === KEY)).toBe(true);
    expect(JSON.stringify(s)).not.toContain(KEY);
    expect(logs.join("\n")).not.toContain(KEY);
  });

  it("the same loop on Vertex AI paths (streamed and not) goes to the Vertex upstream: every compacted body accepted, no fallback", async () => {
    const base = "/v1beta1/projects/p1/locations/global/publishers/google/models/gemini-3.1-pro-preview";
    const loop = await runLoop(vertex, (turn) => (turn % 2 === 0 ? `${base}:streamGenerateContent?alt=sse` : `${base}:generateContent`), { authorization: "Bearer ya29.test" }, "Vertex: fix the failing tests.");
    const compacted = expectAccepted(loop);
    expect(compacted.some((b) => b.path.includes("streamGenerateContent")) && compacted.some((b) => b.path.includes(":generateContent"))).toBe(true);
    const session = (await status()).sessions.find((x: any) => x.model === "gemini-3.1-pro-preview");
    expect(session.fallbacks).toBe(0);
  });

  it("Gemini CLI signed in with Google (Code Assist, the request under `request`): the loop's bodies compacted inside the envelope, every one accepted, no fallback", async () => {
    const wrap = (b: unknown) => ({ model: "gemini-3.5-flash-ca", project: "proj-123", user_prompt_id: "prompt-1", request: { ...(b as object), session_id: "sess-ca" } });
    const loop = await runLoop(codeAssist, (turn) => (turn % 4 === 3 ? "/v1internal:generateContent" : "/v1internal:streamGenerateContent?alt=sse"), { authorization: "Bearer ya29.oauth-test" }, "Code Assist: fix the failing tests.", wrap);
    const compacted = expectAccepted(loop);
    expect(compacted.some((b) => b.path.includes("streamGenerateContent")) && compacted.some((b) => b.path.endsWith(":generateContent"))).toBe(true);
    for (const b of loop.sent) {
      // What sits around the request, and beside its contents, goes out as sent.
      expect(Object.keys(b.whole)).toEqual(["model", "project", "user_prompt_id", "request"]);
      expect([b.whole.model, b.whole.project, b.whole.user_prompt_id, b.whole.request.session_id]).toEqual(["gemini-3.5-flash-ca", "proj-123", "prompt-1", "sess-ca"]);
      expect(b.whole.request.systemInstruction.parts[0].text).toBe("You are Gemini CLI, an interactive CLI agent.");
      // A compacted request offers cliff_recall inside the envelope, after the client's declarations.
      const declared = b.whole.request.tools[0].functionDeclarations.map((f: any) => f.name);
      expect(declared).toEqual([...body([]).tools[0].functionDeclarations.map((f) => f.name), ...(summaryIn(b.contents) ? ["cliff_recall"] : [])]);
    }
    expect(codeAssist.seen.every((x) => x.headers.authorization === "Bearer ya29.oauth-test")).toBe(true);
    const session = (await status()).sessions.find((x: any) => x.model === "gemini-3.5-flash-ca");
    expect(session.cliffs).toBeGreaterThanOrEqual(2);
    expect(session.fallbacks).toBe(0);
    // Usage read from under `response`.
    expect(session.usage.input).toBeGreaterThan(0);
  });

  it("Code Assist's other methods go to the Code Assist upstream untouched", async () => {
    const raw = '{"metadata":{"ideType":"IDE_UNSPECIFIED"},  "cloudaicompanionProject":"p"}';
    const n = codeAssist.seen.length;
    await fetch(proxy.url + "/v1internal:loadCodeAssist", { method: "POST", headers: { authorization: "Bearer ya29.oauth-test", "content-type": "application/json" }, body: raw });
    expect(codeAssist.seen.length).toBe(n + 1);
    expect(codeAssist.seen.at(-1)!.body).toBe(raw);
    expect(codeAssist.seen.at(-1)!.path).toBe("/v1internal:loadCodeAssist");
  });

  it("a key in ?key= goes upstream in the query and into no log line or status", async () => {
    const before = logs.length;
    const res = await post(`/v1beta/models/gemini-2.5-pro:generateContent?key=${KEY}`, body([{ role: "user", parts: [{ text: "hello" }] }]), {});
    expect(res.status).toBe(200);
    expect(mock.seen.at(-1)!.path).toBe(`/v1beta/models/gemini-2.5-pro:generateContent?key=${KEY}`);
    expect(logs.slice(before).join("\n")).not.toContain(KEY);
    expect(JSON.stringify(await status())).not.toContain(KEY);
  });

  it("countTokens goes through byte for byte", async () => {
    const raw = '{"contents":[{"role":"user","parts":[{"text":"count   me"}]}]}';
    const res = await fetch(proxy.url + "/v1beta/models/gemini-2.5-pro:countTokens", { method: "POST", headers: { "x-goog-api-key": KEY, "content-type": "application/json" }, body: raw });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).totalTokens).toBeGreaterThan(0);
    expect(mock.seen.at(-1)!.body).toBe(raw);
  });

  it("a Vertex AI path goes to the Vertex upstream and is compacted there too", async () => {
    const contents: Content[] = [{ role: "user", parts: [{ text: "Vertex task" }] }];
    for (let i = 0; i < 8; i++) {
      contents.push({ role: "model", parts: [{ functionCall: { id: callId(i), name: "read_file", args: { file_path: `f${i}` } }, thoughtSignature: (await import("../helpers/gemini-model.js")).signatureOf(i, "read_file", { file_path: `f${i}` }) }] });
      contents.push({ role: "user", parts: [{ functionResponse: { id: callId(i), name: "read_file", response: { output: output("read_file", i) } } }] });
    }
    const n = vertex.seen.length;
    const res = await post("/v1beta1/projects/p1/locations/global/publishers/google/models/gemini-3.1-pro-preview:generateContent", body(contents), { authorization: "Bearer ya29.test" });
    expect(res.status, vertex.seen.at(-1)?.refused ?? "").toBe(200);
    expect(vertex.seen.length).toBe(n + 1);
    const sent = JSON.parse(vertex.seen.at(-1)!.body);
    expect(sent.contents.length).toBeLessThan(contents.length);
    expect(geminiViolation(sent.contents)).toBeNull();
  });

  it("the proxy's own refusals come in the Gemini error shape", async () => {
    const strict = await startProxy({ config: resolveConfig({ thresholdTokens: 50, keepRecent: 1, strict: true }), port: 0, upstreams: { gemini: mock.url }, adminToken: TOKEN });
    try {
      const contents: Content[] = [{ role: "user", parts: [{ text: "x".repeat(4000) }] }, { role: "model", parts: [{ text: "ok" }] }, { role: "user", parts: [{ text: "y".repeat(4000) }] }];
      const res = await fetch(strict.url + "/v1beta/models/gemini-2.5-pro:generateContent", { method: "POST", headers: { "x-goog-api-key": KEY, "content-type": "application/json" }, body: JSON.stringify({ contents }) });
      expect(res.status).toBe(400);
      const e = ((await res.json()) as any).error;
      expect(e.code).toBe(400);
      expect(e.status).toBe("INVALID_ARGUMENT");
      expect(e.message).toMatch(/^cliffcompaction: /);
    } finally {
      await strict.close();
    }
  });

  it("a context-length refusal is answered by one more rung and a retry", async () => {
    let refusedOnce = false;
    mock.override = (s) => {
      if (refusedOnce || !s.path.includes("gemini-2.5-flash")) return undefined;
      refusedOnce = true;
      return { status: 400, body: JSON.stringify({ error: { code: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", status: "INVALID_ARGUMENT" } }) };
    };
    try {
      const contents: Content[] = [{ role: "user", parts: [{ text: "big" }] }];
      for (let i = 0; i < 4; i++) {
        contents.push({ role: "model", parts: [{ text: `step ${i}` }] });
        contents.push({ role: "user", parts: [{ text: output("read_file", i) }] });
      }
      const n = mock.seen.length;
      const res = await post("/v1beta/models/gemini-2.5-flash:generateContent", body(contents));
      expect(res.status).toBe(200);
      expect(mock.seen.length).toBe(n + 2);
      expect(JSON.parse(mock.seen.at(-1)!.body).contents.length).toBeLessThan(contents.length);
    } finally {
      mock.override = undefined;
    }
  });
});

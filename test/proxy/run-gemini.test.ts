/**
 * `run -- gemini`: Gemini CLI's base URLs and Code Assist endpoint at the proxy, a
 * GOOGLE_GEMINI_BASE_URL or CODE_ASSIST_ENDPOINT the user set becoming that upstream, the start line
 * naming the Google upstreams for Gemini CLI only. The agent is a stand-in script named `gemini` that
 * does what Gemini CLI does: with an API key a streamed generateContent to its base URL; signed in
 * with Google (GOOGLE_GENAI_USE_GCA) the same request inside Code Assist's envelope, to its endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChild } from "../helpers/child.js";
import { geminiModel, type GeminiModel } from "../helpers/gemini-model.js";

let model: GeminiModel;
const dir = mkdtempSync(join(tmpdir(), "cliff-run-gemini-"));
beforeAll(async () => {
  model = await geminiModel([{ name: "read_file", args: { file_path: "a.ts" } }], "done", 60_000);
});
afterAll(() => model.close());

/** A stand-in named `gemini` (so run knows it), printing its base URLs and the answer's status. */
function standIn(): string {
  mkdirSync(join(dir, "bin"), { recursive: true });
  const file = join(dir, "bin", "gemini");
  writeFileSync(file, `#!${process.execPath}
const base = process.env.GOOGLE_GEMINI_BASE_URL;
const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ functionDeclarations: [{ name: "read_file" }] }] };
const gca = process.env.GOOGLE_GENAI_USE_GCA === "true";
const r = gca
  ? await fetch(process.env.CODE_ASSIST_ENDPOINT + "/v1internal:streamGenerateContent?alt=sse", { method: "POST", headers: { authorization: "Bearer ya29.t", "content-type": "application/json" }, body: JSON.stringify({ model: "gemini-2.5-pro", project: "p", request: body }) })
  : await fetch(base + "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", { method: "POST", headers: { "x-goog-api-key": "k", "content-type": "application/json" }, body: JSON.stringify(body) });
console.log("AGENT", r.status, base === process.env.GOOGLE_VERTEX_BASE_URL && base === process.env.CODE_ASSIST_ENDPOINT, base);
`);
  chmodSync(file, 0o755);
  return file;
}

describe("run -- gemini", () => {
  it("points the base URLs and the Code Assist endpoint at the proxy; the user's GOOGLE_GEMINI_BASE_URL is the upstream; the start line names the Google upstreams", async () => {
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--", standIn()], process.cwd(), { ...process.env, GOOGLE_GEMINI_BASE_URL: model.url, GOOGLE_VERTEX_BASE_URL: "", CODE_ASSIST_ENDPOINT: "" }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^AGENT 200 true http:\/\/127\.0\.0\.1:\d+$/m);
    expect(model.seen.at(-1)!.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    expect(model.seen.at(-1)!.headers["x-goog-api-key"]).toBe("k");
    expect(r.err).toContain(`for gemini (Gemini → ${model.url}/, Vertex AI → https://aiplatform.googleapis.com/, Code Assist → https://cloudcode-pa.googleapis.com/;`);
    expect(r.err).not.toContain("Anthropic →");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("signed in with Google: Code Assist goes through the proxy, the user's CODE_ASSIST_ENDPOINT its upstream", async () => {
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--", standIn()], process.cwd(), { ...process.env, GOOGLE_GENAI_USE_GCA: "true", CODE_ASSIST_ENDPOINT: model.url }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^AGENT 200 true http:\/\/127\.0\.0\.1:\d+$/m);
    expect(model.seen.at(-1)!.path).toBe("/v1internal:streamGenerateContent?alt=sse");
    expect(model.seen.at(-1)!.headers.authorization).toBe("Bearer ya29.t");
    expect(r.err).toContain(`Code Assist → ${model.url}/;`);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("another agent's start line leaves the Google upstreams out", async () => {
    const other = join(dir, "bin", "agent");
    writeFileSync(other, `#!${process.execPath}\nconsole.log(process.env.GOOGLE_GEMINI_BASE_URL ? "set" : "unset");`);
    chmodSync(other, 0o755);
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--", other], process.cwd(), { ...process.env, ANTHROPIC_BASE_URL: "", OPENAI_BASE_URL: "" }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("Anthropic →");
    expect(r.err).not.toContain("Gemini →");
  });
});

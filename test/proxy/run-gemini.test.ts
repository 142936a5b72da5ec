/**
 * `run -- gemini`: Gemini CLI's two base URLs at the proxy, a GOOGLE_GEMINI_BASE_URL the user set
 * becoming the Gemini upstream, the start line naming the Google upstreams for Gemini CLI only, and a
 * Google sign-in told that it goes around the proxy. The agent is a stand-in script named `gemini`
 * that does what Gemini CLI does with an API key: a streamed generateContent to its base URL.
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
const r = await fetch(base + "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", { method: "POST", headers: { "x-goog-api-key": "k", "content-type": "application/json" }, body: JSON.stringify(body) });
console.log("AGENT", r.status, base === process.env.GOOGLE_VERTEX_BASE_URL, base);
`);
  chmodSync(file, 0o755);
  return file;
}

describe("run -- gemini", () => {
  it("points both base URLs at the proxy; the user's GOOGLE_GEMINI_BASE_URL is the upstream; the start line names the Google upstreams", async () => {
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--", standIn()], process.cwd(), { ...process.env, GOOGLE_GEMINI_BASE_URL: model.url, GOOGLE_VERTEX_BASE_URL: "" }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^AGENT 200 true http:\/\/127\.0\.0\.1:\d+$/m);
    expect(model.seen.at(-1)!.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
    expect(model.seen.at(-1)!.headers["x-goog-api-key"]).toBe("k");
    expect(r.err).toContain(`for gemini (Gemini → ${model.url}/, Vertex AI → https://aiplatform.googleapis.com/;`);
    expect(r.err).not.toContain("Anthropic →");
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });

  it("signed in with Google: told in one more line that those requests go around the proxy", async () => {
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--gemini-upstream", model.url, "--", standIn()], process.cwd(), { ...process.env, GOOGLE_GENAI_USE_GCA: "true" }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^cliffcompaction: Gemini CLI signed in with Google talks to Code Assist, which run leaves alone \(not compacted\)/m);
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

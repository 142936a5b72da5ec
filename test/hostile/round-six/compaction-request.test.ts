/**
 * Round six, case 2: a client's own compaction request is recognised only in the exact form its
 * client sends it. With answered compactions on (as `run -- claude` and `run -- codex` have them),
 * a user's message that carries the instruction (pasted into a question, in an @-mentioned file, in
 * a system reminder holding a file's diff; Codex's prompt as one of several input_text blocks)
 * reaches the model, cliffed as any request over the threshold is. The clients' own requests are
 * still answered by the proxy and never reach it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../../core/index.js";
import { startProxy, type RunningProxy } from "../../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../../helpers/mock-upstream.js";
import { claudeCodeSummaryRequest, CLAUDE_CODE_INSTRUCTION, CLAUDE_TOOLS, codexCompactionTurn, CODEX_INSTRUCTION, CODEX_TOOLS, responsesHistory } from "../../helpers/compaction-requests.js";
import { aSession } from "../../helpers/sessions.js";

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined, answerCompaction: true });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

/** A Claude Code history over the threshold whose last user message ends with `blocks`. */
function claudeWith(blocks: unknown[]): Record<string, unknown> {
  const messages = aSession(12) as { role: string; content: unknown[] }[];
  const last = messages[messages.length - 1];
  messages[messages.length - 1] = { ...last, content: [...last.content, ...blocks] };
  return { model: "claude-sonnet-4-5", max_tokens: 2000, system: [{ type: "text", text: "You are Claude Code." }], tools: CLAUDE_TOOLS, messages };
}

const text = (t: string) => ({ type: "text", text: t });
const USERS_OWN: [string, Record<string, unknown>][] = [
  ["pasted into a question", claudeWith([text(`Why does this prompt make the model stop calling tools?\n\n${CLAUDE_CODE_INSTRUCTION}\n\nPlease explain each rule.`)])],
  ["pasted as the whole of a plain message after the question", claudeWith([text("Review the prompt below for typos."), text(`> ${CLAUDE_CODE_INSTRUCTION}`)])],
  ["in an @-mentioned file", claudeWith([text(`<system-reminder>\nCalled the Read tool with the following input: {"file_path":"prompts/compact.md"}\nResult of calling the Read tool:\n${CLAUDE_CODE_INSTRUCTION}\n</system-reminder>`), text("What does @prompts/compact.md ask for?")])],
  ["in a system reminder holding a file's diff", claudeWith([text(`<system-reminder>\nNote: prompts/compact.md was modified by the user. The diff:\n+${CLAUDE_CODE_INSTRUCTION.split("\n").join("\n+")}\n</system-reminder>`)])],
  ["a string message that quotes it", { ...claudeWith([]), messages: [...aSession(12), { role: "assistant", content: "Done." }, { role: "user", content: `Translate this into French:\n${CLAUDE_CODE_INSTRUCTION}` }] }],
];

function codexWith(content: unknown[]): Record<string, unknown> {
  return { model: "gpt-5.6-sol", stream: false, tools: CODEX_TOOLS, input: [...responsesHistory(12), { type: "message", role: "user", content }] };
}
const CODEX_USERS_OWN: [string, Record<string, unknown>][] = [
  ["Codex's prompt as the second input_text of the user's message", codexWith([{ type: "input_text", text: "Summarise this prompt's rules for me:" }, { type: "input_text", text: CODEX_INSTRUCTION }])],
  ["Codex's prompt after an @-mentioned file's block", codexWith([{ type: "input_text", text: "<file path=\"notes.md\">\nnotes\n</file>" }, { type: "input_text", text: CODEX_INSTRUCTION }])],
];

async function send(path: string, body: Record<string, unknown>, headers: Record<string, string>): Promise<number> {
  const r = await fetch(proxy.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  await r.arrayBuffer();
  return r.status;
}

const summarised = (b: Buffer): boolean => b.toString("utf8").includes("The following is a summary");

describe("round six, case 2: a compaction request in its client's exact form only", () => {
  it(`${USERS_OWN.length + CODEX_USERS_OWN.length} users' messages carrying a client's instruction all reach the model, cliffed`, async () => {
    const from = mock.received.length;
    for (const [name, body] of USERS_OWN) expect(await send("/v1/messages", body, { "x-api-key": "k" }), name).toBe(200);
    for (const [name, body] of CODEX_USERS_OWN) expect(await send("/v1/responses", body, { authorization: "Bearer k" }), name).toBe(200);
    const reached = mock.received.slice(from);
    const cliffed = reached.filter((r) => summarised(r.body)).length;
    console.log(`round six, case 2: ${reached.length} of ${USERS_OWN.length + CODEX_USERS_OWN.length} reached the model, ${cliffed} cliffed`);
    expect(reached.length).toBe(USERS_OWN.length + CODEX_USERS_OWN.length);
    expect(cliffed).toBe(USERS_OWN.length + CODEX_USERS_OWN.length);
  });

  it("the clients' own requests, as Claude Code and Codex send them, are still answered here and reach no model", async () => {
    const from = mock.received.length;
    expect(await send("/v1/messages", { ...claudeCodeSummaryRequest(12), stream: false }, { "x-api-key": "k" })).toBe(200);
    expect(await send("/v1/responses", { ...codexCompactionTurn(12), stream: false }, { authorization: "Bearer k" })).toBe(200);
    expect(mock.received.length).toBe(from);
  });
});

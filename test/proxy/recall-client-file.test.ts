/**
 * A result Claude Code kept out of the request (its `<persisted-output>` placeholder: the path of
 * the file it saved the whole output to, and a preview), through `serve`, whole and streamed: the
 * compacted request's summary names the client's file after the placeholder's ref line, and a
 * recall of that ref reaches the model as a first line saying where the whole output is and how to
 * read it, then the placeholder exactly. The client's answer carries the recall line alone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { refOf, resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { recallModel, type RecallModel } from "../helpers/recall-model.js";

const PATH = "/home/me/.claude/projects/-home-me-work/5f0c2a1e-0d3b-4e55-9d61-2b7e0c1f9a44/tool-results/b5snjxqk5.txt";
const preview = Array.from({ length: 95 }, (_, i) => String(100_000 + i).padStart(20, "0")).join("\n");
const PLACEHOLDER = `<persisted-output>\nOutput too large (59.5KB). Full output saved to: ${PATH}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
const REF = refOf(PLACEHOLDER);
const log = (tag: string): string => Array.from({ length: 80 }, (_, i) => `${tag} line ${i}: value ${i * 7}`).join("\n");

function history(): unknown[] {
  const outputs = [PLACEHOLDER, log("build"), log("test"), log("lint"), log("docs")];
  const msgs: unknown[] = [{ role: "user", content: "Print the numbers, then check them." }];
  outputs.forEach((t, i) => {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `tu_${i}`, name: "Bash", input: { command: `step ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `tu_${i}`, content: t }] });
  });
  msgs.push({ role: "assistant", content: [{ type: "text", text: "All steps ran." }] }, { role: "user", content: "What was the 1,000th number?" });
  return msgs;
}

let model: RecallModel;
let proxy: RunningProxy;
beforeAll(async () => {
  model = await recallModel(() => ({ text: "ok" }));
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1, archive: false }), port: 0, upstreams: { anthropic: model.url, openai: model.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await model.close();
});

for (const stream of [false, true]) {
  it(`${stream ? "streamed" : "whole"}: the summary names the client's file, and a recall of the placeholder says where the output is`, async () => {
    model.seen.length = 0;
    model.refused.length = 0;
    model.script = (s) => (s.results.length === 0 ? { calls: [{ name: "cliff_recall", input: { ref: REF } }] } : { calls: [{ name: "Read", input: { file_path: PATH, offset: 1000, limit: 1 } }] });
    const tools = [{ name: "Bash", input_schema: { type: "object" } }, { name: "Read", input_schema: { type: "object" } }];
    const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" }, body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 1024, stream, tools, messages: history() }) });
    const raw = await r.text();
    expect(r.status, raw).toBe(200);
    expect(model.refused).toEqual([]);
    expect(model.seen).toHaveLength(2);
    const summary = JSON.stringify(model.seen[0].body.messages);
    expect(summary).toContain(JSON.stringify(`result: dropped ${PLACEHOLDER.length.toLocaleString("en-US")} chars, ref ${REF}\nresult: the client saved the whole output (59.5KB) to its own file ${PATH}; read it there, in pages`).slice(1, -1));
    const [answer] = model.seen[1].results;
    expect(answer.isError).toBe(false);
    expect(answer.text.split("\n")[0]).toContain(`not the output: the client saved the whole output (59.5KB) to its own file ${PATH}. Read that file`);
    expect(answer.text.slice(answer.text.indexOf("\n") + 1)).toBe(PLACEHOLDER);
    // The client sees the recall line and its own Read call, nothing of the tool.
    expect(raw).toContain(`[cliffcompaction recalled ref ${REF}, ${PLACEHOLDER.length.toLocaleString("en-US")} chars]`);
    expect(raw).toContain('"name":"Read"');
    expect(raw).not.toContain("cliff_recall");
  });
}

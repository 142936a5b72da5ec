/**
 * The real Pi 1.6, offline: the model recalls what a compaction dropped with cliff_recall, answered
 * from the session's own entries.
 */
import { describe, expect, it } from "vitest";
import { REF_LINE, RECALL_TOOL_NAME } from "../../core/index.js";
import { refOf } from "../../core/recall/index.js";
import { fauxAssistantMessage, fauxToolCall, makeHarness, type Harness } from "./harness.js";

const output = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i} of output for request ${n}`).join("\n");
const refs = (text: string): string[] => text.split("\n").flatMap((l) => {
  const m = REF_LINE.exec(l);
  return m === null ? [] : [m[3]];
});

/** As `pi --tools big,cliff_recall` allows them. */
const TOOLS = ["big", RECALL_TOOL_NAME];

async function toolRun(h: Harness, prompt: string, sizes: number[], final: string): Promise<void> {
  h.faux.appendResponses([...sizes.map((n) => fauxAssistantMessage([fauxToolCall("big", { n })], { stopReason: "toolUse" })), fauxAssistantMessage(final)]);
  await h.session.prompt(prompt);
}

async function threeRunsCompacted(h: Harness, first = 80): Promise<string> {
  await toolRun(h, "TASK-R: fix the build", [first], "done 1");
  await toolRun(h, "then the tests", [90, 3], "done 2");
  await toolRun(h, "then the docs", [4], "done 3");
  await h.session.compact();
  return h.lastCompaction().summary as string;
}

/** The model calls cliff_recall with `args`; the tool result Pi stored for that call. */
async function recall(h: Harness, args: Record<string, string>): Promise<{ text: string; isError: boolean }> {
  h.faux.appendResponses([fauxAssistantMessage([fauxToolCall(RECALL_TOOL_NAME, args)], { stopReason: "toolUse" }), fauxAssistantMessage("recalled")]);
  await h.session.prompt("what did that output say?");
  const result = [...h.branch()].reverse().find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === RECALL_TOOL_NAME);
  expect(result, "a cliff_recall result in the branch").toBeDefined();
  const text = (result.message.content as { type: string; text?: string }[]).map((c) => c.text ?? "").join("");
  return { text, isError: result.message.isError === true };
}

/** The tools the session offers the model on its next request. */
const offeredTools = (h: Harness): string[] => h.session.getActiveToolNames();

describe("Pi: cliff_recall", () => {
  it("after a compaction, the model recalls a ref its summary names and gets the dropped text back byte for byte", async () => {
    const h = await makeHarness({ tools: TOOLS });
    const summary = await threeRunsCompacted(h);
    const ref = refOf(output(80));
    expect(refs(summary)).toContain(ref);
    const got = await recall(h, { ref });
    expect(got.isError).toBe(false);
    expect(got.text).toBe(output(80));
    expect(offeredTools(h)).toEqual(expect.arrayContaining(["big", RECALL_TOOL_NAME]));
    h.dispose();
  });

  it("a ref dropped by an earlier compaction is still found after a second one", async () => {
    const h = await makeHarness({ tools: TOOLS });
    await threeRunsCompacted(h, 70);
    await toolRun(h, "then the release", [60], "done 4");
    await toolRun(h, "then the notes", [5], "done 5");
    await toolRun(h, "then the tag", [6], "done 6");
    await h.session.compact();
    expect(h.branch().filter((e) => e.type === "compaction").length).toBe(2);
    const got = await recall(h, { ref: refOf(output(70)) });
    expect(got).toEqual({ text: output(70), isError: false });
    h.dispose();
  });

  it("a search finds the lines of the earlier history that hold the text, each with its ref", async () => {
    const h = await makeHarness({ tools: TOOLS });
    await threeRunsCompacted(h);
    const got = await recall(h, { search: "LINE 57 of output for request 90" });
    expect(got.isError).toBe(false);
    expect(got.text).toContain("line 57 of output for request 90");
    expect(got.text).toContain(refOf(output(90)));
    expect(got.text).not.toContain("request 80");
    // The history before the call: the call that asks is not one of the texts searched.
    expect(got.text).toMatch(/^1 matching line /);
    expect(got.text).not.toContain('"search"');
    h.dispose();
  });

  it("an unknown ref is a tool error that says so", async () => {
    const h = await makeHarness({ tools: TOOLS });
    await threeRunsCompacted(h);
    const got = await recall(h, { ref: "0123456789ab" });
    expect(got.isError).toBe(true);
    expect(got.text).toContain("No text with ref 0123456789ab");
    h.dispose();
  });

  it.each([{ recallTool: false }, { refs: false }])("with %o, no tool is offered and the summary names no ref", async (config) => {
    const h = await makeHarness({ config, tools: TOOLS });
    const summary = await threeRunsCompacted(h);
    expect(refs(summary)).toEqual([]);
    const tools = offeredTools(h);
    expect(tools).toContain("big");
    expect(tools).not.toContain(RECALL_TOOL_NAME);
    h.dispose();
  });
});

import { describe, expect, it } from "vitest";
import { compact, SUMMARY_HEADER, type CompactResult } from "../../core/index.js";
import { aSession, oSession } from "../helpers/sessions.js";

const text = (r: CompactResult | null): string => r!.summaryText;
const headerCount = (s: string): number => s.split(SUMMARY_HEADER).length - 1;

describe("cliff: head | summary | tail", () => {
  it("keeps head and tail as the same objects, one summary, tail from cut", () => {
    const msgs = aSession(8);
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3 })!;
    expect(r.messages[0]).toBe(msgs[0]);
    expect(r.messages.slice(2)).toEqual(msgs.slice(r.cut));
    r.messages.slice(2).forEach((m, i) => expect(m).toBe(msgs[r.cut + i]));
    expect((r.messages[2] as { role: string }).role).toBe("assistant");
    expect(r.messages.filter((m) => typeof (m as { content: unknown }).content === "string" && ((m as { content: string }).content).startsWith(SUMMARY_HEADER))).toHaveLength(1);
  });

  it("never mutates the input", () => {
    const msgs = aSession(6);
    const before = JSON.stringify(msgs);
    compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 });
    expect(JSON.stringify(msgs)).toBe(before);
  });

  it("OpenAI head is system + task", () => {
    const r = compact(oSession(5), "openai-chat", { profile: "reference", keepRecent: 1 })!;
    expect(r.headLen).toBe(2);
  });

  it("too few turns or no assistant gives null", () => {
    expect(compact(aSession(3), "anthropic", { profile: "reference", keepRecent: 3 })).toBeNull();
    expect(compact([{ role: "user", content: "hi" }, { role: "user", content: "there" }], "anthropic")).toBeNull();
  });

  it("drops a long result, keeps a short one, tags speakers", () => {
    const s = text(compact(aSession(4), "anthropic", { profile: "reference", keepRecent: 1 }));
    expect(s).not.toContain("XXXX");
    expect(s).toContain("result: test_1 passed (short output)");
    expect(s).toContain("assistant: Step 0:");
  });

  it("caps signature lines at cmdMaxChars + ...", () => {
    const s = text(compact(aSession(4), "anthropic", { profile: "reference", keepRecent: 1, cmdMaxChars: 20 }));
    for (const line of s.split("\n").filter((l) => l.startsWith("[bash]"))) expect(line.length).toBeLessThanOrEqual("[bash] ".length + 23);
  });

  const thoughtful = (thought: string, thinking?: string): unknown[] => [
    { role: "user", content: "task" },
    {
      role: "assistant",
      content: [
        ...(thinking ? [{ type: "thinking", thinking, signature: "SIGBLOB".repeat(20) }] : []),
        { type: "text", text: thought },
        { type: "tool_use", id: "t0", name: "bash", input: { command: "ls" } },
      ],
    },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t0", content: "ok" }] },
    { role: "assistant", content: [{ type: "text", text: "done" }] },
  ];

  it("keeps a 2000-char thought by default and caps it at thoughtMaxChars", () => {
    const long = "T".repeat(2000);
    expect(text(compact(thoughtful(long), "anthropic", { profile: "reference", keepRecent: 1 }))).toContain("assistant: " + long + "\n");
    const capped = text(compact(thoughtful(long), "anthropic", { profile: "reference", keepRecent: 1, thoughtMaxChars: 300 }));
    expect(capped).toContain("assistant: " + "T".repeat(300) + "...\n");
    expect(capped).not.toContain("T".repeat(301));
  });

  it("keeps thinking as text, never the signature; caps are independent; keepThinking false drops it", () => {
    const msgs = thoughtful("step 0 visible text here", "The mock is wrong because of X and Y");
    const s = text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1, thoughtMaxChars: 10 }));
    expect(s).toContain("thinking: The mock is wrong because of X and Y\nassistant: step 0 vis...");
    expect(s).not.toContain("SIGBLOB");
    const t = text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1, thinkingMaxChars: 12 }));
    expect(t).toContain("thinking: The mock is ...\nassistant: step 0 visible text here");
    expect(text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1, keepThinking: false }))).not.toContain("thinking:");
  });

  it("folds OpenAI reasoning_content in as thinking", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "assistant", content: "look", reasoning_content: "I should look first", tool_calls: [{ id: "c", type: "function", function: { name: "ls", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c", content: "Y".repeat(600) },
      { role: "assistant", content: "done" },
    ];
    expect(text(compact(msgs, "openai-chat", { profile: "reference", keepRecent: 1 }))).toBe(`${SUMMARY_HEADER}\n\nthinking: I should look first\nassistant: look\n[ls] {}`);
  });

  it("keeps human text over 500 chars verbatim; mixed user message keeps text, drops long result", () => {
    const human = "H".repeat(800);
    const msgs = [
      { role: "user", content: "task" },
      { role: "assistant", content: "a" },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "L".repeat(900) }, { type: "text", text: human }] },
      { role: "assistant", content: "b" },
    ];
    expect(text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 }))).toBe(`${SUMMARY_HEADER}\n\nassistant: a\n\n---\n\nuser: ${human}`);
  });

  it("strips task notifications, dropping a message that held only one", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "assistant", content: "a" },
      { role: "user", content: "<task-notification>bg job 1 done</task-notification>\n" },
      { role: "user", content: "<task-notification>x</task-notification> real text" },
      { role: "assistant", content: "b" },
    ];
    expect(text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 }))).toBe(`${SUMMARY_HEADER}\n\nassistant: a\n\n---\n\nuser: real text`);
  });

  it("drops an image block and keeps its text", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "assistant", content: "a" },
      { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } }, { type: "text", text: "see this" }] },
      { role: "assistant", content: "b" },
    ];
    expect(text(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 }))).toBe(`${SUMMARY_HEADER}\n\nassistant: a\n\n---\n\nuser: see this`);
  });

  it("re-compaction stays flat: the old summary is dropped, never merged", () => {
    const first = compact(aSession(10), "anthropic", { profile: "reference", keepRecent: 2 })!;
    const grown = [...first.messages, ...aSession(16).slice(21)];
    const second = compact(grown, "anthropic", { profile: "reference", keepRecent: 2 })!;
    expect(headerCount(second.summaryText)).toBe(1);
    expect(second.summaryText).not.toContain("Step 0:");
    expect(second.summaryText).toContain("Step 12:");
    expect(second.messages.filter((m) => JSON.stringify(m).includes(SUMMARY_HEADER))).toHaveLength(1);
  });

  it("the orphan summary forms its own group", () => {
    const first = compact(aSession(6), "anthropic", { profile: "reference", keepRecent: 1 })!;
    // head(1) + summary, then the tail: the summary sits between head and the first assistant.
    const again = compact(first.messages, "anthropic", { profile: "reference", keepRecent: 0 });
    expect(again!.headLen).toBe(1);
    expect(again!.summaryText).not.toContain("Step 0:");
  });

  it("a system message after the task is folded into the summary, not left in the head", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "system", content: "directive: be careful" },
      { role: "assistant", content: "a" },
      { role: "user", content: "b" },
      { role: "assistant", content: "c" },
    ];
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 })!;
    expect(r.headLen).toBe(1);
    expect(r.summaryText).toContain("system: directive: be careful");
    expect(r.messages.filter((m) => (m as { role: string }).role === "system")).toHaveLength(0);
    const empty = [{ role: "user", content: "task" }, { role: "system", content: [] }, ...msgs.slice(2)];
    expect(compact(empty, "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: a\n\n---\n\nuser: b`);
  });

  it("cuts the head at the first old summary (port rule)", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "user", content: SUMMARY_HEADER + "\n\nassistant: old" },
      { role: "user", content: "follow-up" },
      { role: "assistant", content: "ans" },
      { role: "user", content: "more" },
      { role: "assistant", content: "last" },
    ];
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 })!;
    expect(r.headLen).toBe(1);
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nuser: follow-up\n\n---\n\nassistant: ans\n\n---\n\nuser: more`);
  });

  it("keepRecent 0 recaps a single giant turn only when a cap makes it smaller", () => {
    const msgs = [{ role: "user", content: "task" }, { role: "assistant", content: "Z".repeat(5000) }];
    expect(compact(msgs, "anthropic", { profile: "reference", keepRecent: 0 })).toBeNull();
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 0, thoughtMaxChars: 300 })!;
    expect(r.messages).toHaveLength(2);
    expect(r.cut).toBe(2);
  });

  it("with zero parts the summary is the bare header", () => {
    const msgs = [
      { role: "user", content: "task" },
      { role: "assistant", content: [{ type: "redacted_thinking", data: "x" }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "x", content: "L".repeat(900) }] },
      { role: "assistant", content: "b" },
    ];
    expect(compact(msgs, "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText).toBe(SUMMARY_HEADER);
  });
});

describe("dialects", () => {
  it("Responses: a run of model output stays one turn; summary is an input_text message", () => {
    const input = [
      { type: "message", role: "developer", content: [{ type: "input_text", text: "be terse" }] },
      { type: "message", role: "user", content: [{ type: "input_text", text: "task" }] },
      { type: "reasoning", id: "rs1", summary: [{ type: "summary_text", text: "think 1" }], encrypted_content: "enc-abc" },
      { type: "function_call", call_id: "c1", name: "shell", arguments: '{"cmd":"ls"}' },
      { type: "function_call_output", call_id: "c1", output: "a.txt" },
      { type: "reasoning", id: "rs2", summary: [], encrypted_content: "enc-def" },
      { type: "function_call", call_id: "c2", name: "shell", arguments: '{"cmd":"cat a.txt"}' },
      { type: "function_call_output", call_id: "c2", output: "Q".repeat(900) },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "done" }] },
    ];
    expect(compact(input, "openai-responses", { profile: "reference", keepRecent: 1 })!.cut).toBe(8);
    const r = compact(input, "openai-responses", { profile: "reference", keepRecent: 2 })!;
    expect(r.headLen).toBe(2);
    expect(r.cut).toBe(5);
    expect(r.messages[3]).toBe(input[5]);
    expect(r.summary).toEqual({ type: "message", role: "user", content: [{ type: "input_text", text: r.summaryText }] });
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nthinking: think 1\n\n---\n\n[shell] {"cmd":"ls"}\n\n---\n\nresult: a.txt`);
    expect(JSON.stringify(r.messages)).not.toContain("enc-abc");
  });

  it("Pi: toolCall arguments are canonical, toolResult text kept when short, compactionSummary dropped", () => {
    const msgs = [
      { role: "user", content: [{ type: "text", text: "task" }] },
      { role: "compactionSummary", summary: "old", tokensBefore: 1 },
      { role: "assistant", content: [{ type: "thinking", thinking: "hmm" }, { type: "toolCall", id: "1", name: "read", arguments: { path: "a", b: 1 } }] },
      { role: "toolResult", toolCallId: "1", toolName: "read", content: [{ type: "text", text: "contents" }], isError: false },
      { role: "bashExecution", command: "make", output: "built", exitCode: 0 },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ];
    const r = compact(msgs, "pi", { profile: "reference", keepRecent: 1 })!;
    expect(r.headLen).toBe(1);
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nthinking: hmm\n[read] {"b":1,"path":"a"}\n\n---\n\nresult: contents\n\n---\n\n[bash] make\nresult: built`);
  });

  it("plain: roles mapped, JSON content in a provider shape decoded", () => {
    const msgs = [
      { role: "system", content: "sys" },
      { role: "user", content: "task" },
      { role: "assistant", content: JSON.stringify([{ type: "text", text: "look" }, { type: "tool_use", id: "1", name: "grep", input: { q: "x" } }]) },
      { role: "observation", content: "found x" },
      { role: "critic", content: "good" },
      { role: "ai", content: JSON.stringify({ role: "assistant", content: null, tool_calls: [{ function: { name: "ls", arguments: "{}" } }] }) },
      { role: "tool", content: "W".repeat(600) },
      { role: "model", content: "done" },
    ];
    const r = compact(msgs, "plain", { profile: "reference", keepRecent: 1 })!;
    expect(r.headLen).toBe(2);
    expect(r.summaryText).toBe(`${SUMMARY_HEADER}\n\nassistant: look\n[grep] {"q":"x"}\n\n---\n\nresult: found x\n\n---\n\ncritic: good\n\n---\n\n[ls] {}`);
  });
});

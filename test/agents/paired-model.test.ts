/** The scripted model's pairing checks refuse what the APIs refuse, so "every request accepted" in the client runs means something. */
import { describe, expect, it } from "vitest";
import { anthropicBroken, chatBroken, responsesBroken } from "./paired-model.js";

const use = (id: string) => ({ type: "tool_use", id, name: "bash", input: {} });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });
const call = (id: string) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } });

describe("the scripted model's pairing rules", () => {
  it("Anthropic: each tool_use answered in the next message, each tool_result answering the previous one", () => {
    expect(anthropicBroken([{ role: "user", content: "go" }, { role: "assistant", content: [use("a")] }, { role: "user", content: [result("a"), { type: "text", text: "more" }] }])).toBeNull();
    expect(anthropicBroken([{ role: "user", content: "go" }, { role: "assistant", content: [use("a"), use("b")] }, { role: "user", content: [result("a")] }])).toMatch(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: b\./);
    expect(anthropicBroken([{ role: "user", content: "go" }, { role: "assistant", content: [use("a")] }])).toMatch(/without `tool_result`/);
    expect(anthropicBroken([{ role: "user", content: [result("x")] }])).toMatch(/^messages\.0\.content: unexpected `tool_use_id` found in `tool_result` blocks: x/);
    expect(anthropicBroken([{ role: "assistant", content: "hi" }])).toMatch(/first message must use the user role/);
  });

  it("Chat: each tool_calls answered by tool messages before anything else, each tool message answering one", () => {
    expect(chatBroken([{ role: "system", content: "s" }, { role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [call("a"), call("b")] }, { role: "tool", tool_call_id: "b", content: "1" }, { role: "tool", tool_call_id: "a", content: "2" }, { role: "user", content: "next" }])).toBeNull();
    expect(chatBroken([{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [call("a")] }, { role: "user", content: "next" }])).toMatch(/did not have response messages: a \(messages\.\[2\]\)/);
    expect(chatBroken([{ role: "user", content: "go" }, { role: "tool", tool_call_id: "a", content: "1" }])).toMatch(/must be a response to a preceeding message with 'tool_calls'/);
    expect(chatBroken([{ role: "user", content: "go" }, { role: "assistant", content: null, tool_calls: [call("a")] }])).toMatch(/did not have response messages: a$/);
  });

  it("Responses: each function_call_output after its function_call, every call answered", () => {
    const fc = (id: string) => ({ type: "function_call", call_id: id, name: "bash", arguments: "{}" });
    const out = (id: string) => ({ type: "function_call_output", call_id: id, output: "ok" });
    expect(responsesBroken([{ type: "message", role: "user", content: "go" }, fc("a"), out("a")])).toBeNull();
    expect(responsesBroken([out("a"), fc("a")])).toBe("No tool call found for function call output with call_id a.");
    expect(responsesBroken([fc("a"), fc("b"), out("b")])).toBe("No tool output found for function call a.");
  });
});

import { describe, expect, it } from "vitest";
import { compact, SUMMARY_HEADER } from "../../core/index.js";

const summaryOf = (msgs: unknown[], dialect: string): string => compact(msgs, dialect, { keepRecent: 1 })!.summaryText;

describe("dialect coverage", () => {
  it("Responses: every call type with its own argument field, inline results, outputs", () => {
    const input = [
      { type: "message", role: "user", content: [{ type: "input_text", text: "task" }] },
      { type: "custom_tool_call", call_id: "1", name: "patcher", input: "*** Begin Patch" },
      { type: "custom_tool_call_output", call_id: "1", output: "patched" },
      { type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] },
      { type: "apply_patch_call", call_id: "2", operation: { type: "update_file", path: "a.ts" } },
      { type: "apply_patch_call_output", call_id: "2", output: "done" },
      { type: "computer_call", call_id: "3", action: { type: "click", x: 1, y: 2 } },
      { type: "computer_call_output", call_id: "3", output: { type: "computer_screenshot", image_url: "data:image/png;base64,AAAA" } },
      { type: "local_shell_call", call_id: "4", action: { type: "exec", command: ["ls"] } },
      { type: "local_shell_call_output", call_id: "4", output: "a.ts" },
      { type: "shell_call", call_id: "5", action: { commands: ["pwd"] } },
      { type: "shell_call_output", call_id: "5", output: [{ stdout: "/repo" }] },
      { type: "web_search_call", id: "ws", action: { type: "search", query: "cliff" } },
      { type: "file_search_call", id: "fs", queries: ["config"], results: [{ text: "config.ts found" }] },
      { type: "code_interpreter_call", id: "ci", code: "print(1)", outputs: [{ type: "logs", logs: "1" }] },
      { type: "mcp_call", id: "m", server_label: "docs", name: "lookup", arguments: "{\"q\":1}", output: "answer" },
      { type: "image_generation_call", id: "ig", revised_prompt: "a cat", result: "iVBOR" },
      { type: "function_call", call_id: "6", name: "att", arguments: "{}" },
      { type: "function_call_output", call_id: "6", output: [{ type: "input_image", image_url: "https://x/y.png" }] },
      { type: "message", role: "assistant", content: [{ type: "refusal", refusal: "I can't do that" }] },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "end" }] },
    ];
    expect(summaryOf(input, "openai-responses")).toBe([
      SUMMARY_HEADER + "\n\n[patcher] *** Begin Patch",
      "result: patched",
      "user: go on",
      '[apply_patch_call] {"path":"a.ts","type":"update_file"}',
      "result: done",
      '[computer_call] {"type":"click","x":1,"y":2}',
      '[local_shell_call] {"command":["ls"],"type":"exec"}',
      "result: a.ts",
      '[shell_call] {"commands":["pwd"]}',
      'result: [{"stdout":"/repo"}]',
      '[web_search_call] {"query":"cliff","type":"search"}',
      '[file_search_call] ["config"]\nresult: config.ts found',
      "[code_interpreter_call] print(1)\nresult: 1",
      '[lookup] {"q":1}\nresult: answer',
      "[image_generation_call] a cat",
      "[att] {}",
    ].join("\n\n---\n\n"));
    // The refusal and the closing message are one run of model output: the kept turn.
    expect(compact(input, "openai-responses", { keepRecent: 1 })!.messages.slice(-2)).toEqual(input.slice(-2));
  });

  it("Anthropic: server and MCP tools, code execution results, search results, web search errors", () => {
    const msgs = [
      { role: "user", content: "task" },
      {
        role: "assistant",
        content: [
          { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "x" } },
          { type: "web_search_tool_result", tool_use_id: "s1", content: { type: "web_search_tool_result_error", error_code: "unavailable" } },
          { type: "web_search_tool_result", tool_use_id: "s1", content: [{ type: "web_search_result", url: "u" }] },
          { type: "mcp_tool_use", id: "m1", name: "db", server_name: "pg", input: { sql: "select 1" } },
          { type: "mcp_tool_result", tool_use_id: "m1", content: [{ type: "text", text: "1 row" }] },
          { type: "bash_code_execution_tool_result", tool_use_id: "b", content: { type: "bash_code_execution_result", stdout: "ok", stderr: "", return_code: 0 } },
          { type: "text_editor_code_execution_tool_result", tool_use_id: "t", content: { type: "text_editor_code_execution_view_result", file_type: "image", content: "..." } },
        ],
      },
      { role: "user", content: [{ type: "search_result", source: "s", title: "t", content: [{ type: "text", text: "found it" }] }] },
      { role: "assistant", content: "end" },
    ];
    expect(summaryOf(msgs, "anthropic")).toBe(
      SUMMARY_HEADER +
        '\n\n[web_search] {"query":"x"}\nresult: {"error_code":"unavailable","type":"web_search_tool_result_error"}\n[db] {"sql":"select 1"}\nresult: 1 row\nresult: {"return_code":0,"stderr":"","stdout":"ok","type":"bash_code_execution_result"}' +
        "\n\n---\n\nresult: found it",
    );
  });

  it("Chat: refusals, legacy function_call, custom tools, function-role results, developer messages", () => {
    const msgs = [
      { role: "developer", content: "be brief" },
      { role: "user", content: "task" },
      { role: "assistant", content: null, refusal: "no way", function_call: { name: "legacy", arguments: "{\"a\":1}" } },
      { role: "function", name: "legacy", content: "legacy result" },
      { role: "assistant", content: [{ type: "text", text: "ok" }], tool_calls: [{ id: "c", type: "custom", custom: { name: "grammar", input: "raw input" } }] },
      { role: "developer", content: "mid-session note" },
      { role: "assistant", content: "end" },
    ];
    const r = compact(msgs, "openai-chat", { keepRecent: 1 })!;
    expect(r.headLen).toBe(2);
    expect(r.summaryText).toBe(SUMMARY_HEADER + '\n\nassistant: no way\n[legacy] {"a":1}\n\n---\n\nresult: legacy result\n\n---\n\nassistant: ok\n[grammar] raw input\n\n---\n\ndeveloper: mid-session note');
  });
});

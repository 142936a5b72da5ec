/** Small session files of every format the CLI reads, generated deterministically into a folder. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const long = (tag: string): string => `${tag} ` + "noise ".repeat(200);

export function writeSessionFiles(dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const files: Record<string, string> = {};
  const put = (name: string, content: string): void => {
    files[name] = join(dir, name);
    writeFileSync(files[name], content);
  };
  const lines = (xs: unknown[]): string => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

  // Pi, current format: a tree with an abandoned branch, a compaction entry.
  const pi: unknown[] = [{ type: "session", version: 3, id: "s1", timestamp: "2026-11-30T10:00:00.000Z", cwd: "/tmp" }];
  let parent: string | null = null;
  const add = (id: string, message: unknown, type = "message"): void => {
    pi.push({ type, id, parentId: parent, timestamp: "2026-11-30T10:00:00.000Z", ...(type === "message" ? { message } : (message as object)) });
    parent = id;
  };
  add("u0", { role: "user", content: [{ type: "text", text: "PI-TASK: fix the build" }], timestamp: 1 });
  for (let i = 0; i < 6; i++) {
    add(`a${i}`, { role: "assistant", content: [{ type: "text", text: `pi step ${i}` }, { type: "toolCall", id: `c${i}`, name: "bash", arguments: { command: `make ${i}` } }], timestamp: 2 });
    add(`r${i}`, { role: "toolResult", toolCallId: `c${i}`, toolName: "bash", content: [{ type: "text", text: i % 2 ? `ok ${i}` : long(`log ${i}`) }], isError: false, timestamp: 3 });
  }
  const fork = parent;
  add("dead", { role: "assistant", content: [{ type: "text", text: "ABANDONED BRANCH" }], timestamp: 4 });
  parent = fork;
  add("a6", { role: "assistant", content: [{ type: "text", text: "pi step 6" }], timestamp: 5 });
  put("pi-v3.jsonl", lines(pi));

  // Pi, v1: linear, no ids.
  const v1: unknown[] = [{ type: "session", id: "s0", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/tmp" }];
  v1.push({ type: "message", timestamp: "t", message: { role: "user", content: [{ type: "text", text: "V1-TASK" }] } });
  for (let i = 0; i < 5; i++) {
    v1.push({ type: "message", timestamp: "t", message: { role: "assistant", content: [{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}` } }] } });
    v1.push({ type: "message", timestamp: "t", message: { role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: `file ${i}` }], isError: false } });
  }
  put("pi-v1.jsonl", lines(v1));

  // Claude Code transcript: one API message split over two lines; a sidechain line to skip.
  const cc: unknown[] = [{ type: "summary", summary: "x" }, { type: "user", uuid: "1", message: { role: "user", content: "CC-TASK: tidy imports" } }];
  for (let i = 0; i < 5; i++) {
    cc.push({ type: "assistant", uuid: `a${i}`, message: { id: `msg_${i}`, role: "assistant", content: [{ type: "text", text: `cc step ${i}` }] } });
    cc.push({ type: "assistant", uuid: `b${i}`, message: { id: `msg_${i}`, role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `ls ${i}` } }] } });
    cc.push({ type: "user", uuid: `c${i}`, message: { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `listing ${i}` }] } });
  }
  cc.push({ type: "assistant", isSidechain: true, uuid: "z", message: { id: "side", role: "assistant", content: [{ type: "text", text: "SIDECHAIN" }] } });
  put("claude-code.jsonl", lines(cc));

  const anthropic = [{ role: "user", content: "ANT-TASK" }];
  for (let i = 0; i < 5; i++) {
    anthropic.push({ role: "assistant", content: [{ type: "text", text: `ant step ${i}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `pytest ${i}` } }] } as never);
    anthropic.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: i % 2 ? `passed ${i}` : long("fail") }] } as never);
  }
  put("anthropic.json", JSON.stringify({ model: "claude-x", max_tokens: 100, system: "sys", messages: anthropic }));

  const chat: unknown[] = [{ role: "system", content: "sys" }, { role: "user", content: "CHAT-TASK" }];
  for (let i = 0; i < 5; i++) {
    chat.push({ role: "assistant", content: `chat step ${i}`, tool_calls: [{ id: `c${i}`, type: "function", function: { name: "bash", arguments: `{"cmd":"ls ${i}"}` } }] });
    chat.push({ role: "tool", tool_call_id: `c${i}`, content: i % 2 ? `out ${i}` : long("big") });
  }
  put("openai-chat.json", JSON.stringify({ model: "gpt-x", messages: chat }));
  put("run.traj.json", JSON.stringify({ info: {}, trajectory_format: "x", messages: chat.map((m) => ({ ...(m as object), extra: { raw: "RAWDATA" } })) }));
  put("history.json", JSON.stringify({ history: chat }));

  const input: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "RESP-TASK" }] }];
  for (let i = 0; i < 5; i++) {
    input.push({ type: "function_call", call_id: `c${i}`, name: "shell", arguments: `{"cmd":"ls ${i}"}` });
    input.push({ type: "function_call_output", call_id: `c${i}`, output: `out ${i}` });
  }
  put("responses.json", JSON.stringify({ model: "gpt-x", instructions: "be brief", input }));

  const flat = [{ role: "user", content: "AP-TASK: ship it" }];
  for (let i = 0; i < 6; i++) {
    flat.push({ role: "assistant", content: `ap step ${i}` });
    flat.push({ role: "tool", content: i % 2 ? `short ${i}` : long(`secret port 4821${i}`) });
  }
  put("agentparley.json", JSON.stringify({ messages: flat, focus: "secret port" }));

  // Broken inputs.
  put("broken.json", '{"messages": [\n  {"role": "user", "content": "x"},\n  oops\n]}');
  put("broken.jsonl", '{"type":"session","id":"s"}\n{"type":"message","message":{"role":"user","content":"x"}}\n{not json\n');
  put("no-messages.json", JSON.stringify({ model: "m", prompt: "hi" }));
  put("bad-list.json", JSON.stringify({ messages: { role: "user" } }));
  put("bad-entry.json", JSON.stringify({ messages: [{ role: "user", content: "a" }, 5] }));
  put("empty.json", "");
  put("odd.jsonl", lines([{ hello: 1 }, { world: 2 }]));
  put("bad-config.json", JSON.stringify({ keepRecent: -2 }));
  return files;
}

/**
 * A story (agent-story.ts) in each wire format, with the tools and result shapes each family of
 * agents uses: Claude Code's (Read/Edit/Write/Bash/Grep/TodoWrite, `is_error`), an OpenAI Chat
 * agent's (read_file/edit_file/write_file/bash, SWE-agent-style return codes, OpenHands'
 * task_tracker), Codex's (shell, apply_patch, update_plan, exit codes in the output's metadata),
 * Gemini CLI's (read_file/replace/write_file/run_shell_command, signed steps), Pi's (read/edit/write/bash
 * with `isError`, message metadata), and AgentParley's flat messages
 * (signature lines and a checklist in the text). Ids, signatures, timestamps and usage are filled
 * in as the hosts write them: the measure must ignore them.
 */
import type { DialectName } from "../core/index.js";
import type { Call, PlanItem, StoryEvent } from "./agent-story.js";
import { agentStory } from "./agent-episodes.js";

const SYSTEM = "You are a coding agent working in /work/app. Use the tools to read, edit and test code. Keep answers short.";
type Msg = Record<string, unknown>;

function base62(n: number, len: number): string {
  const a = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let out = "";
  let x = (n * 2654435761) >>> 0;
  for (let i = 0; i < len; i++) {
    out += a[x % 62];
    x = (Math.imul(x, 48271) + i + 1) >>> 0;
  }
  return out;
}

function claudeInput(c: Call): [string, Msg] {
  switch (c.tool) {
    case "read": return ["Read", { file_path: c.path }];
    case "edit": return ["Edit", { file_path: c.path, old_string: c.old, new_string: c.next }];
    case "write": return ["Write", { file_path: c.path, content: c.content }];
    case "grep": return ["Grep", { pattern: c.pattern, path: c.path, output_mode: "content", "-n": true }];
    case "plan": return ["TodoWrite", { todos: (c.items ?? []).map((i) => ({ content: i.text, status: i.status, activeForm: i.text })) }];
    default: return ["Bash", { command: c.command, description: "Run a command" }];
  }
}

function anthropicMessages(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [];
  let results: Msg[] | null = null;
  for (const e of events) {
    if (e.kind !== "result") results = null;
    if (e.kind === "user") out.push({ role: "user", content: e.text });
    else if (e.kind === "assistant") {
      const content: Msg[] = [];
      if (e.thinking) content.push({ type: "thinking", thinking: e.thinking, signature: "Eq" + base62(out.length, 80) });
      if (e.text) content.push({ type: "text", text: e.text });
      for (const c of e.calls) {
        const [name, input] = claudeInput(c);
        content.push({ type: "tool_use", id: "toolu_01" + base62(Number(c.id.slice(1)), 22), name, input });
      }
      out.push({ role: "assistant", content });
    } else {
      if (results === null) out.push({ role: "user", content: (results = []) });
      const error = (e.exitCode ?? 0) !== 0;
      const block: Msg = { type: "tool_result", tool_use_id: "toolu_01" + base62(Number(e.call.id.slice(1)), 22), content: error ? `Exit code ${e.exitCode}\n${e.text}` : e.text };
      if (error) block.is_error = true;
      results.push(block);
    }
  }
  return out;
}

function chatCall(c: Call): [string, Msg] {
  switch (c.tool) {
    case "read": return ["read_file", { path: c.path }];
    case "edit": return ["edit_file", { path: c.path, old_text: c.old, new_text: c.next }];
    case "write": return ["write_file", { path: c.path, content: c.content }];
    case "grep": return ["bash", { command: `grep -rn "${c.pattern}" ${c.path}` }];
    case "plan": return ["task_tracker", { command: "plan", task_list: (c.items ?? []).map((i, k) => ({ id: String(k + 1), title: i.text, status: i.status === "completed" ? "done" : i.status === "pending" ? "todo" : "in_progress" })) }];
    default: return ["bash", { command: c.command }];
  }
}

function chatMessages(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [{ role: "system", content: SYSTEM }];
  for (const e of events) {
    if (e.kind === "user") out.push({ role: "user", content: e.text });
    else if (e.kind === "assistant") {
      const m: Msg = { role: "assistant", content: e.text || null };
      if (e.thinking) m.reasoning_content = e.thinking;
      if (e.calls.length > 0) m.tool_calls = e.calls.map((c) => ({ id: "call_" + base62(Number(c.id.slice(1)), 24), type: "function", function: { name: chatCall(c)[0], arguments: JSON.stringify(chatCall(c)[1]) } }));
      out.push(m);
    } else {
      const shell = chatCall(e.call)[0] === "bash";
      out.push({ role: "tool", tool_call_id: "call_" + base62(Number(e.call.id.slice(1)), 24), content: shell ? `<returncode>${e.exitCode ?? 0}</returncode>\n<output>\n${e.text}\n</output>` : e.text });
    }
  }
  return out;
}

function patch(c: Call): string {
  if (c.tool === "write") return ["*** Begin Patch", `*** Add File: ${c.path}`, ...(c.content ?? "").split("\n").map((l) => "+" + l), "*** End Patch"].join("\n");
  return ["*** Begin Patch", `*** Update File: ${c.path}`, "@@", ...(c.old ?? "").split("\n").map((l) => "-" + l), ...(c.next ?? "").split("\n").map((l) => "+" + l), "*** End Patch"].join("\n");
}

function codexCall(c: Call, callId: string): Msg {
  if (c.tool === "edit" || c.tool === "write") return { type: "custom_tool_call", id: "ctc_" + callId, status: "completed", call_id: callId, name: "apply_patch", input: patch(c) };
  if (c.tool === "plan") return { type: "function_call", id: "fc_" + callId, call_id: callId, name: "update_plan", arguments: JSON.stringify({ plan: (c.items ?? []).map((i: PlanItem) => ({ step: i.text, status: i.status })) }) };
  const cmd = c.tool === "read" ? `nl -ba ${c.path} | sed -n '1,400p'` : c.tool === "grep" ? `rg -n "${c.pattern}" ${c.path}` : c.command;
  return { type: "function_call", id: "fc_" + callId, call_id: callId, name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", cmd], workdir: "/work/app", timeout_ms: 120000 }) };
}

function responsesItems(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [{ type: "message", role: "developer", content: [{ type: "input_text", text: SYSTEM }] }];
  for (const e of events) {
    if (e.kind === "user") out.push({ type: "message", role: "user", content: [{ type: "input_text", text: e.text }] });
    else if (e.kind === "assistant") {
      if (e.thinking) out.push({ type: "reasoning", id: "rs_" + base62(out.length, 40), summary: [{ type: "summary_text", text: e.thinking }], encrypted_content: "gAAAAB" + base62(out.length, 120) });
      if (e.text) out.push({ type: "message", role: "assistant", id: "msg_" + base62(out.length, 40), content: [{ type: "output_text", text: e.text, annotations: [] }] });
      for (const c of e.calls) out.push(codexCall(c, "call_" + base62(Number(c.id.slice(1)), 24)));
    } else {
      const callId = "call_" + base62(Number(e.call.id.slice(1)), 24);
      if (e.call.tool === "edit" || e.call.tool === "write") out.push({ type: "custom_tool_call_output", call_id: callId, output: `Success. Updated the following files:\n${e.call.tool === "write" ? "A" : "M"} ${e.call.path}\n` });
      else if (e.call.tool === "plan") out.push({ type: "function_call_output", call_id: callId, output: "Plan updated" });
      else out.push({ type: "function_call_output", call_id: callId, output: JSON.stringify({ output: e.text, metadata: { exit_code: e.exitCode ?? 0, duration_seconds: 1.2 } }) });
    }
  }
  return out;
}

function piArgs(c: Call): [string, Msg] {
  switch (c.tool) {
    case "read": return ["read", { path: c.path }];
    case "edit": return ["edit", { path: c.path, oldText: c.old, newText: c.next }];
    case "write": return ["write", { path: c.path, content: c.content }];
    case "grep": return ["bash", { command: `grep -rn "${c.pattern}" ${c.path}` }];
    case "plan": return ["todo", { action: "set", todos: (c.items ?? []).map((i) => ({ text: i.text, status: i.status })) }];
    default: return ["bash", { command: c.command }];
  }
}

function piMessages(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [];
  let t = 1764500000000;
  for (const e of events) {
    t += 7919;
    if (e.kind === "user") out.push({ role: "user", content: [{ type: "text", text: e.text }], timestamp: t });
    else if (e.kind === "assistant") {
      const content: Msg[] = [];
      if (e.thinking) content.push({ type: "thinking", thinking: e.thinking, thinkingSignature: "Eq" + base62(t, 60) });
      if (e.text) content.push({ type: "text", text: e.text });
      for (const c of e.calls) content.push({ type: "toolCall", id: "toolu_" + base62(Number(c.id.slice(1)), 24), name: piArgs(c)[0], arguments: piArgs(c)[1] });
      const usage = { input: 1200 + out.length * 37, output: 180, cacheRead: 900 + out.length * 31, cacheWrite: 64, totalTokens: 2400 + out.length * 68, cost: { input: 0.0036, output: 0.0027, cacheRead: 0.00027, cacheWrite: 0.00024, total: 0.00681 } };
      out.push({ role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5-20250929", usage, stopReason: e.calls.length > 0 ? "toolUse" : "stop", timestamp: t });
    } else {
      const code = e.exitCode ?? 0;
      const text = code !== 0 ? `${e.text}\n\nCommand exited with code ${code}` : e.text;
      out.push({ role: "toolResult", toolCallId: "toolu_" + base62(Number(e.call.id.slice(1)), 24), toolName: piArgs(e.call)[0], content: [{ type: "text", text }], isError: code !== 0, timestamp: t });
    }
  }
  return out;
}

function geminiCall(c: Call): [string, Msg] {
  switch (c.tool) {
    case "read": return ["read_file", { file_path: c.path }];
    case "edit": return ["replace", { file_path: c.path, old_string: c.old, new_string: c.next, instruction: "Apply the fix" }];
    case "write": return ["write_file", { file_path: c.path, content: c.content }];
    case "grep": return ["grep_search", { pattern: c.pattern, dir_path: c.path }];
    case "plan": return ["write_todos", { todos: (c.items ?? []).map((i) => ({ description: i.text, status: i.status })) }];
    default: return ["run_shell_command", { command: c.command, description: "Run a command" }];
  }
}

/** Gemini CLI's contents: a step's first call signed, its results in one user content after it. */
function geminiContents(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [];
  let answers: Msg[] | null = null;
  for (const e of events) {
    if (e.kind !== "result") answers = null;
    if (e.kind === "user") out.push({ role: "user", parts: [{ text: e.text }] });
    else if (e.kind === "assistant") {
      const parts: Msg[] = [];
      if (e.thinking) parts.push({ text: e.thinking, thought: true });
      if (e.text) parts.push({ text: e.text });
      e.calls.forEach((c, k) => parts.push({ functionCall: { id: `${geminiCall(c)[0]}_${base62(Number(c.id.slice(1)), 13)}`, name: geminiCall(c)[0], args: geminiCall(c)[1] }, ...(k === 0 ? { thoughtSignature: "Cs" + base62(out.length, 90) } : {}) }));
      out.push({ role: "model", parts });
    } else {
      if (answers === null) out.push({ role: "user", parts: (answers = []) });
      const code = e.exitCode ?? 0;
      const name = geminiCall(e.call)[0];
      const output = name === "run_shell_command" ? `Output: ${e.text}\nExit Code: ${code}` : e.text;
      answers.push({ functionResponse: { id: `${name}_${base62(Number(e.call.id.slice(1)), 13)}`, name, response: code !== 0 && name !== "run_shell_command" ? { error: output } : { output } } });
    }
  }
  return out;
}

function plainMessages(events: StoryEvent[]): Msg[] {
  const out: Msg[] = [{ role: "system", content: SYSTEM }];
  for (const e of events) {
    if (e.kind === "user") out.push({ role: "user", content: e.text });
    else if (e.kind === "assistant") {
      const lines = e.text ? [e.text] : [];
      for (const c of e.calls) {
        if (c.tool === "plan") lines.push("Plan:", ...(c.items ?? []).map((i) => `- [${i.status === "completed" ? "x" : " "}] ${i.text}`));
        else lines.push(`[${piArgs(c)[0]}] ${JSON.stringify(piArgs(c)[1])}`);
      }
      out.push({ role: "assistant", content: lines.join("\n") });
    } else if (e.call.tool !== "plan") {
      const code = e.exitCode ?? 0;
      out.push({ role: "tool", content: code !== 0 ? `${e.text}\n(exit code ${code})` : e.text });
    }
  }
  return out;
}

const RENDER: Record<DialectName, (events: StoryEvent[]) => Msg[]> = {
  anthropic: anthropicMessages,
  "openai-chat": chatMessages,
  "openai-responses": responsesItems,
  gemini: geminiContents,
  pi: piMessages,
  plain: plainMessages,
};

/** A generated agent session in `dialect`, the same story for the same seed in every dialect. */
export function agentSession(dialect: DialectName, seed: number, episodes?: number): unknown[] {
  return JSON.parse(JSON.stringify(RENDER[dialect](agentStory(seed, episodes).events)));
}

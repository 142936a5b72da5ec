/**
 * Requests that ask for a compaction, shaped as the clients send them (captured from Claude Code
 * 2.1.332 and Codex 0.171.0 against a mock): Claude Code's summary request (its instruction as the
 * last text block of the last user message, after that message's tool results, tools still
 * declared), Codex's compaction turn (its checkpoint prompt as the last input item, and
 * `request_kind: "compaction"` in `x-codex-turn-metadata`), a Responses input ending in a
 * `compaction_trigger` item, and Anthropic's top-level `compaction` field.
 */
import { aSession } from "./sessions.js";

/** Claude Code's framing of every compaction prompt (2.1.332): its preamble, then the prompt, then its reminder. */
export function claudeCodeFramed(prompt: string, reply = "an <analysis> block followed by a <summary> block"): string {
  return (
    "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n" +
    "- Do NOT use Read, Bash, Grep, Glob, Edit, Write, or ANY other tool.\n" +
    "- You already have all the context you need in the conversation above.\n" +
    "- Tool calls will be REJECTED and will waste your only turn \u2014 you will fail the task.\n" +
    `- Your entire response must be plain text: ${reply}.\n\n` +
    prompt +
    `\n\nREMINDER: Do NOT call any tools. Respond with plain text only \u2014 ${reply}. Tool calls will be rejected and you will fail the task.`
  );
}

/** Claude Code's compaction prompt (2.1.332) in its framing, the prompt itself shortened. */
export const CLAUDE_CODE_INSTRUCTION = claudeCodeFramed(
  "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.\n" +
    "This summary should be thorough in capturing technical details, code patterns, and architectural decisions that would be essential for continuing development work without losing context.",
);

/** The first lines of Codex's checkpoint compaction prompt (0.171.0). */
export const CODEX_INSTRUCTION =
  "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume the task.\n\nInclude:\n- Current progress and key decisions made\n";

export const CLAUDE_TOOLS = [{ name: "Bash", description: "Run a command", input_schema: { type: "object", properties: { command: { type: "string" } } } }];

/** Claude Code's summary request over `n` tool steps: the instruction appended to the last user message. */
export function claudeCodeSummaryRequest(n: number, long = 3000): Record<string, unknown> {
  const messages = aSession(n, long) as { role: string; content: unknown[] }[];
  const last = messages[messages.length - 1];
  messages[messages.length - 1] = { ...last, content: [...last.content, { type: "text", text: CLAUDE_CODE_INSTRUCTION }] };
  return { model: "claude-sonnet-4-5", max_tokens: 20000, stream: true, system: [{ type: "text", text: "You are Claude Code." }], tools: CLAUDE_TOOLS, messages };
}

/** A Responses history of `n` shell steps after the task. */
export function responsesHistory(n: number, long = 3000): unknown[] {
  const input: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Fix the failing test in repo X." }] }];
  for (let i = 0; i < n; i++) {
    input.push({ type: "function_call", call_id: `call_${i}`, name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", `pytest tests/test_${i}.py -x`] }) });
    input.push({ type: "function_call_output", call_id: `call_${i}`, output: i % 2 === 0 ? "Y".repeat(long) : `test_${i} passed` });
  }
  return input;
}

export const CODEX_TOOLS = [{ type: "function", name: "shell", parameters: { type: "object", properties: { command: { type: "array", items: { type: "string" } } } } }];

/** Codex's compaction turn: the history, then its prompt as a user message. */
export function codexCompactionTurn(n: number, prompt = CODEX_INSTRUCTION): Record<string, unknown> {
  return { model: "gpt-5.6-sol", stream: true, tools: CODEX_TOOLS, input: [...responsesHistory(n), { type: "message", role: "user", content: [{ type: "input_text", text: prompt }] }] };
}

/** Codex's turn metadata header, with `request_kind` as given. */
export function codexTurnMetadata(kind: "turn" | "compaction"): Record<string, string> {
  const meta = { session_id: "s-1", thread_id: "s-1", turn_id: "t-1", request_kind: kind, ...(kind === "compaction" ? { compaction: { trigger: "auto", reason: "context_limit", implementation: "responses", phase: "mid_turn", strategy: "memento" } } : {}) };
  return { "x-codex-turn-metadata": JSON.stringify(meta) };
}

/** A Responses input ending in a `compaction_trigger` item (remote compaction v2). */
export function compactionTriggerRequest(n: number): Record<string, unknown> {
  return { model: "gpt-5.6-sol", stream: true, tools: CODEX_TOOLS, input: [...responsesHistory(n), { type: "compaction_trigger" }] };
}

/** Anthropic's compaction request: the top-level `compaction` field (beta compact-2026-09-04). */
export function anthropicCompactionRequest(n: number): Record<string, unknown> {
  return { model: "claude-sonnet-4-5", max_tokens: 4096, compaction: { type: "summarize" }, messages: aSession(n) };
}

/**
 * One tool call and its result written in each dialect's own shapes, so a rule's test states the
 * step once and checks it in every dialect it applies to.
 */

export type DialectName = "anthropic" | "openai-chat" | "openai-responses" | "pi" | "plain";
export const ALL_DIALECTS: DialectName[] = ["anthropic", "openai-chat", "openai-responses", "pi", "plain"];

export interface Step {
  name: string;
  args: Record<string, unknown>;
  result: string;
  /** The dialect's own error flag, where it has one (Anthropic is_error, Pi isError). */
  error?: boolean;
  /** Text the assistant says with the call. */
  say?: string;
}

let serial = 0;

/** The messages of one step in `dialect` (the assistant's call, then its result). */
export function stepMessages(dialect: DialectName, s: Step): unknown[] {
  const id = `call_${serial++}`;
  const say = s.say ?? "";
  switch (dialect) {
    case "anthropic":
      return [
        { role: "assistant", content: [...(say ? [{ type: "text", text: say }] : []), { type: "tool_use", id, name: s.name, input: s.args }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: s.result, ...(s.error ? { is_error: true } : {}) }] },
      ];
    case "openai-chat":
      return [
        { role: "assistant", content: say, tool_calls: [{ id, type: "function", function: { name: s.name, arguments: JSON.stringify(s.args) } }] },
        { role: "tool", tool_call_id: id, content: s.result },
      ];
    case "openai-responses":
      return [
        ...(say ? [{ type: "message", role: "assistant", content: [{ type: "output_text", text: say }] }] : []),
        { type: "function_call", call_id: id, name: s.name, arguments: JSON.stringify(s.args) },
        { type: "function_call_output", call_id: id, output: s.result },
      ];
    case "pi":
      return [
        { role: "assistant", content: [...(say ? [{ type: "text", text: say }] : []), { type: "toolCall", id, name: s.name, arguments: s.args }] },
        { role: "toolResult", toolCallId: id, toolName: s.name, content: [{ type: "text", text: s.result }], isError: s.error === true },
      ];
    case "plain":
      return [
        { role: "assistant", content: JSON.stringify([...(say ? [{ type: "text", text: say }] : []), { type: "tool_use", id, name: s.name, input: s.args }]) },
        { role: "tool", content: s.result },
      ];
  }
}

/** The task message of `dialect`. */
export function taskMessage(dialect: DialectName, text: string): unknown {
  if (dialect === "openai-responses") return { type: "message", role: "user", content: [{ type: "input_text", text }] };
  if (dialect === "pi") return { role: "user", content: [{ type: "text", text }] };
  return { role: "user", content: text };
}

/** A session: the task, then each step, in `dialect`. */
export function session(dialect: DialectName, steps: Step[], task = "Fix the parser in repo widgets."): unknown[] {
  return [taskMessage(dialect, task), ...steps.flatMap((s) => stepMessages(dialect, s))];
}

/** A step that keeps the tail busy: a short shell call and a short result. */
export const filler = (i: number): Step => ({ name: "bash", args: { command: `echo step ${i}` }, result: `step ${i}` });

/** A multi-line text of `lines` lines, each naming its number. */
export const numberedLines = (label: string, lines: number): string => Array.from({ length: lines }, (_, i) => `${label} line ${i}`).join("\n");

/** fast-check generators of whole sessions in every dialect, with hostile text mixed in. */
import fc from "fast-check";
import { SUMMARY_HEADER } from "../../core/index.js";

const PIECES = [
  "a", "b", "x", " ", "  ", "\n", "\t", '"', "\\", "é", "日本", "😀", "\ud800", "\udc00", "\u0000", "\u2028",
  "<task n=\"1\" chars=\"3\">", "</message>", "</digest>", "<cliff-summary v=\"1\" check=\"00000000\">", "---",
  "<task-notification>done</task-notification>", "__proto__", "constructor",
];

/** Text from hostile pieces and random strings, sometimes opening with the summary header. */
export const text = (maxPieces = 12): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.integer({ min: 0, max: 9 }),
      fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 8 }), fc.string({ unit: "binary", maxLength: 6 })), { maxLength: maxPieces }),
    )
    .map(([dice, parts]) => (dice === 0 ? SUMMARY_HEADER : "") + parts.join(""));

/** Exit-code lines agents' tools write into a result (the recall profile reads them). */
const EXIT_LINES: [string, string][] = [["<returncode>1</returncode>\n", ""], ["Exit code: 2\n", ""], ["", "\nCommand exited with code 3"], ["", "\n[Command finished with exit code 0]"]];

/** A result body: short, or long enough to be dropped (400–1200 chars), some stating an exit code. */
export const resultText: fc.Arbitrary<string> = fc.oneof(
  text(6),
  fc.tuple(text(3), fc.integer({ min: 400, max: 1200 })).map(([t, n]) => t + "L".repeat(n)),
  fc.tuple(fc.constantFrom(...EXIT_LINES), text(3), fc.integer({ min: 40, max: 120 }), text(3)).map(([[pre, post], a, n, b]) => pre + a + "line\n".repeat(n) + b + post),
);

/** New text for an edit: one line, or many lines (long enough to be cut). */
const newText: fc.Arbitrary<string> = fc.oneof(text(6), fc.tuple(text(3), fc.integer({ min: 5, max: 80 })).map(([t, n]) => (t + "\n").repeat(n)));

export const args: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ file_path: text(2), new_string: newText, old_string: text(3) }),
  fc.record({ path: text(2), edits: fc.array(fc.record({ newText }), { maxLength: 3 }) }),
  fc.record({ todos: fc.array(fc.record({ content: text(5), status: fc.constantFrom("pending", "completed") }), { maxLength: 4 }) }),
  fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("__proto__", "constructor", "prototype", "2", "😀")), fc.oneof(fc.string({ maxLength: 10 }), fc.double(), fc.integer(), fc.constantFrom(NaN, Infinity, -0, null, true)), { maxKeys: 4 }),
  text(4),
);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAMgAAADICAYAAACtWK6eAAAA";

/** Anthropic Messages sessions. */
export const anthropicSession: fc.Arbitrary<unknown[]> = fc
  .tuple(
    text(),
    fc.array(
      fc.record({
        thinking: fc.option(text(), { nil: undefined }),
        say: fc.option(text(), { nil: undefined }),
        calls: fc.array(fc.tuple(fc.constantFrom("bash", "read", "", "Edit", "TodoWrite", "MultiEdit"), args), { maxLength: 2 }),
        results: fc.array(fc.tuple(resultText, fc.boolean()), { maxLength: 2 }),
        image: fc.boolean(),
        human: fc.option(text(), { nil: undefined }),
      }),
      { maxLength: 8 },
    ),
  )
  .map(([task, turns]) => {
    const msgs: unknown[] = [{ role: "user", content: task }];
    turns.forEach((t, i) => {
      const content: unknown[] = [];
      if (t.thinking !== undefined) content.push({ type: "thinking", thinking: t.thinking, signature: "SIG" });
      if (t.say !== undefined) content.push({ type: "text", text: t.say });
      t.calls.forEach(([name, a], k) => content.push({ type: "tool_use", id: `t${i}_${k}`, name, input: a }));
      msgs.push({ role: "assistant", content });
      const user: unknown[] = t.results.map(([r, error], k) => ({ type: "tool_result", tool_use_id: `t${i}_${k}`, content: r, ...(error ? { is_error: true } : {}) }));
      if (t.image) user.push({ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } });
      if (t.human !== undefined) user.push({ type: "text", text: t.human });
      if (user.length > 0) msgs.push({ role: "user", content: user });
    });
    return msgs;
  });

/** OpenAI Chat sessions. */
export const chatSession: fc.Arbitrary<unknown[]> = fc
  .tuple(text(), fc.array(fc.record({ say: text(), reasoning: fc.option(text(), { nil: undefined }), calls: fc.array(fc.tuple(fc.constantFrom("bash", "grep", "str_replace_editor", "update_plan", "apply_patch"), args), { maxLength: 2 }), results: fc.array(resultText, { maxLength: 2 }), human: fc.option(text(), { nil: undefined }) }), { maxLength: 8 }))
  .map(([task, turns]) => {
    const msgs: unknown[] = [{ role: "system", content: "sys" }, { role: "user", content: task }];
    turns.forEach((t, i) => {
      msgs.push({
        role: "assistant", content: t.say, ...(t.reasoning !== undefined ? { reasoning_content: t.reasoning } : {}),
        tool_calls: t.calls.map(([name, a], k) => ({ id: `c${i}_${k}`, type: "function", function: { name, arguments: typeof a === "string" ? a : JSON.stringify(a) } })),
      });
      t.results.forEach((r, k) => msgs.push({ role: "tool", tool_call_id: `c${i}_${k}`, content: r }));
      if (t.human !== undefined) msgs.push({ role: "user", content: t.human });
    });
    return msgs;
  });

/** OpenAI Responses input items. */
export const responsesSession: fc.Arbitrary<unknown[]> = fc
  .tuple(text(), fc.array(fc.record({ reasoning: fc.option(text(), { nil: undefined }), calls: fc.array(fc.tuple(fc.constantFrom("shell", "apply", "apply_patch", "update_plan", "write_file"), args), { maxLength: 2 }), results: fc.array(resultText, { maxLength: 2 }), say: fc.option(text(), { nil: undefined }) }), { maxLength: 8 }))
  .map(([task, turns]) => {
    const items: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: task }] }];
    turns.forEach((t, i) => {
      if (t.reasoning !== undefined) items.push({ type: "reasoning", id: `r${i}`, summary: [{ type: "summary_text", text: t.reasoning }], encrypted_content: "enc-x" });
      t.calls.forEach(([name, a], k) => items.push({ type: "function_call", call_id: `c${i}_${k}`, name, arguments: typeof a === "string" ? a : JSON.stringify(a) }));
      t.results.forEach((r, k) => items.push({ type: "function_call_output", call_id: `c${i}_${k}`, output: r }));
      if (t.say !== undefined) items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: t.say }] });
    });
    return items;
  });

/** Pi AgentMessages. */
export const piSession: fc.Arbitrary<unknown[]> = fc
  .tuple(text(), fc.array(fc.record({ thinking: fc.option(text(), { nil: undefined }), say: fc.option(text(), { nil: undefined }), calls: fc.array(fc.tuple(fc.constantFrom("read", "bash", "edit", "write", "todo"), args), { maxLength: 2 }), results: fc.array(fc.tuple(resultText, fc.boolean()), { maxLength: 2 }), bash: fc.option(fc.tuple(text(3), resultText, fc.integer({ min: 0, max: 2 })), { nil: undefined }) }), { maxLength: 8 }))
  .map(([task, turns]) => {
    const msgs: unknown[] = [{ role: "user", content: [{ type: "text", text: task }] }];
    turns.forEach((t, i) => {
      const content: unknown[] = [];
      if (t.thinking !== undefined) content.push({ type: "thinking", thinking: t.thinking });
      if (t.say !== undefined) content.push({ type: "text", text: t.say });
      t.calls.forEach(([name, a], k) => content.push({ type: "toolCall", id: `c${i}_${k}`, name, arguments: a }));
      msgs.push({ role: "assistant", content });
      t.results.forEach(([r, isError], k) => msgs.push({ role: "toolResult", toolCallId: `c${i}_${k}`, toolName: "read", content: [{ type: "text", text: r }], isError }));
      if (t.bash !== undefined) msgs.push({ role: "bashExecution", command: t.bash[0], output: t.bash[1], exitCode: t.bash[2] });
    });
    return msgs;
  });

/**
 * Gemini API contents as Gemini CLI sends them: model turns of thought text, text and function
 * calls (the first call of a step signed, ids on some), each answered by one user content of as
 * many function responses, by name and order; images inline; a human turn now and then.
 */
export const geminiSession: fc.Arbitrary<unknown[]> = fc
  .tuple(text(), fc.array(fc.record({
    thought: fc.option(text(), { nil: undefined }),
    say: fc.option(text(), { nil: undefined }),
    calls: fc.array(fc.tuple(fc.constantFrom("read_file", "run_shell_command", "replace", "write_file", "write_todos", "glob"), args, fc.boolean()), { maxLength: 2 }),
    results: fc.array(fc.tuple(resultText, fc.boolean()), { maxLength: 2 }),
    image: fc.boolean(),
    human: fc.option(text(), { nil: undefined }),
  }), { maxLength: 8 }))
  .map(([task, turns]) => {
    const contents: unknown[] = [{ role: "user", parts: [{ text: task }] }];
    turns.forEach((t, i) => {
      const parts: unknown[] = [];
      if (t.thought !== undefined) parts.push({ text: t.thought, thought: true });
      if (t.say !== undefined) parts.push({ text: t.say });
      t.calls.forEach(([name, a, withId], k) => parts.push({ functionCall: { ...(withId ? { id: `g${i}_${k}` } : {}), name, args: typeof a === "object" && a !== null ? a : { value: a } }, ...(k === 0 ? { thoughtSignature: `SIG${i}` } : {}) }));
      if (parts.length === 0) parts.push({ text: "" });
      contents.push({ role: "model", parts });
      const answers: unknown[] = t.calls.map(([name, , withId], k) => {
        const [r, error] = t.results[k] ?? ["", false];
        return { functionResponse: { ...(withId ? { id: `g${i}_${k}` } : {}), name, response: error ? { error: r } : { output: r } } };
      });
      if (t.image) answers.push({ inlineData: { mimeType: "image/png", data: PNG } });
      if (t.human !== undefined) answers.push({ text: t.human });
      // Roles alternate, as the API requires: a model text with nothing to answer is followed by the user's next prompt.
      if (answers.length === 0 && i < turns.length - 1) answers.push({ text: "Go on." });
      if (answers.length > 0) contents.push({ role: "user", parts: answers });
    });
    return contents;
  });

/** A tool call written as an Anthropic block list in a flat message's content. */
const blockCall: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom("Edit", "TodoWrite", "bash", "Write"), args)
  .map(([name, input]) => JSON.stringify([{ type: "tool_use", id: "x", name, input }]));

/** AgentParley flat messages; roles vary, some unknown. */
export const plainSession: fc.Arbitrary<{ role: string; content: string }[]> = fc
  .tuple(text(), fc.array(fc.tuple(fc.constantFrom("assistant", "model", "ai", "tool", "observation", "user", "human", "critic", "system"), fc.oneof(text(), resultText, blockCall)), { maxLength: 16 }))
  .map(([task, rest]) => [{ role: "user", content: task }, ...rest.map(([role, content]) => ({ role, content }))]);

/** Every dialect with its generator. */
export const DIALECT_SESSIONS: [string, fc.Arbitrary<unknown[]>][] = [
  ["anthropic", anthropicSession],
  ["openai-chat", chatSession],
  ["openai-responses", responsesSession],
  ["gemini", geminiSession],
  ["pi", piSession],
  ["plain", plainSession],
];

/** Role names a strange host may send: long ones, with NUL, control characters and lone surrogates. */
export const hostileRole: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("assistant", "tool", "user", "system", "critic"),
  fc.tuple(fc.constantFrom("r", "\u0000", "\ud800", "\udc00", "é", "\u0001", '"', "\\"), fc.integer({ min: 60, max: 5000 })).map(([c, n]) => "role" + c.repeat(n)),
  text(3),
);

/** Content a strange host may send: bracket bombs, binary bytes, lone surrogates at the edges. */
export const hostileContent: fc.Arbitrary<string> = fc.oneof(
  text(),
  resultText,
  fc.integer({ min: 100, max: 12_000 }).map((n) => "[".repeat(n) + "]".repeat(n)),
  fc.integer({ min: 100, max: 6_000 }).map((n) => "{" + '"a":{'.repeat(n) + "}".repeat(n + 1)),
  fc.tuple(fc.constantFrom("\ud83d", "\udc00", "\u0000", "\ue000"), text(3), fc.constantFrom("\ud83d", "\udc00", "\u0000", "\ue000")).map(([a, t, b]) => a + t + b),
);

/** AgentParley sessions with hostile roles and contents after a plain task. */
export const hostilePlainSession: fc.Arbitrary<{ role: string; content: string }[]> = fc
  .tuple(text(), fc.array(fc.tuple(fc.oneof(fc.constantFrom("assistant", "tool"), hostileRole), hostileContent), { minLength: 2, maxLength: 14 }))
  .map(([task, rest]) => [{ role: "user", content: task }, ...rest.map(([role, content]) => ({ role, content }))]);

/**
 * A tool result the client itself replaced with a placeholder: Claude Code keeps an output over
 * 30,000 characters out of the request, saves it whole to a file of its own and sends
 * `<persisted-output>` with the path and a 2 KB preview. The request never holds the output, so a
 * recall of that result's ref can only give the placeholder back: the answer says first, plainly,
 * that the whole output is in the client's file at that path and how to read it in pages, and the
 * summary's ref line for it names the file. OpenCode does the same for an output over 2,000 lines
 * or 51,200 bytes, sending a part of it and a line naming the file, and Copilot CLI for a large one,
 * sending a line naming the file and a preview. Recognised in Claude Code's three forms, OpenCode's
 * three and Copilot CLI's one only; the reference profile (no refs) says nothing of it.
 */
import { describe, expect, it } from "vitest";
import { compact } from "../../core/index.js";
import { answerRecall, clientFileOf, RecallTexts, refOf } from "../../core/recall/index.js";
import { getDialect, resolveConfig } from "../../core/index.js";

const PATH = "/home/me/.claude/projects/-home-me-work/06faa2d5-13d6-47b3-ae56-f0621c6a2e14/tool-results/b5snjxqk5.txt";
const preview = Array.from({ length: 95 }, (_, i) => String(100_000 + i).padStart(20, "0")).join("\n");
/** Claude Code 2.1.332's placeholder for a 60,900-character Bash output, as it reached the proxy. */
const WRAPPER = `<persisted-output>\nOutput too large (59.5KB). Full output saved to: ${PATH}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
const OVER_CAP = `<persisted-output>\nOutput exceeded the 64MB persist limit; only the first 64MB were saved to: ${PATH}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
const CONTEXT_HINT = `<persisted-output>Tool result saved to: ${PATH} (truncated to the first 2MB of the output)\n\nUse Read to view</persisted-output>`;

describe("the client's placeholder for an output it saved to a file of its own", () => {
  it("is recognised in each of Claude Code's forms: the path, and how much of the output the file holds", () => {
    const read = "Claude Code: Read, in pages of offset and limit lines";
    expect(clientFileOf(WRAPPER)).toEqual({ path: PATH, size: "59.5KB", first: null, reader: read });
    expect(clientFileOf(OVER_CAP)).toEqual({ path: PATH, size: null, first: "64MB", reader: read });
    expect(clientFileOf(CONTEXT_HINT)).toEqual({ path: PATH, size: null, first: "2MB", reader: read });
    expect(clientFileOf(CONTEXT_HINT.replace(" (truncated to the first 2MB of the output)", ""))).toEqual({ path: PATH, size: null, first: null, reader: read });
    // A path with spaces (a home folder such as "/Users/Jane Doe") is the rest of its line.
    expect(clientFileOf(WRAPPER.replace(PATH, "/Users/Jane Doe/x.txt"))?.path).toBe("/Users/Jane Doe/x.txt");
  });

  it("is not recognised in an output that only quotes it, or a wrapper that names no file", () => {
    expect(clientFileOf(`$ cat notes.md\n${WRAPPER}`)).toBeNull();
    expect(clientFileOf(`Output too large (59.5KB). Full output saved to: ${PATH}`)).toBeNull();
    expect(clientFileOf("<persisted-output>\nsomething else\n</persisted-output>")).toBeNull();
    expect(clientFileOf(`<persisted-output>\nOutput too large (59.5KB). Full output saved to: ${PATH}\n`)).toBeNull();
    expect(clientFileOf("<persisted-output>\nOutput too large (59.5KB). Full output saved to: \n</persisted-output>")).toBeNull();
    // The saved-to line of a preview (the output quoting one) is not the placeholder's own.
    expect(clientFileOf(`<persisted-output>\nPreview (first 2KB):\nOutput too large (1KB). Full output saved to: /x\n</persisted-output>`)).toBeNull();
  });
});

const history = (...results: string[]): unknown[] => {
  const messages: unknown[] = [{ role: "user", content: "Print the numbers." }];
  results.forEach((r, i) => {
    messages.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `seq ${i}` } }] });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: r }] });
  });
  messages.push({ role: "assistant", content: "Done." }, { role: "user", content: "Next." });
  return messages;
};

describe("a recall of a placeholder's ref", () => {
  const texts = RecallTexts.of(history(WRAPPER, OVER_CAP, "y".repeat(3000)), getDialect("anthropic"), resolveConfig({}));

  it("says first that the whole output is in the client's file at that path, and how to page it; then the placeholder exactly", () => {
    const ref = refOf(WRAPPER);
    const a = answerRecall({ ref }, texts);
    expect(a.isError).toBe(false);
    const [note, ...rest] = a.text.split("\n");
    expect(rest.join("\n")).toBe(WRAPPER);
    expect(note).toBe(
      `[ref ${ref} is the client's placeholder for an output too long for its context, not the output: the client saved the whole output (59.5KB) to its own file ${PATH}. ` +
        "Read that file with the client's file-reading tool (Claude Code: Read, in pages of offset and limit lines when it is long); the placeholder follows]",
    );
    expect(a.recalled).toEqual({ ref, chars: WRAPPER.length, given: WRAPPER.length });
  });

  it("says when the file holds only the first part of the output", () => {
    const a = answerRecall({ ref: refOf(OVER_CAP) }, texts);
    expect(a.text.split("\n")[0]).toContain(`the client saved the first 64MB of the output to its own file ${PATH}.`);
    expect(a.text.endsWith(OVER_CAP)).toBe(true);
  });

  it("leaves any other text exactly as it was, nothing added", () => {
    expect(answerRecall({ ref: refOf("y".repeat(3000)) }, texts).text).toBe("y".repeat(3000));
  });
});

describe("the summary's line for a placeholder the cliff drops", () => {
  const messages = history(WRAPPER, "z".repeat(3000), "w".repeat(40));

  it("names the client's file after the ref line (the recall profile)", () => {
    const s = compact(messages, "anthropic", { keepRecent: 1 })!.summaryText;
    const ref = `result: dropped ${WRAPPER.length.toLocaleString("en-US")} chars, ref ${refOf(WRAPPER)}`;
    expect(s).toContain(`${ref}\nresult: the client saved the whole output (59.5KB) to its own file ${PATH}; read it there, in pages\n`);
    // Only that result's: another long one has its ref line alone.
    expect(s).toContain(`result: dropped 3,000 chars, ref ${refOf("z".repeat(3000))}\n`);
    expect(s.match(/its own file/g)).toHaveLength(1);
  });

  it("is not written where refs are not (the reference profile)", () => {
    const s = compact(messages, "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText;
    expect(s).not.toContain("its own file");
    expect(s).not.toContain(", ref ");
  });
});

const OC_PATH = "/home/me/.local/share/opencode/tool-output/tool_24c997744001apzNWtOiYxxGg2";
const numbers = (from: number, to: number): string => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(20, "0")).join("\n");
/** OpenCode 1.18.33's shell result for a 2,900-line output, as it reached the proxy: the line, then the last 2,000 lines. */
const OC_SHELL = `...output truncated...\n\nFull output saved to: ${OC_PATH}\n\n${numbers(100_901, 102_899)}\n`;
const OC_HINT = "Use Grep to search the full content or Read with offset/limit to view specific sections.";
/** Its other tools' (grep, webfetch, an MCP tool's): the first lines, then the line and a hint. */
const OC_TOOL = `${numbers(1, 2000)}\n\n...900 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ${OC_PATH}\n${OC_HINT}`;
const OC_TASK_HINT = "Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.";
/** Its v2 tool runner's: the first and the last lines, the line between them. */
const OC_V2 = `${numbers(1, 998)}\n\n... output truncated; full content saved to ${OC_PATH} ...\n\n${numbers(1903, 2900)}`;

describe("OpenCode's shortened output, the whole saved to a file of its own", () => {
  const whole = { path: OC_PATH, size: null, first: null, reader: "OpenCode: read, in pages of offset and limit lines" };

  it("is recognised in each of OpenCode's forms: the path, the file holding the whole output", () => {
    expect(clientFileOf(OC_SHELL)).toEqual(whole);
    // The shell's own note on a command stopped after its timeout comes after the output.
    expect(clientFileOf(`${OC_SHELL}\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms.\n</shell_metadata>`)).toEqual(whole);
    expect(clientFileOf(OC_TOOL)).toEqual(whole);
    expect(clientFileOf(OC_TOOL.replace(OC_HINT, OC_TASK_HINT))).toEqual(whole);
    // A first line over the byte limit: nothing of the output before the line.
    expect(clientFileOf(OC_TOOL.replace(`${numbers(1, 2000)}\n\n...900 lines`, "\n\n...61234 bytes"))).toEqual(whole);
    expect(clientFileOf(OC_V2)).toEqual(whole);
    expect(clientFileOf(`${numbers(1, 998)}\n\n... output truncated; full content saved to ${OC_PATH} ...`)).toEqual(whole);
    expect(clientFileOf(OC_SHELL.replace(OC_PATH, "/Users/Jane Doe/.local/share/opencode/tool-output/tool_1"))?.path).toBe("/Users/Jane Doe/.local/share/opencode/tool-output/tool_1");
  });

  it("is not recognised where an output only quotes the line, or the line is not where OpenCode puts it", () => {
    expect(clientFileOf(`$ cat notes.md\n${OC_SHELL}`)).toBeNull();
    expect(clientFileOf(`...output truncated...\n\nFull output saved to: ${OC_PATH}`)).toBeNull();
    expect(clientFileOf(`...output truncated...\n\nFull output saved to: \n\n${numbers(1, 3)}`)).toBeNull();
    expect(clientFileOf(`${OC_TOOL}\nmore of the output`)).toBeNull();
    expect(clientFileOf(OC_TOOL.replace("...900 lines truncated...\n\n", ""))).toBeNull();
    expect(clientFileOf(OC_TOOL.replace(OC_HINT, "Use Grep."))).toBeNull();
    expect(clientFileOf(`${numbers(1, 3)}\n... output truncated; full content saved to ${OC_PATH} ...\n${numbers(4, 6)}`)).toBeNull();
    expect(clientFileOf(`... output truncated; full content saved to ${OC_PATH}`)).toBeNull();
    expect(clientFileOf(numbers(1, 3000))).toBeNull();
  });

  it("a recall of its ref says first that the whole output is in OpenCode's file, to be read with its read tool; then the text exactly, in pages", () => {
    const texts = RecallTexts.of(history(OC_SHELL, OC_TOOL), getDialect("anthropic"), resolveConfig({}));
    const ref = refOf(OC_SHELL);
    const a = answerRecall({ ref }, texts);
    expect(a.isError).toBe(false);
    const [note, head] = a.text.split("\n");
    expect(note).toBe(
      `[ref ${ref} is the client's placeholder for an output too long for its context, not the output: the client saved the whole output to its own file ${OC_PATH}. ` +
        "Read that file with the client's file-reading tool (OpenCode: read, in pages of offset and limit lines when it is long); the placeholder follows]",
    );
    // 42,101 characters: the first page of 20,000 after the note.
    expect(head).toBe(`[ref ${ref}: characters 0 to 20,000 of 42,101; 22,101 remain: call again with {"ref": "${ref}", "offset": 20000} for the next page]`);
    expect(a.text.endsWith(`\n${OC_SHELL.slice(0, 20_000)}`)).toBe(true);
    // Later pages are the text alone.
    expect(answerRecall({ ref, offset: 20_000 }, texts).text).not.toContain("its own file");
    expect(answerRecall({ ref: refOf(OC_TOOL) }, texts).text.split("\n")[0]).toContain(`to its own file ${OC_PATH}. Read that file with the client's file-reading tool (OpenCode: read,`);
  });

  it("the summary's line after its ref line names the file; not in the reference profile", () => {
    const messages = history(OC_SHELL, "z".repeat(3000), "w".repeat(40));
    const s = compact(messages, "anthropic", { keepRecent: 1 })!.summaryText;
    const ref = `result: dropped ${OC_SHELL.length.toLocaleString("en-US")} chars, ref ${refOf(OC_SHELL)}`;
    expect(s).toContain(`${ref}\nresult: the client saved the whole output to its own file ${OC_PATH}; read it there, in pages\n`);
    expect(s.match(/its own file/g)).toHaveLength(1);
    expect(compact(messages, "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText).not.toContain("its own file");
  });
});

const CP_PATH = "/tmp/1796582354860-copilot-tool-output-16300-2c1963fc-fdbf-412b-8ec0-002938299fa0.txt";
/** Copilot CLI 1.0.102's bash result for a 60,900-character output, as it reached the proxy. */
const CP_SHELL =
  `Output too large to read at once (59.5 KB). Saved to: ${CP_PATH}\n` +
  "Consider using tools like rg (for searching), head/tail (for viewing start/end), view with view_range (for specific sections), or jq (for JSON) to examine portions of the output.\n\n" +
  `Preview (first 500 chars):\n${numbers(100_000, 100_023)}\n00000000000000100\n<shellId: 0 completed with exit code 0>`;

describe("Copilot CLI's large output, saved to a file of its own", () => {
  it("is recognised where Copilot CLI puts its line: the path and the output's size", () => {
    expect(clientFileOf(CP_SHELL)).toEqual({ path: CP_PATH, size: "59.5 KB", first: null, reader: "Copilot CLI: view, in pages of view_range lines" });
  });

  it("is not recognised where an output only quotes the line", () => {
    expect(clientFileOf(`$ cat log\n${CP_SHELL}`)).toBeNull();
    expect(clientFileOf(CP_SHELL.replace("\nConsider using tools like", "\nSomething else"))).toBeNull();
    expect(clientFileOf(`Output too large to read at once (59.5 KB). Saved to: ${CP_PATH}`)).toBeNull();
  });

  it("a recall of its ref says the whole output is in Copilot CLI's file, to be read with its view; the summary names the file", () => {
    const texts = RecallTexts.of(history(CP_SHELL), getDialect("anthropic"), resolveConfig({}));
    const ref = refOf(CP_SHELL);
    const a = answerRecall({ ref }, texts);
    expect(a.text).toBe(
      `[ref ${ref} is the client's placeholder for an output too long for its context, not the output: the client saved the whole output (59.5 KB) to its own file ${CP_PATH}. ` +
        `Read that file with the client's file-reading tool (Copilot CLI: view, in pages of view_range lines when it is long); the placeholder follows]\n${CP_SHELL}`,
    );
    const s = compact(history(CP_SHELL, "z".repeat(3000), "w".repeat(40)), "anthropic", { keepRecent: 1 })!.summaryText;
    expect(s).toContain(`ref ${ref}\nresult: the client saved the whole output (59.5 KB) to its own file ${CP_PATH}; read it there, in pages\n`);
  });
});

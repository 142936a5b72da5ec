/**
 * A tool result the client itself replaced with a placeholder: Claude Code keeps an output over
 * 30,000 characters out of the request, saves it whole to a file of its own and sends
 * `<persisted-output>` with the path and a 2 KB preview. The request never holds the output, so a
 * recall of that result's ref can only give the placeholder back: the answer says first, plainly,
 * that the whole output is in the client's file at that path and how to read it in pages, and the
 * summary's ref line for it names the file. Recognised in Claude Code's three forms only; the
 * reference profile (no refs) says nothing of it.
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
    expect(clientFileOf(WRAPPER)).toEqual({ path: PATH, size: "59.5KB", first: null });
    expect(clientFileOf(OVER_CAP)).toEqual({ path: PATH, size: null, first: "64MB" });
    expect(clientFileOf(CONTEXT_HINT)).toEqual({ path: PATH, size: null, first: "2MB" });
    expect(clientFileOf(CONTEXT_HINT.replace(" (truncated to the first 2MB of the output)", ""))).toEqual({ path: PATH, size: null, first: null });
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

/** The Gemini dialect on known shapes: what a summary says of each part, the head, images, and hostile contents. */
import { describe, expect, it } from "vitest";
import { compact, detectDialect, estimateTokens, getDialect, isWellFormed, resolveConfig, sendableList, SUMMARY_HEADER } from "../../core/index.js";

const g = getDialect("gemini");
const cfg = resolveConfig({});
const user = (text: string) => ({ role: "user", parts: [{ text }] });

describe("gemini dialect", () => {
  it("summarises text, thoughts, calls, responses and code execution; a signature is never quoted", () => {
    const model = {
      role: "model",
      parts: [
        { text: "weighing the options", thought: true },
        { text: "Reading the config." },
        { functionCall: { id: "read_file_1", name: "read_file", args: { file_path: "src/app.ts" } }, thoughtSignature: "CiQBSECRETSIGNATURE" },
        { executableCode: { language: "PYTHON", code: "print(1)" } },
        { codeExecutionResult: { outcome: "OUTCOME_FAILED", output: "Traceback: boom" } },
      ],
    };
    const parts = g.summarize(model, { cfg });
    const text = parts.join("\n");
    expect(text).toContain("Reading the config.");
    expect(text).toContain("read_file");
    expect(text).toContain("src/app.ts");
    expect(text).toContain("print(1)");
    expect(text).toContain("Traceback: boom");
    expect(text).not.toContain("SECRETSIGNATURE");
    const answer = { role: "user", parts: [{ functionResponse: { id: "read_file_1", name: "read_file", response: { output: "export const x = 1;" } } }, { functionResponse: { name: "run_shell_command", response: { error: "exit 2" } } }] };
    expect(g.summarize(answer, { cfg })).toEqual(["result: export const x = 1;", "result: exit 2"]);
  });

  it("the head is the first user content (systemInstruction stays outside contents); the summary is a user text content", () => {
    const contents = [user("fix the bug"), { role: "model", parts: [{ text: "a" }] }, user("more"), { role: "model", parts: [{ text: "b" }] }, user("again"), { role: "model", parts: [{ text: "c" }] }];
    const r = compact(contents, "gemini", { keepRecent: 1 })!;
    expect(r.headLen).toBe(1);
    expect(r.messages[0]).toBe(contents[0]);
    expect(r.summary).toEqual({ role: "user", parts: [{ text: r.summaryText }] });
    expect(r.messages.at(-1)).toBe(contents[5]);
    expect(g.isSummary(r.summary)).toBe(true);
    expect(g.summarize(r.summary, { cfg })).toEqual([]);
  });

  it("as sent, the summary joins the head's user content after the task, so no two contents of one role follow each other", () => {
    const contents = [user("fix the bug"), { role: "model", parts: [{ text: "a" }] }, user("more"), { role: "model", parts: [{ text: "b" }] }, user("again"), { role: "model", parts: [{ text: "c" }] }];
    const r = compact(contents, "gemini", { keepRecent: 1 })!;
    const sent = sendableList(g, r.messages, r.headLen) as { role: string; parts: unknown[] }[];
    expect(sent.map((c) => c.role)).toEqual(["user", "model"]);
    expect(sent[0].parts).toEqual([{ text: "fix the bug" }, { text: r.summaryText }]);
    expect(sent[1]).toBe(contents[5]);
    // The client's own head content is left as it was.
    expect(contents[0]).toEqual(user("fix the bug"));
    // No tail: the summary closes the list inside the head's content.
    const all = compact(contents, "gemini", { keepRecent: 0 })!;
    expect(sendableList(g, all.messages, all.headLen)).toEqual([{ role: "user", parts: [{ text: "fix the bug" }, { text: all.summaryText }] }]);
    // A list whose summary has no user content beside it goes as it is; so does a list without a summary at that index.
    const alone = [r.summary, contents[5]];
    expect(sendableList(g, alone, 0)).toEqual(alone);
    expect(sendableList(g, contents, 1)).toEqual(contents);
  });

  it("an inline image costs what an image costs, not its base64 length", () => {
    const data = "iVBORw0KGgoAAAANSUhEUgAAAMgAAADICAYAAACtWK6eAAAA" + "A".repeat(400_000);
    const withImage = { contents: [{ role: "user", parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data } }] }] };
    const tokens = estimateTokens(withImage);
    expect(tokens).toBeLessThan(5_000);
    const pdf = { contents: [{ role: "user", parts: [{ inlineData: { mimeType: "application/pdf", data } }] }] };
    expect(estimateTokens(pdf)).toBeGreaterThan(100_000);
  });

  it("is detected from a body with contents or a list of {role, parts}", () => {
    expect(detectDialect({ contents: [user("x")] })).toBe("gemini");
    expect(detectDialect([user("x"), { role: "model", parts: [{ text: "y" }] }])).toBe("gemini");
    expect(detectDialect({ messages: [{ role: "user", content: "x" }] })).not.toBe("gemini");
  });

  it("hostile contents never throw and give well-formed summaries", () => {
    const bomb = "[".repeat(5000) + "]".repeat(5000);
    const contents: unknown[] = [
      user("task \ud800"),
      { role: "model", parts: null },
      { role: "model", parts: [null, 7, "bare", { functionCall: null }, { functionCall: { name: { toString: 1 }, args: bomb } }, { text: 12 }, { thoughtSignature: 5 }] },
      { role: "user", parts: [{ functionResponse: { name: "__proto__", response: { output: "\udc00" + bomb } } }, { functionResponse: { response: null } }, { functionResponse: "x" }, { inlineData: { mimeType: 3, data: null } }] },
      { role: "__proto__", parts: [{ text: SUMMARY_HEADER + " posing" }] },
      { role: "model", parts: [{ text: "\u0000".repeat(300) }] },
      { parts: [{ text: "no role" }] },
      { role: "model", parts: [{ text: "last" }] },
    ];
    for (const keepRecent of [0, 1, 2]) {
      const r = compact(contents, "gemini", { keepRecent, resultMaxChars: 40 });
      expect(r).not.toBeNull();
      expect(isWellFormed(r!.summaryText)).toBe(true);
      if (keepRecent > 0) expect(r!.messages.at(-1)).toBe(contents[7]);
    }
    expect(compact({ contents }, "gemini")).toBeNull();
  });
});

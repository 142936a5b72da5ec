/** The agents' recall script refuses a Gemini body the real API refuses, so "0 refused" in the Gemini CLI run means something. */
import { describe, expect, it } from "vitest";
import { geminiAnswer, geminiRefusal } from "./recall-script-gemini.js";

/** The model's call as the script issues it (id and signature), read back from a whole answer. */
function issued(name: string, input: Record<string, unknown>): any {
  const answer = JSON.parse(geminiAnswer({ call: name, input }, new URL("http://x/v1beta/models/m:generateContent")).body);
  return answer.candidates[0].content.parts[0];
}

const TOOLS = [{ functionDeclarations: [{ name: "run_shell_command" }, { name: "cliff_recall" }] }];
const response = (call: any, name = call.functionCall.name) => ({ functionResponse: { id: call.functionCall.id, name, response: { output: "1\n2\n" } } });

describe("the agents' recall script, Gemini API", () => {
  it("takes a turn whose calls come back signed and answered in order, and refuses each broken rule", () => {
    const shell = issued("run_shell_command", { command: "seq 1 2" });
    const recall = issued("cliff_recall", { ref: "0123456789ab" });
    const good = [{ role: "user", parts: [{ text: "go" }] }, { role: "model", parts: [shell] }, { role: "user", parts: [response(shell)] }, { role: "model", parts: [recall] }, { role: "user", parts: [response(recall)] }];
    expect(geminiRefusal({ contents: good, tools: TOOLS })).toBeNull();
    const { thoughtSignature: _sig, ...unsigned } = recall;
    expect(geminiRefusal({ contents: [...good.slice(0, 3), { role: "model", parts: [unsigned] }, good[4]], tools: TOOLS })).toMatch(/missing a thought_signature/);
    expect(geminiRefusal({ contents: [...good.slice(0, 3), { role: "model", parts: [{ ...recall, thoughtSignature: shell.thoughtSignature }] }, good[4]], tools: TOOLS })).toMatch(/Corrupted thought signature/);
    expect(geminiRefusal({ contents: [...good.slice(0, 4), { role: "user", parts: [response(recall, "run_shell_command")] }], tools: TOOLS })).toMatch(/does not answer call/);
    expect(geminiRefusal({ contents: [...good.slice(0, 4), { role: "user", parts: [response(recall), response(shell)] }], tools: TOOLS })).toMatch(/number of function response parts/);
    expect(geminiRefusal({ contents: [...good, { role: "user", parts: [{ text: "more" }] }], tools: TOOLS })).toMatch(/alternate between user and model/);
    expect(geminiRefusal({ contents: good, tools: [...TOOLS, { functionDeclarations: [{ name: "cliff_recall" }] }] })).toMatch(/Duplicate function declaration/);
    // Gemini CLI's router: a classifier with no tools, two user contents in a row, which the service answers.
    const router = [{ role: "user", parts: [{ text: "<session_context>" }] }, { role: "user", parts: [{ text: "go" }] }];
    expect(geminiRefusal({ contents: router })).toBeNull();
    expect(geminiRefusal({ contents: router, tools: TOOLS })).toMatch(/alternate between user and model/);
  });

  it("Code Assist: the envelope refused with a field it does not know, the request checked under it", () => {
    const shell = issued("run_shell_command", { command: "seq 1 2" });
    const request = { contents: [{ role: "user", parts: [{ text: "go" }] }, { role: "model", parts: [shell] }, { role: "user", parts: [response(shell)] }], tools: TOOLS, session_id: "s" };
    const path = "/v1internal:streamGenerateContent";
    expect(geminiRefusal({ model: "m", project: "p", user_prompt_id: "u", request }, path)).toBeNull();
    expect(geminiRefusal({ model: "m", project: "p", request, tools: TOOLS }, path)).toMatch(/Unknown name "tools"/);
    expect(geminiRefusal({ model: "m", request: { ...request, extra: 1 } }, path)).toMatch(/Unknown name "extra" at 'request'/);
    expect(geminiRefusal({ model: "m", request: { ...request, contents: [...request.contents, request.contents[0]] } }, path)).toMatch(/alternate/);
  });

  it("streams with alt=sse as events, without it as one JSON array, the finish last", () => {
    const sse = geminiAnswer({ text: "ALL DONE" }, new URL("http://x/v1beta/models/m:streamGenerateContent?alt=sse"));
    expect(sse.type).toBe("text/event-stream");
    const events = sse.body.split("\r\n\r\n").filter((e) => e !== "").map((e) => JSON.parse(e.slice("data: ".length)));
    expect(events.map((e) => e.candidates[0].finishReason)).toEqual([undefined, "STOP"]);
    const array = JSON.parse(geminiAnswer({ text: "ALL DONE" }, new URL("http://x/v1beta/models/m:streamGenerateContent")).body);
    expect(array.map((e: any) => e.candidates[0].content.parts[0].text)).toEqual(["ALL DONE", ""]);
  });
});

/**
 * What the Gemini API checks of a request, as properties of every cliff over generated Gemini CLI
 * sessions (fast-check, 1,000 runs each, both profiles): roles alternate in the list as sent (the
 * summary joined to the head's user content), function calls and responses stay paired by name and
 * order (and id), the current turn's function-call steps keep their own signatures, the
 * summary carries none, and what sits beside `contents` (systemInstruction, cachedContent, tools)
 * goes out as the client sent it.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compact, detectDialect, Engine, getDialect, sendableList, SUMMARY_HEADER } from "../../core/index.js";
import { geminiSession } from "../helpers/arbitraries.js";

const RUNS = 1000;
type Content = { role?: string; parts?: Record<string, unknown>[] };

const calls = (c: Content) => (c.parts ?? []).filter((p) => p.functionCall !== undefined).map((p) => p.functionCall as Record<string, unknown>);
const responses = (c: Content) => (c.parts ?? []).filter((p) => p.functionResponse !== undefined).map((p) => p.functionResponse as Record<string, unknown>);
const plainUser = (c: Content) => c.role === "user" && (c.parts ?? []).some((p) => typeof p.text === "string");

/** The API's pairing rule: a content with calls is answered by the next one, a response per call by name and order (and id); no response without its call. */
export function paired(contents: readonly Content[]): boolean {
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i];
    const r = responses(c);
    if (r.length > 0) {
      const prev = contents[i - 1];
      if (prev === undefined || prev.role !== "model") return false;
      const k = calls(prev);
      if (k.length !== r.length) return false;
      if (k.some((call, j) => call.name !== r[j].name || call.id !== r[j].id)) return false;
    }
    if (calls(c).length > 0 && i + 1 < contents.length && responses(contents[i + 1]).length !== calls(c).length) return false;
  }
  return true;
}

/** The API's turn order: user and model contents alternate. */
export function alternates(contents: readonly Content[]): boolean {
  return contents.every((c, i) => i === 0 || c.role !== contents[i - 1].role);
}

/** The API's signature rule for the current turn: after the newest plain user content, each step's first call is signed. */
export function currentTurnSigned(contents: readonly Content[]): boolean {
  let start = 0;
  for (let i = contents.length - 1; i >= 0; i--) {
    if (plainUser(contents[i])) {
      start = i + 1;
      break;
    }
  }
  return contents.slice(start).every((c) => {
    if (c.role !== "model") return true;
    const first = (c.parts ?? []).find((p) => p.functionCall !== undefined);
    return first === undefined || typeof first.thoughtSignature === "string";
  });
}

const CONFIGS = fc.record({
  keepRecent: fc.integer({ min: 0, max: 4 }),
  resultMaxChars: fc.constantFrom(0, 20, 500),
  keepThinking: fc.boolean(),
  profile: fc.constantFrom("reference", "recall"),
});

describe("properties: gemini dialect", () => {
  it("generated sessions are what the API accepts, and are read as gemini", () => {
    fc.assert(
      fc.property(geminiSession, (contents) => {
        expect(alternates(contents as Content[])).toBe(true);
        expect(paired(contents as Content[])).toBe(true);
        expect(currentTurnSigned(contents as Content[])).toBe(true);
        expect(detectDialect({ contents })).toBe("gemini");
        expect(detectDialect(contents)).toBe("gemini");
      }),
      { numRuns: 200 },
    );
  });

  it("a cliff as sent keeps roles alternating, calls and responses paired, the current turn signed, and puts no signature in the summary", () => {
    fc.assert(
      fc.property(geminiSession, CONFIGS, (contents, cfg) => {
        const r = compact(contents, "gemini", cfg);
        if (r === null) return;
        const out = sendableList(getDialect("gemini"), r.messages, r.headLen) as Content[];
        expect(alternates(out)).toBe(true);
        expect(paired(out)).toBe(true);
        expect(currentTurnSigned(out)).toBe(true);
        // The summary's text went out as the last part of the head's user content, after the task (alone when the head is empty).
        if (r.headLen > 0) expect(out[r.headLen - 1].parts).toEqual([...(contents[r.headLen - 1] as Content).parts!, { text: r.summaryText }]);
        else expect(out[0]).toBe(r.summary);
        expect(r.summary).toEqual({ role: "user", parts: [{ text: r.summaryText }] });
        expect(r.summaryText.startsWith(SUMMARY_HEADER)).toBe(true);
        // Every signature that goes out is on the client's own object, where the model put it.
        for (const c of r.messages) if (c !== r.summary) expect(contents.includes(c)).toBe(true);
        expect(r.summaryText).not.toMatch(/thoughtSignature/);
      }),
      { numRuns: RUNS },
    );
  });

  it("through the engine: systemInstruction, cachedContent and tools go out as sent, and a summary is never summarised again", () => {
    fc.assert(
      fc.property(geminiSession, fc.integer({ min: 20, max: 400 }), (contents, threshold) => {
        const engine = new Engine({ thresholdTokens: threshold, keepRecent: 1 });
        const body = { systemInstruction: { parts: [{ text: "You are Gemini CLI." }] }, cachedContent: "cachedContents/abc123", tools: [{ functionDeclarations: [{ name: "read_file" }] }], contents };
        const p = engine.prepare(body, "gemini");
        const out = p.outgoingBody();
        expect(out.systemInstruction).toBe(body.systemInstruction);
        expect(out.cachedContent).toBe("cachedContents/abc123");
        expect(out.tools).toBe(body.tools);
        const sent = out.contents as Content[];
        expect(alternates(sent)).toBe(true);
        expect(paired(sent)).toBe(true);
        expect(currentTurnSigned(sent)).toBe(true);
        // The one content made is the task's own, with the summary joined after what the user wrote.
        const made = sent.filter((c) => !contents.includes(c));
        expect(made.length).toBeLessThanOrEqual(1);
        for (const c of made) {
          // An empty head (the task read as an old summary, so in the span) leaves the summary alone.
          const joined = c.parts!.length > 1;
          if (joined) expect(c.parts!.slice(0, -1)).toEqual((contents[0] as Content).parts);
          const summary = joined ? { role: "user", parts: c.parts!.slice(-1) } : c;
          expect(getDialect("gemini").isSummary(summary)).toBe(true);
          expect(getDialect("gemini").summarize(summary, { cfg: engine.config })).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The archive in the core, with the pure in-memory writer: what reaches `archive`, the pointer
 * lines, storage by content, determinism and the engine's warm = cold with the archive on, the
 * fallback to today's line, and the no-paraphrase rule (a pointer is a fixed tag, numbers, a path).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  archivePointer, canonicalJson, compact, Engine, groupDigits, memoryArchive, planCliff, pointerLine, POINTER_LINE, sha256Hex,
  SUMMARY_HEADER, type ArchiveFn,
} from "../../core/index.js";
import { aBody, aSession } from "../helpers/sessions.js";
import { anthropicSession, chatSession, DIALECT_SESSIONS } from "../helpers/arbitraries.js";
import { quotable } from "../helpers/quotable.js";
import { runs } from "../helpers/scale.js";

const RUNS = runs(1000);
const ROOT = "/home/me/.cache/cliffcompaction/archive";
const LONG = "line of a long log\n".repeat(60);

function location(text: string): string {
  const h = sha256Hex(text);
  return `${ROOT}/${h.slice(0, 2)}/${h}.txt`;
}

/** An Anthropic session whose middle drops a string result, a block-list result (with an image) and cuts one call. */
function anthropicMiddle(): unknown[] {
  const longCommand = "echo " + "x".repeat(400);
  return [
    { role: "user", content: "Fix the build." },
    { role: "assistant", content: [{ type: "tool_use", id: "a", name: "bash", input: { command: longCommand } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "  " + LONG + "  " }] },
    { role: "assistant", content: [{ type: "tool_use", id: "b", name: "read", input: { path: "src/a.ts" } }] },
    {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "b", content: [{ type: "text", text: "first " + LONG }, { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBOR" } }, { type: "text", text: "second" }] }],
    },
    { role: "assistant", content: [{ type: "tool_use", id: "c", name: "bash", input: { command: "ls" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "c", content: "a.ts" }] },
    { role: "assistant", content: "Done." },
  ];
}

describe("archive: what reaches the writer and what the summary says", () => {
  it("each dropped result and each cut call reaches archive with its exact text, and its line points at it", () => {
    const mem = memoryArchive(ROOT);
    const r = compact(anthropicMiddle(), "anthropic", { profile: "reference", keepRecent: 1 }, { archive: mem.archive })!;
    const callText = canonicalJson({ command: "echo " + "x".repeat(400) });
    const expected = [
      { text: callText, kind: "call" },
      { text: "  " + LONG + "  ", kind: "result" },
      { text: "first " + LONG + "\nsecond", kind: "result" },
    ];
    expect(mem.received).toEqual(expected);
    for (const e of expected) {
      expect(mem.files.get(location(e.text))).toBe(e.text);
      expect(r.summaryText).toContain(pointerLine(e.kind as "result" | "call", e.text.length, location(e.text)));
    }
    // The cut signature line stays as it was, and the pointer follows it.
    expect(r.summaryText).toContain(`[bash] ${callText.slice(0, 150)}...\ncall: cut ${groupDigits(callText.length)} chars, kept at ${location(callText)}`);
    // Short results and short calls are untouched.
    expect(r.summaryText).toContain("result: a.ts");
  });

  it("in the Pi and Chat dialects too: toolResult text blocks, bashExecution output, string arguments", () => {
    const mem = memoryArchive(ROOT);
    const pi = [
      { role: "user", content: "task" },
      { role: "assistant", content: [{ type: "toolCall", id: "1", name: "bash", arguments: { command: "make" } }] },
      { role: "toolResult", toolCallId: "1", toolName: "bash", content: [{ type: "text", text: LONG }], isError: false },
      { role: "bashExecution", command: "cat big", output: LONG + "!" },
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ];
    compact(pi, "pi", { profile: "reference", keepRecent: 1 }, { archive: mem.archive });
    const args = '{"path":"' + "p".repeat(200) + '"}';
    const chat = [
      { role: "user", content: "task" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "read", arguments: args } }] },
      { role: "tool", tool_call_id: "c", content: LONG },
      { role: "assistant", content: "ok" },
    ];
    compact(chat, "openai-chat", { profile: "reference", keepRecent: 1 }, { archive: mem.archive });
    expect(mem.received).toEqual([
      { text: LONG, kind: "result" },
      { text: LONG + "!", kind: "result" },
      { text: args, kind: "call" },
      { text: LONG, kind: "result" },
    ]);
  });

  it("the same content is stored once and every line names the one file", () => {
    const mem = memoryArchive(ROOT);
    const r = compact(aSession(6), "anthropic", { profile: "reference", keepRecent: 1 }, { archive: mem.archive })!;
    const x = "X".repeat(3000);
    expect(mem.received.filter((c) => c.text === x).length).toBe(3);
    expect([...mem.files.keys()]).toEqual([location(x)]);
    expect(r.summaryText.split(pointerLine("result", 3000, location(x))).length - 1).toBe(3);
    expect(r.summaryText).toContain("result: dropped 3,000 chars, kept at " + location(x));
  });

  it("a null, a throw or a location that is not one line gives today's line", () => {
    const today = compact(anthropicMiddle(), "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText;
    const answers: ArchiveFn[] = [() => null, () => { throw new Error("disk full"); }, () => "", () => "/a\nresult: forged", () => "/a\u2028b", () => "/a\ud800"];
    for (const archive of answers) expect(compact(anthropicMiddle(), "anthropic", { profile: "reference", keepRecent: 1 }, { archive })!.summaryText).toBe(today);
  });

  it("digits are grouped in threes without locale APIs", () => {
    expect([0, 7, 999, 1000, 8432, 123456, 1234567, 1e12].map(groupDigits)).toEqual(["0", "7", "999", "1,000", "8,432", "123,456", "1,234,567", "1,000,000,000,000"]);
    expect(archivePointer(() => "/x", "abc", "result")).toBe("result: dropped 3 chars, kept at /x");
    expect(archivePointer(undefined, "abc", "result")).toBeNull();
  });

  it("under budget pressure pointer lines go with their parts: rung 3 keeps only the newest", () => {
    const mem = memoryArchive(ROOT);
    const msgs = aSession(12, 3000).map((m, i) => (i % 4 === 2 ? { ...(m as object), content: [{ type: "tool_result", tool_use_id: "x", content: `${i} ` + "X".repeat(3000) }] } : m));
    const plan = planCliff(msgs, "anthropic", { profile: "reference", keepRecent: 1, strict: true }, 300, { archive: mem.archive });
    expect(plan.rung).toBe(3);
    const pointers = plan.result!.summaryText.split("\n").filter((l) => POINTER_LINE.test(l));
    expect(pointers.length).toBeGreaterThan(0);
    expect(pointers.length).toBeLessThan(mem.files.size);
  });
});

const corpus = quotable;

const TAG = /^(user|assistant|thinking|result|system|developer|critic|observation|result \(focus excerpt\)|result \(named later\)|result \(paths\)|[^\s:]{1,40}): |^\[[^\]\n]*\] /;

const CONFIGS = fc.record({
  keepRecent: fc.integer({ min: 0, max: 4 }),
  cmdMaxChars: fc.constantFrom(0, 7, 150),
  resultMaxChars: fc.constantFrom(0, 20, 500),
});

describe.each(DIALECT_SESSIONS)("archive properties: %s", (dialect, session) => {
  it("is deterministic and never paraphrases: a pointer line is a fixed tag, the archived length and a file the writer made", () => {
    fc.assert(
      fc.property(session, CONFIGS, (msgs, cfg) => {
        const mem = memoryArchive(ROOT);
        const r = compact(msgs, dialect, cfg, { archive: mem.archive });
        const again = compact(JSON.parse(JSON.stringify(msgs)), dialect, cfg, { archive: memoryArchive(ROOT).archive });
        if (r === null) {
          expect(again).toBeNull();
          return;
        }
        expect(again!.summaryText).toBe(r.summaryText);
        const texts = corpus(msgs.slice(r.headLen, r.cut)).join("\u0001");
        const found = (piece: string): boolean => piece === "" || texts.includes(piece) || (piece.endsWith("...") && texts.includes(piece.slice(0, -3)));
        for (const line of r.summaryText.slice(SUMMARY_HEADER.length).split("\n")) {
          const p = POINTER_LINE.exec(line);
          if (p !== null) {
            const kept = mem.files.get(p[3]);
            expect(kept).toBeDefined();
            expect(groupDigits(kept!.length)).toBe(p[2]);
            continue;
          }
          if (line === "" || line === "---" || found(line)) continue;
          const m = TAG.exec(line);
          expect(m !== null && found(line.slice(m[0].length)), line).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("archive properties: engine", () => {
  it("warm growth equals a cold replay with the archive on", () => {
    fc.assert(
      fc.property(fc.oneof(anthropicSession.map((m) => ["anthropic", m] as const), chatSession.map((m) => ["openai-chat", m] as const)), fc.integer({ min: 20, max: 600 }), fc.integer({ min: 0, max: 3 }), ([dialect, msgs], threshold, keepRecent) => {
        const cfg = { profile: "reference" as const, thresholdTokens: threshold, keepRecent, resultMaxChars: 20, cmdMaxChars: 7 };
        const warm = new Engine(cfg, { archive: memoryArchive(ROOT).archive });
        for (let n = 1; n <= msgs.length; n++) {
          const body = { model: "m", messages: msgs.slice(0, n) };
          const w = warm.prepare(body, dialect);
          const c = new Engine(cfg, { archive: memoryArchive(ROOT).archive }).prepare(JSON.parse(JSON.stringify(body)), dialect);
          expect(JSON.stringify(w.outgoingBody())).toBe(JSON.stringify(c.outgoingBody()));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("the engine's summaries point at the archive", () => {
    const mem = memoryArchive(ROOT);
    const ctx = new Engine({ thresholdTokens: 2000, keepRecent: 1 }, { archive: mem.archive }).prepare(aBody(aSession(10)), "anthropic");
    const summary = JSON.stringify(ctx.outgoingBody());
    expect(ctx.compacted).toBe(true);
    expect(summary).toContain("result: dropped 3,000 chars, kept at " + location("X".repeat(3000)));
    expect(mem.files.get(location("X".repeat(3000)))).toBe("X".repeat(3000));
  });
});

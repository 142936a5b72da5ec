/**
 * What names a dropped text in a summary: its ref (the first 12 hex digits of the SHA-256 of the
 * exact text a host's export receives), never where it was written. What reaches the export, the
 * ref lines, one ref per content, bytes that do not depend on the export (none, a failing one, two
 * at different folders), the reference profile's lines without refs, determinism and the engine's
 * warm = cold, and the no-paraphrase rule (a ref line is a fixed tag, a length and a ref).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  canonicalJson, compact, droppedLine, Engine, groupDigits, memoryArchive, planCliff, refLine, REF_LINE,
  SUMMARY_HEADER, type ArchiveFn,
} from "../../core/index.js";
import { refOf } from "../../core/recall/index.js";
import { aBody, aSession } from "../helpers/sessions.js";
import { anthropicSession, chatSession, DIALECT_SESSIONS } from "../helpers/arbitraries.js";
import { quotable } from "../helpers/quotable.js";
import { runs } from "../helpers/scale.js";

const RUNS = runs(1000);
const ROOT = "/home/me/.cache/cliffcompaction/archive";
const LONG = "line of a long log\n".repeat(60);
/** The reference's caps with refs on: short lines, easy to read. */
const WITH_REFS = { profile: "reference" as const, keepRecent: 1, refs: true, recallTool: true };

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

describe("refs: what names a dropped text", () => {
  it("each dropped result and each cut call is named by the ref of the exact text the export receives", () => {
    const mem = memoryArchive(ROOT);
    const r = compact(anthropicMiddle(), "anthropic", WITH_REFS, { archive: mem.archive })!;
    const callText = canonicalJson({ command: "echo " + "x".repeat(400) });
    const expected = [
      { text: callText, kind: "call" },
      { text: "  " + LONG + "  ", kind: "result" },
      { text: "first " + LONG + "\nsecond", kind: "result" },
    ];
    expect(mem.received).toEqual(expected);
    for (const e of expected) expect(r.summaryText).toContain(refLine(e.kind as "result" | "call", e.text.length, refOf(e.text)));
    // The cut signature line stays as it was, and the ref line follows it.
    expect(r.summaryText).toContain(`[bash] ${callText.slice(0, 150)}...\ncall: cut ${groupDigits(callText.length)} chars, ref ${refOf(callText)}`);
    // Short results and short calls are untouched.
    expect(r.summaryText).toContain("result: a.ts");
    // No path anywhere.
    expect(r.summaryText).not.toContain(ROOT);
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
    const piSummary = compact(pi, "pi", WITH_REFS, { archive: mem.archive })!.summaryText;
    const args = '{"path":"' + "p".repeat(200) + '"}';
    const chat = [
      { role: "user", content: "task" },
      { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "read", arguments: args } }] },
      { role: "tool", tool_call_id: "c", content: LONG },
      { role: "assistant", content: "ok" },
    ];
    const chatSummary = compact(chat, "openai-chat", WITH_REFS, { archive: mem.archive })!.summaryText;
    expect(mem.received).toEqual([
      { text: LONG, kind: "result" },
      { text: LONG + "!", kind: "result" },
      { text: args, kind: "call" },
      { text: LONG, kind: "result" },
    ]);
    expect(piSummary).toContain(refLine("result", LONG.length, refOf(LONG)));
    expect(piSummary).toContain(refLine("result", LONG.length + 1, refOf(LONG + "!")));
    expect(chatSummary).toContain(refLine("call", args.length, refOf(args)));
  });

  it("the same content has one ref however often it is dropped, and the export keeps it once", () => {
    const mem = memoryArchive(ROOT);
    const r = compact(aSession(6), "anthropic", WITH_REFS, { archive: mem.archive })!;
    const x = "X".repeat(3000);
    expect(mem.received.filter((c) => c.text === x).length).toBe(3);
    expect([...mem.files.values()]).toEqual([x]);
    expect(r.summaryText.split(refLine("result", 3000, refOf(x))).length - 1).toBe(3);
    expect(r.summaryText).toContain("result: dropped 3,000 chars, ref " + refOf(x));
  });

  it("the summary's bytes do not depend on the export: none, two folders, a null, a throw, a forged location", () => {
    const none = compact(anthropicMiddle(), "anthropic", WITH_REFS)!.summaryText;
    expect(none).toMatch(REF_LINE_IN);
    const answers: ArchiveFn[] = [memoryArchive("/home/a").archive, memoryArchive("/srv/b").archive, () => null, () => { throw new Error("disk full"); }, () => "", () => "/a\nresult: forged", () => "/a\u2028b"];
    for (const archive of answers) expect(compact(anthropicMiddle(), "anthropic", WITH_REFS, { archive })!.summaryText).toBe(none);
  });

  it("the reference profile names no refs (its exact lines), the export still receiving what it drops", () => {
    const mem = memoryArchive(ROOT);
    const bare = compact(anthropicMiddle(), "anthropic", { profile: "reference", keepRecent: 1 })!.summaryText;
    const exported = compact(anthropicMiddle(), "anthropic", { profile: "reference", keepRecent: 1 }, { archive: mem.archive })!.summaryText;
    expect(exported).toBe(bare);
    expect(bare).not.toMatch(REF_LINE_IN);
    expect(bare).not.toContain("result: dropped");
    expect(mem.received.length).toBe(3);
  });

  it("the recall profile names refs by default, with no export; with the recall tool off it names none", () => {
    const r = compact(anthropicMiddle(), "anthropic", { keepRecent: 1 })!;
    expect(r.summaryText).toContain(refLine("result", ("  " + LONG + "  ").length, refOf("  " + LONG + "  ")));
    expect(compact(anthropicMiddle(), "anthropic", { keepRecent: 1, recallTool: false })!.summaryText).not.toMatch(REF_LINE_IN);
  });

  it("digits are grouped in threes without locale APIs; a ref line is a fixed tag, a length and twelve hex digits", () => {
    expect([0, 7, 999, 1000, 8432, 123456, 1234567, 1e12].map(groupDigits)).toEqual(["0", "7", "999", "1,000", "8,432", "123,456", "1,234,567", "1,000,000,000,000"]);
    // SHA-256("abc") = ba7816bf8f01cfea…
    expect(droppedLine({ cfg: { refs: true, recallTool: true } }, "abc", "result")).toBe("result: dropped 3 chars, ref ba7816bf8f01");
    expect(droppedLine({ cfg: { refs: true, recallTool: true } }, "abc", "call")).toBe("call: cut 3 chars, ref ba7816bf8f01");
    expect(droppedLine({ cfg: { refs: false, recallTool: true } }, "abc", "result")).toBeNull();
    expect(droppedLine({ cfg: { refs: true, recallTool: true } }, "", "result")).toBeNull();
    // No tool to answer a ref, no ref: a marker the model cannot use is left out.
    expect(droppedLine({ cfg: { refs: true, recallTool: false } }, "abc", "result")).toBeNull();
    expect(REF_LINE.exec("result: dropped 3,778 chars, ref 7c928f4c697a")?.slice(1)).toEqual(["result: dropped", "3,778", "7c928f4c697a"]);
    for (const bad of ["result: dropped 3 chars, ref 7C928F4C697A", "result: dropped 3 chars, ref 7c928f4c697", "result: dropped 3 chars, kept at /x", "call: cut 3 chars, ref 7c928f4c697a "]) expect(REF_LINE.test(bad), bad).toBe(false);
  });

  it("under budget pressure ref lines go with their parts: rung 3 keeps only the newest", () => {
    const mem = memoryArchive(ROOT);
    const msgs = aSession(12, 3000).map((m, i) => (i % 4 === 2 ? { ...(m as object), content: [{ type: "tool_result", tool_use_id: "x", content: `${i} ` + "X".repeat(3000) }] } : m));
    const plan = planCliff(msgs, "anthropic", { profile: "reference", keepRecent: 1, strict: true, refs: true, recallTool: true }, 300, { archive: mem.archive });
    expect(plan.rung).toBe(3);
    const refs = plan.result!.summaryText.split("\n").filter((l) => REF_LINE.test(l));
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.length).toBeLessThan(mem.files.size);
  });
});

const REF_LINE_IN = /(^|\n)(result: dropped|call: cut) [\d,]+ chars, ref [0-9a-f]{12}(\n|$)/;

const corpus = quotable;

const TAG = /^(user|assistant|thinking|result|system|developer|critic|observation|result \(focus excerpt\)|result \(named later\)|result \(paths\)|[^\s:]{1,40}): |^\[[^\]\n]*\] /;

const CONFIGS = fc.record({
  keepRecent: fc.integer({ min: 0, max: 4 }),
  cmdMaxChars: fc.constantFrom(0, 7, 150),
  resultMaxChars: fc.constantFrom(0, 20, 500),
});

describe.each(DIALECT_SESSIONS)("archive properties: %s", (dialect, session) => {
  it("is deterministic and never paraphrases: a ref line is a fixed tag, the length and the ref of a text the export received", () => {
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
          const p = REF_LINE.exec(line);
          if (p !== null) {
            // The same text may be both a call's and a result's (one ref): the line's kind is one the export received it as.
            const kind = p[1] === "result: dropped" ? "result" : "call";
            const kept = mem.received.find((t) => t.kind === kind && refOf(t.text) === p[3]);
            expect(kept).toBeDefined();
            expect(groupDigits(kept!.text.length)).toBe(p[2]);
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

describe("ref properties: engine", () => {
  it("warm growth equals a cold replay with refs and an export on; an export at another folder, or none, sends the same bytes", () => {
    fc.assert(
      fc.property(fc.oneof(anthropicSession.map((m) => ["anthropic", m] as const), chatSession.map((m) => ["openai-chat", m] as const)), fc.integer({ min: 20, max: 600 }), fc.integer({ min: 0, max: 3 }), ([dialect, msgs], threshold, keepRecent) => {
        const cfg = { profile: "reference" as const, thresholdTokens: threshold, keepRecent, resultMaxChars: 20, cmdMaxChars: 7, refs: true, recallTool: true };
        const warm = new Engine(cfg, { archive: memoryArchive(ROOT).archive });
        for (let n = 1; n <= msgs.length; n++) {
          const body = { model: "m", messages: msgs.slice(0, n) };
          const w = warm.prepare(body, dialect);
          const c = new Engine(cfg, { archive: memoryArchive("/elsewhere").archive }).prepare(JSON.parse(JSON.stringify(body)), dialect);
          const bare = new Engine(cfg).prepare(JSON.parse(JSON.stringify(body)), dialect);
          expect(JSON.stringify(w.outgoingBody())).toBe(JSON.stringify(c.outgoingBody()));
          expect(JSON.stringify(bare.outgoingBody())).toBe(JSON.stringify(c.outgoingBody()));
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("the engine's summaries name refs, and its export receives the texts", () => {
    const mem = memoryArchive(ROOT);
    const ctx = new Engine({ thresholdTokens: 2000, keepRecent: 1 }, { archive: mem.archive }).prepare(aBody(aSession(10)), "anthropic");
    const summary = JSON.stringify(ctx.outgoingBody());
    expect(ctx.compacted).toBe(true);
    expect(summary).toContain("result: dropped 3,000 chars, ref " + refOf("X".repeat(3000)));
    expect(summary).not.toContain(ROOT);
    expect([...mem.files.values()]).toContain("X".repeat(3000));
  });
});

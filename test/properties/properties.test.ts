/**
 * Property-based tests over generated sessions in every dialect (fast-check, 1,000 runs each under `npm run test:deep`, 250 in `npm test`).
 * They state what must hold for any input: no crash, determinism, identity of head and tail,
 * one new summary, no paraphrase, no nesting, well-formed output, and the plugin's budget.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compact, getDialect, isWellFormed, REF_LINE, resolveConfig, SUMMARY_HEADER, type CompactResult } from "../../core/index.js";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { summarize } from "../../plugin/summarize.js";
import { vmSandbox } from "../helpers/sandboxes.js";
import { DIALECT_SESSIONS, plainSession, text } from "../helpers/arbitraries.js";
import { quotable } from "../helpers/quotable.js";
import { runs } from "../helpers/scale.js";

const RUNS = runs(1000);
const REFERENCE_CONFIGS = fc.record({
  keepRecent: fc.integer({ min: 0, max: 4 }),
  thoughtMaxChars: fc.constantFrom(0, 5, 300),
  cmdMaxChars: fc.constantFrom(0, 7, 150),
  resultMaxChars: fc.constantFrom(0, 20, 500),
  thinkingMaxChars: fc.constantFrom(0, 9),
  keepThinking: fc.boolean(),
}).map((c) => ({ profile: "reference", ...c }));
/** The recall profile, its rules at small and large caps, over the same settings. */
const RECALL_CONFIGS = fc.tuple(REFERENCE_CONFIGS, fc.record({
  editMaxChars: fc.constantFrom(11, 2000),
  errorTailMaxChars: fc.constantFrom(13, 800),
  planMaxChars: fc.constantFrom(17, 3000),
  tailFocus: fc.boolean(),
  keepResultsOf: fc.constantFrom([], ["read", "mcp__*"], ["*"]),
  keepFiles: fc.constantFrom([], ["*"], ["*.md"]),
  pinMaxChars: fc.constantFrom(0, 19, 4000),
  workingSetFileMaxChars: fc.constantFrom(0, 23, 16000),
  workingSetMaxChars: fc.constantFrom(29, 40000),
}, { requiredKeys: [] })).map(([a, b]) => ({ ...a, ...b, profile: "recall" }));
const PROFILES: [string, fc.Arbitrary<Record<string, unknown>>][] = [["reference", REFERENCE_CONFIGS], ["recall", RECALL_CONFIGS]];

const corpus = quotable;

const TAG = /^(user|assistant|thinking|result|system|developer|critic|observation|result \(focus excerpt\)|result \(named later\)|result \(paths\)|result \(error tail(?:, exit -?\d+)?\)|[^\s:]{1,40}): |^\[[^\]\n]*\] /;

/**
 * Every summary line is a fixed tag plus a verbatim piece (or a truncated prefix) of the input, or
 * a ref line: a fixed form of a length and a hash, no words at all (test/core/archive.test.ts checks
 * that its ref is the dropped text's).
 */
function quotesOnly(summary: string, input: unknown): boolean {
  const texts = corpus(input).join("\u0001");
  // A cut piece: a prefix before an ellipsis, or (a failed result's tail) a suffix after one.
  const found = (piece: string): boolean =>
    piece === "" || texts.includes(piece) || (piece.endsWith("...") && texts.includes(piece.slice(0, -3))) || (piece.startsWith("...") && texts.includes(piece.slice(3)));
  const lines = summary.slice(SUMMARY_HEADER.length).split("\n");
  return lines.every((line) => {
    if (line === "" || line === "---" || found(line) || REF_LINE.test(line)) return true;
    const m = TAG.exec(line);
    return m !== null && found(line.slice(m[0].length));
  });
}

function summaryOf(r: CompactResult): string {
  return r.summaryText;
}


const CASES = PROFILES.flatMap(([profile, configs]) => DIALECT_SESSIONS.map(([dialect, session]) => [`${dialect}, ${profile} profile`, dialect, session, configs] as const));

describe.each(CASES)("properties: %s", (_label, dialect, session, CONFIGS) => {
  it("never throws, is deterministic, keeps head and tail as the input's own objects, and adds one summary", () => {
    fc.assert(
      fc.property(session, CONFIGS, (msgs, cfg) => {
        const a = compact(msgs, dialect, cfg);
        const b = compact(msgs, dialect, cfg);
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        if (a === null) return;
        expect(a.messages.slice(0, a.headLen).every((m, i) => m === msgs[i])).toBe(true);
        const tail = a.messages.slice(a.headLen + 1);
        expect(tail.every((m, i) => m === msgs[a.cut + i])).toBe(true);
        expect(a.cut + tail.length).toBe(msgs.length);
        expect(summaryOf(a).startsWith(SUMMARY_HEADER)).toBe(true);
        // Any other header-bearing message in the output is one of the input's own objects.
        const created = a.messages.filter((m) => !msgs.includes(m));
        expect(created).toEqual([a.summary]);
        expect(a.parts.every((p) => !p.startsWith(SUMMARY_HEADER))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("never paraphrases and always emits well-formed UTF-16", () => {
    fc.assert(
      fc.property(session, CONFIGS, (msgs, cfg) => {
        const r = compact(msgs, dialect, cfg);
        if (r === null) return;
        expect(isWellFormed(summaryOf(r))).toBe(true);
        expect(quotesOnly(summaryOf(r), msgs.slice(r.headLen, r.cut))).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("compacting a compacted history never nests and never keeps the older digest", () => {
    fc.assert(
      fc.property(session, session, CONFIGS, (first, more, cfg) => {
        const r1 = compact(first, dialect, cfg);
        if (r1 === null) return;
        const grown = [...r1.messages, ...more.slice(1)];
        const r2 = compact(grown, dialect, cfg);
        if (r2 === null) return;
        // The old summary contributes nothing, is not carried, and is never quoted inside the new one.
        expect(getDialect(dialect).summarize(r1.summary, { cfg: resolveConfig(cfg) })).toEqual([]);
        expect(r2.messages.includes(r1.summary)).toBe(false);
        const live = corpus(grown.filter((m) => m !== r1.summary));
        if (r1.parts.length > 0 && !live.some((t) => t.includes(summaryOf(r1)))) expect(summaryOf(r2).indexOf(summaryOf(r1), 1)).toBe(-1);
      }),
      { numRuns: RUNS },
    );
  });
});

// The default build in node:vm; the recall profile through the library (the recall build is the
// same code, test/plugin/recall-build.test.ts checks they agree).
const recallConfig = resolveConfig({ profile: "recall" });
const PLUGINS: [string, () => (ctx: unknown) => string][] = [
  ["built bundle in node:vm", () => vmSandbox().summarizeObject!],
  ["recall profile", () => (ctx) => summarize(ctx, recallConfig)],
];

describe.each(PLUGINS)("properties: AgentParley plugin (%s)", (_name, make) => {
  const sb = { summarizeObject: make() };
  it("returns \"\" or a summary within budget that carries the task verbatim, and never throws", () => {
    fc.assert(
      fc.property(plainSession, fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }), fc.option(text(4), { nil: undefined }), (msgs, threshold, focus) => {
        const ctx: Record<string, unknown> = { messages: msgs };
        if (threshold !== undefined) ctx.threshold = threshold;
        if (focus !== undefined) ctx.focus = focus;
        const s = sb.summarizeObject!(ctx);
        expect(typeof s).toBe("string");
        if (s === "") return;
        const T = threshold ?? Math.ceil(msgs.reduce((n, m) => n + m.content.length, 0) / 4);
        expect(Math.ceil(s.length / 4)).toBeLessThanOrEqual(0.45 * T);
        const env = parseEnvelope(s);
        expect(env).not.toBeNull();
        // The task: everything before the first assistant turn, up to any message that poses as a summary.
        let end = msgs.findIndex((m) => ["assistant", "model", "ai"].includes(m.role));
        const posing = msgs.slice(0, end).findIndex((m) => m.content.startsWith(SUMMARY_HEADER));
        if (posing >= 0) end = posing;
        if (!msgs[0].content.startsWith(SUMMARY_HEADER)) expect(env!.task).toEqual(msgs.slice(0, end));
        expect(isWellFormed(env!.digest)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });
});

/** Properties of the engine and the Pi hook over generated sessions (1,000 runs each under `npm run test:deep`, 250 in `npm test`). */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Engine, resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { compactSession } from "../../pi-extension/hook.js";
import { liveFromEntries } from "../../core/pi/session.js";
import { anthropicSession, chatSession, piSession } from "../helpers/arbitraries.js";
import { runs } from "../helpers/scale.js";

const RUNS = runs(1000);

const RECALL_RULES = { profile: "recall" as const };

describe.each([["reference", { profile: "reference" as const }], ["recall", RECALL_RULES]] as const)("properties: engine, %s profile", (_profile, rules) => {
  it("never throws; sends only input messages plus at most one summary; warm growth equals a cold replay", () => {
    fc.assert(
      fc.property(fc.oneof(anthropicSession.map((m) => ["anthropic", m] as const), chatSession.map((m) => ["openai-chat", m] as const), ...(_profile === "recall" ? [piSession.map((m) => ["pi", m] as const)] : [])), fc.integer({ min: 20, max: 600 }), fc.integer({ min: 0, max: 3 }), ([dialect, msgs], threshold, keepRecent) => {
        const cfg = { thresholdTokens: threshold, keepRecent, ...rules };
        const warm = new Engine(cfg);
        for (let n = 1; n <= msgs.length; n++) {
          const body = { model: "m", messages: msgs.slice(0, n) };
          const w = warm.prepare(body, dialect);
          const out = w.outgoingBody().messages as unknown[];
          expect(out.filter((m) => !msgs.includes(m)).length).toBeLessThanOrEqual(1);
          const c = new Engine(cfg).prepare(JSON.parse(JSON.stringify(body)), dialect);
          expect(JSON.stringify(w.outgoingBody())).toBe(JSON.stringify(c.outgoingBody()));
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Changes one character of one string leaf of `value` in place (both picked by `which`, so mostly
 * neither the first, middle nor last character); false if it has no string.
 */
function editOneString(value: unknown, which: number): boolean {
  const slots: [Record<string, string>, string][] = [];
  const visit = (v: unknown) => {
    if (v === null || typeof v !== "object") return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === "string") slots.push([v as Record<string, string>, k]);
      else visit(x);
    }
  };
  visit(value);
  if (slots.length === 0) return false;
  const [holder, key] = slots[which % slots.length];
  const old = holder[key];
  const at = Math.floor(which / slots.length) % Math.max(old.length, 1);
  holder[key] = old.slice(0, at) + (old[at] === "x" ? "y" : "x") + old.slice(at + 1);
  return true;
}

describe("properties: engine memo", () => {
  it("requests as the same objects (some edited in place) or parsed anew (some edited): the same bodies as an engine that memoises nothing by content", () => {
    const step = fc.record({ parsed: fc.boolean(), edit: fc.option(fc.tuple(fc.nat(), fc.nat()), { nil: undefined }) });
    fc.assert(
      fc.property(
        fc.oneof(anthropicSession.map((m) => ["anthropic", m] as const), chatSession.map((m) => ["openai-chat", m] as const)),
        fc.integer({ min: 20, max: 600 }),
        fc.array(step, { minLength: 1, maxLength: 8 }),
        ([dialect, msgs], threshold, steps) => {
          const cfg = { thresholdTokens: threshold, keepRecent: 1 };
          const warm = new Engine(cfg);
          const plain = new Engine(cfg, { memoMaxSize: 0 });
          // Each engine has its own copy of the host's objects, edited alike, so both see the same
          // in-place edits; only how equal contents are recognised differs.
          const live = JSON.parse(JSON.stringify(msgs)) as unknown[];
          const mirror = JSON.parse(JSON.stringify(msgs)) as unknown[];
          for (let n = 1; n <= live.length; n++) {
            const { parsed, edit } = steps[n % steps.length];
            const sent = parsed ? (JSON.parse(JSON.stringify(live.slice(0, n))) as unknown[]) : live.slice(0, n);
            const sentMirror = parsed ? (JSON.parse(JSON.stringify(mirror.slice(0, n))) as unknown[]) : mirror.slice(0, n);
            if (edit !== undefined) {
              editOneString(sent[edit[0] % n], edit[1]);
              editOneString(sentMirror[edit[0] % n], edit[1]);
            }
            const w = warm.prepare({ model: "m", messages: sent }, dialect);
            const p = plain.prepare({ model: "m", messages: sentMirror }, dialect);
            expect(JSON.stringify(w.outgoingBody())).toBe(JSON.stringify(p.outgoingBody()));
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("properties: Pi hook", () => {
  it("never throws; the summary opens with the header, the kept entry exists, the head is carried verbatim", () => {
    fc.assert(
      fc.property(piSession, fc.constantFrom("manual", "threshold", "overflow") as fc.Arbitrary<"manual" | "threshold" | "overflow">, fc.boolean(), (msgs, reason, strict) => {
        const entries = msgs.map((message, i) => ({ type: "message", id: `e${i}`, parentId: i ? `e${i - 1}` : null, message }));
        const live = liveFromEntries(entries);
        const r = compactSession(live, resolveConfig({ strict, thresholdTokens: 300 }), { reason });
        if (r === null) return;
        expect(r.summary.startsWith(SUMMARY_HEADER + "\n\nuser: ")).toBe(true);
        const task = (msgs[0] as { content: { text: string }[] }).content[0].text;
        expect(r.summary.includes(task)).toBe(true);
        if (r.firstKeptEntryId !== "") expect(live.some((l) => l.entryId === r.firstKeptEntryId)).toBe(true);
        expect(r.details.keptMessages).toBe(live.length - r.details.cut);
      }),
      { numRuns: RUNS },
    );
  });
});

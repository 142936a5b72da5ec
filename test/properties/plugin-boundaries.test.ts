/**
 * Properties of what leaves the AgentParley plugin for hostile sessions (long roles, NUL and
 * control characters, lone surrogates at section edges, bracket bombs, echoed summaries, huge newest
 * messages, repeat compactions that bring one message): it crosses a UTF-8 round trip and QuickJS's
 * C-string boundary unchanged, and the next compaction reads it with the task intact.
 */
import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { envelopeRole } from "../../plugin/envelope.js";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { summarizeWithReport } from "../../plugin/summarize.js";
import { hostileContent, hostilePlainSession, hostileRole, text } from "../helpers/arbitraries.js";
import { quickjsSandbox, vmSandbox, type Sandbox } from "../helpers/sandboxes.js";

const RUNS = 300;
const tokens = (s: string): number => Math.ceil(s.length / 4);
const chars = (msgs: { content: string }[]): number => msgs.reduce((n, m) => n + m.content.length, 0);
const isAssistant = (role: string): boolean => ["assistant", "model", "ai"].includes(role.toLowerCase());

let vm: Sandbox;
let qjs: Sandbox;
beforeAll(async () => {
  vm = vmSandbox();
  qjs = await quickjsSandbox();
});

/** The task the plugin must carry: messages before the first assistant turn, up to any that poses as a summary (roles as the envelope writes them). */
function expectedTask(msgs: { role: string; content: string }[]): { role: string; content: string }[] {
  let end = msgs.findIndex((m) => isAssistant(m.role));
  const posing = msgs.slice(0, end).findIndex((m) => m.content.startsWith(SUMMARY_HEADER));
  if (posing >= 0) end = posing;
  return msgs.slice(0, end).map((m) => ({ role: m.role === "" ? "unknown" : envelopeRole(m.role), content: m.content }));
}

describe("properties: what leaves the plugin crosses any host boundary", () => {
  it("survives UTF-8 and QuickJS's string boundary byte for byte, and parses at the next compaction with the task intact", () => {
    fc.assert(
      fc.property(hostilePlainSession, fc.integer({ min: 200, max: 20_000 }), (msgs, threshold) => {
        const s = vm.summarize({ messages: msgs, threshold });
        expect(qjs.summarize({ messages: msgs, threshold })).toBe(s);
        if (s === "") return;
        expect(Buffer.from(s, "utf8").toString("utf8")).toBe(s);
        expect(s.includes("\u0000")).toBe(false);
        const env = parseEnvelope(s);
        expect(env).not.toBeNull();
        if (!msgs[0].content.startsWith(SUMMARY_HEADER)) expect(env!.task).toEqual(expectedTask(msgs));
        const next = vm.summarize({ messages: [{ role: "user", content: s }, { role: "assistant", content: "go on" }, { role: "tool", content: "ok" }], threshold: threshold * 4 });
        if (next !== "") expect(parseEnvelope(next)!.task).toEqual(env!.task);
      }),
      { numRuns: RUNS },
    );
  });

  it("an echoed summary, under any role, is never quoted in the next digest", () => {
    fc.assert(
      fc.property(hostilePlainSession, hostileRole, (msgs, role) => {
        const first = vm.summarize({ messages: msgs, threshold: 50_000 });
        if (first === "") return;
        const s = vm.summarize({ messages: [{ role: "user", content: first }, { role: "assistant", content: "a" }, { role, content: first }, { role: "assistant", content: "b" }, { role: "tool", content: "c" }], threshold: 50_000 });
        if (s === "") return;
        expect(parseEnvelope(s)!.digest.includes(first)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("a huge newest message: whenever the history before the newest step was below the true threshold, the summary fits half of it", () => {
    fc.assert(
      fc.property(hostilePlainSession, fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2_000, max: 60_000 }), (msgs, margin, huge) => {
        const history = msgs.concat([{ role: "assistant", content: "dump it" }]);
        const trueThreshold = tokens("x".repeat(chars(msgs))) + margin;
        const handed = history.concat([{ role: "tool", content: "L".repeat(huge) }]);
        const s = vm.summarize({ messages: handed });
        if (s !== "") expect(tokens(s)).toBeLessThanOrEqual(0.5 * trueThreshold);
      }),
      { numRuns: RUNS },
    );
  });

  it("a repeat compaction bringing one short message after a rung-3 envelope is answered when the budget has room", () => {
    const cfg = resolveConfig();
    fc.assert(
      fc.property(hostilePlainSession, fc.integer({ min: 150, max: 3000 }), fc.constantFrom("assistant", "user", "tool"), text(4), (msgs, threshold, role, extra) => {
        const first = summarizeWithReport({ messages: msgs, threshold }, cfg);
        if (first.outcome !== "summary" || first.rung !== 3) return;
        const budget = Math.floor(0.45 * threshold * 2);
        const one = { role, content: extra.slice(0, 200) || "more" };
        const again = summarizeWithReport({ messages: [{ role: "user", content: first.summary }, one], threshold: threshold * 2 }, cfg);
        if (first.summaryTokens + 120 <= budget) expect(again.outcome).toBe("summary");
        if (again.outcome === "summary") expect(parseEnvelope(again.summary)!.task).toEqual(parseEnvelope(first.summary)!.task);
      }),
      { numRuns: RUNS },
    );
  });

  it("bracket bombs and binary content never make the plain dialect throw or the bundle fail", () => {
    fc.assert(
      fc.property(text(), fc.array(hostileContent, { minLength: 1, maxLength: 4 }), (task, contents) => {
        const msgs = [{ role: "user", content: task }];
        for (const c of contents) msgs.push({ role: "assistant", content: c }, { role: "tool", content: c });
        msgs.push({ role: "assistant", content: "done" });
        expect(typeof qjs.summarize({ messages: msgs, threshold: 100_000 })).toBe("string");
      }),
      { numRuns: 100 },
    );
  });
});

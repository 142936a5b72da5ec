/**
 * Reliability, round three, item 1: our previous summary handed back wrapped (white space, a label,
 * tags, a JSON text block, a markdown quote, converted line ends) is found, unwrapped and never
 * nested; a task with its own CRs survives a line-end conversion verbatim; old envelopes still read.
 * Set CLIFF_BUNDLE to another build of the plugin to run the bundle cases against it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { resolveConfig, SUMMARY_HEADER } from "../../../core/index.js";
import { parseEnvelope } from "../../../plugin/envelope-read.js";
import { findPrevious } from "../../../plugin/envelope-find.js";
import { ENVELOPE_VERSION, renderEnvelope, type Envelope } from "../../../plugin/envelope.js";
import { summarizeWithReport } from "../../../plugin/summarize.js";
import { count, cycleTurns, TASK, type FlatMessage } from "../../helpers/flat-session.js";
import { BUNDLE_PATH, quickjsSandbox, vmSandbox, type Sandbox } from "../../helpers/sandboxes.js";
import { WRAPPINGS } from "../../helpers/wrappings.js";

const BUNDLE = process.env.CLIFF_BUNDLE ?? BUNDLE_PATH;
let sandboxes: Sandbox[];
beforeAll(async () => {
  sandboxes = [vmSandbox("", BUNDLE), await quickjsSandbox("", BUNDLE)];
});

const CR_TASK: FlatMessage = { role: "user", content: "TASK-CR: lines end\r\nin CRLF here, a lone \r there,\n\rand LF\n." };
const cfg = resolveConfig();

describe("round three: a wrapped previous summary", () => {
  it.each(WRAPPINGS.map((w) => [w.name, w] as const))("1. %s: found, unwrapped, the task carried, nothing nested", (_name, w) => {
    for (const sb of sandboxes) {
      let s = sb.summarize({ messages: [TASK, ...cycleTurns(0, 8)], threshold: 100_000 });
      const sizes: number[] = [];
      for (let c = 1; c <= 6; c++) {
        s = sb.summarize({ messages: [{ role: "user", content: w.wrap(s) }, ...cycleTurns(c, 8)], threshold: 100_000 });
        expect(s, `${sb.name} cycle ${c}`).not.toBe("");
        expect(count(s, SUMMARY_HEADER)).toBe(1);
        expect(parseEnvelope(s)!.task).toEqual([TASK]);
        sizes.push(s.length);
      }
      expect(Math.max(...sizes)).toBeLessThan(Math.min(...sizes) * 1.1);
    }
  });

  it("1. the library says the previous envelope was ours and intact under every wrapping", () => {
    const first = summarizeWithReport({ messages: [TASK, ...cycleTurns(0, 8)], threshold: 100_000 }, cfg).summary;
    for (const w of WRAPPINGS) {
      const found = findPrevious(w.wrap(first));
      expect(found.ours, w.name).toBe(true);
      expect(found.env).toEqual(parseEnvelope(first));
      const r = summarizeWithReport({ messages: [{ role: "user", content: w.wrap(first) }, ...cycleTurns(1, 8)], threshold: 100_000 }, cfg);
      expect([r.repeat, r.damagedPrevious], w.name).toEqual([true, null]);
    }
  });

  it("1. a task holding its own CR and CRLF comes back verbatim after every line-end conversion, and the envelope writes no CR", () => {
    const conversions: [string, (s: string) => string][] = [
      ["LF to CRLF", (s) => s.replace(/\n/g, "\r\n")],
      ["CRLF to LF", (s) => s.replace(/\r\n/g, "\n")],
      ["every line end to LF", (s) => s.replace(/\r\n?/g, "\n")],
      ["LF to CR", (s) => s.replace(/\n/g, "\r")],
    ];
    for (const sb of sandboxes) {
      const first = sb.summarize({ messages: [CR_TASK, ...cycleTurns(0, 8)], threshold: 100_000 });
      expect(first.indexOf("\r"), sb.name).toBe(-1);
      expect(first).toContain(`<cliff-summary v="${ENVELOPE_VERSION}"`);
      for (const [name, convert] of conversions) {
        let s = first;
        for (let c = 1; c <= 3; c++) {
          s = sb.summarize({ messages: [{ role: "user", content: convert(s) }, ...cycleTurns(c, 8)], threshold: 100_000 });
          expect(parseEnvelope(s)?.task, `${sb.name} ${name} cycle ${c}`).toEqual([CR_TASK]);
        }
      }
    }
  });

  it("1. a version 2 envelope still reads, as written and after LF became CRLF", () => {
    const { envelope, expected } = JSON.parse(readFileSync(new URL("../../fixtures/envelope-v2.json", import.meta.url), "utf8")) as { envelope: string; expected: Envelope };
    expect(envelope).toContain('<cliff-summary v="2"');
    expect(parseEnvelope(envelope)).toEqual(expected);
    expect(findPrevious(envelope.replace(/\n/g, "\r\n")).env).toEqual(expected);
    expect(findPrevious("Summary:\n" + envelope).env).toEqual(expected);
  });

  it("1. a damaged wrapped envelope is dropped, never nested, its task recovered", () => {
    const first = summarizeWithReport({ messages: [TASK, ...cycleTurns(0, 8)], threshold: 100_000 }, cfg).summary;
    const cut = first.slice(0, first.length - 40);
    for (const sb of sandboxes) {
      const s = sb.summarize({ messages: [{ role: "user", content: `<summary>\n${cut}` }, ...cycleTurns(1, 8)], threshold: 100_000 });
      expect(count(s, SUMMARY_HEADER), sb.name).toBe(1);
      expect(parseEnvelope(s)!.task).toEqual([TASK]);
    }
  });

  it("1. a first compaction whose task merely mentions the header is not taken for a repeat", () => {
    const task: FlatMessage = { role: "user", content: `Please explain this line from the logs: "${SUMMARY_HEADER}"` };
    const r = summarizeWithReport({ messages: [task, ...cycleTurns(0, 8)], threshold: 100_000 }, cfg);
    expect(r.repeat).toBe(false);
    expect(parseEnvelope(r.summary)!.task).toEqual([task]);
  });

  it("1. an envelope a later message quotes whole is still dropped as an echo; renderEnvelope round-trips CRs", () => {
    const env: Envelope = { task: [CR_TASK], digest: "a\r\nb", recent: [{ role: "tool", content: "x\ry" }], focus: "f\r" };
    expect(parseEnvelope(renderEnvelope(env))).toEqual(env);
    const first = summarizeWithReport({ messages: [TASK, ...cycleTurns(0, 8)], threshold: 100_000 }, cfg).summary;
    const s = summarizeWithReport({ messages: [{ role: "user", content: first }, ...cycleTurns(1, 3), { role: "assistant", content: first }, ...cycleTurns(2, 4)], threshold: 100_000 }, cfg).summary;
    expect(count(s, SUMMARY_HEADER)).toBe(1);
  });
});

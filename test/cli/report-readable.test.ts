/**
 * The report as a reader meets it: a headline sentence that says what the session saved (or why
 * nothing was compacted, with a threshold to try), kept messages as a conversation with their raw
 * JSON folded, and the two profiles judged on one denominator with a sentence naming the better.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { messageItems } from "../../cli/report/conversation.js";
import { rulesThatMadeTheDifference, sameCliffsSentence } from "../../cli/report/same-cliffs.js";

const home = mkdtempSync(join(tmpdir(), "cliff-report-readable-"));
function report(session: string, ...flags: string[]): { html: string; stdout: string; simulate: string } {
  const file = join(home, "r.html");
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, "cache") };
  const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", session, "-o", file, ...flags], { encoding: "utf8", timeout: 120_000, env });
  expect(r.status, r.stderr).toBe(0);
  const sim = spawnSync(process.execPath, ["dist/cli.mjs", "simulate", session, ...flags], { encoding: "utf8", timeout: 120_000, env });
  return { html: readFileSync(file, "utf8"), stdout: r.stdout, simulate: sim.stdout };
}
const unescape = (s: string): string => s.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const paragraph = (html: string, id: string): string => unescape(html.match(new RegExp(`<p id="${id}">([^]*?)</p>`))?.[1] ?? "");
/** The page without its folded raw JSON and its data block: what a reader sees before a click. */
const defaultView = (html: string): string => html.replace(/<details class="raw">[^]*?<\/details>/g, "").replace(/<script[^]*?<\/script>/g, "");

describe("the report's headline", () => {
  it("with cliffs: simulate's verdict, word for word, and how many cliffs", () => {
    const { html, simulate } = report("examples/session.json", "--threshold", "20000");
    const verdict = simulate.split("\n").find((l) => l.startsWith("cliffcompaction bills"))!;
    expect(paragraph(html, "headline")).toBe(`${verdict} 2 cliffs at a threshold of 20,000 tokens, over 151 requests.`);
  });
  it("without a cliff: why, and the threshold to try, as simulate says it", () => {
    const { html, simulate } = report("examples/session.json", "--threshold", "900000");
    const note = simulate.split("\n").find((l) => l.startsWith("note"))!.replace(/^note\s+/, "");
    expect(paragraph(html, "headline")).toBe(note.charAt(0).toUpperCase() + note.slice(1));
    expect(paragraph(html, "headline")).toMatch(/try --threshold \d+/);
    expect(html).not.toContain("floor after a cliff 0");
    expect(html).toContain("0 cliffs");
  });
});

describe("kept messages as a conversation", () => {
  it("role, text, calls as one-line signatures, results folded with their size; raw JSON folded", () => {
    const { html } = report("test/fixtures/sessions/codex-rollout.jsonl", "--threshold", "700");
    const kept = html.slice(html.indexOf('<div class="kept">'));
    expect(kept).toMatch(/<div class="who">tail \d+ · (assistant|tool|user)<\/div>/);
    expect(kept).toMatch(/<details class="result"><summary>result, [\d,]+ characters<\/summary>/);
    expect(kept).toMatch(/<div class="call"><code>[a-z_]+\(/);
    expect(kept).toMatch(/<details class="raw"><summary>raw JSON, [\d,]+ characters<\/summary>/);
    const seen = defaultView(html);
    expect(seen).not.toMatch(/\{&quot;(role|type)&quot;:/);
  });
  it("each dialect's shapes read", () => {
    expect(messageItems({ role: "assistant", content: [{ type: "text", text: "hi" }, { type: "tool_use", id: "t", name: "Read", input: { file_path: "a" } }] })).toEqual({ role: "assistant", items: [{ kind: "text", text: "hi" }, { kind: "call", name: "Read", args: '{"file_path":"a"}' }] });
    expect(messageItems({ role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: "abc" }] })).toEqual({ role: "tool", items: [{ kind: "result", text: "abc" }] });
    expect(messageItems({ role: "model", parts: [{ functionCall: { name: "read_file", args: { path: "a" } } }] }).items[0]).toEqual({ kind: "call", name: "read_file", args: '{"path":"a"}' });
    expect(messageItems({ type: "function_call_output", call_id: "c", output: "ok" })).toEqual({ role: "tool", items: [{ kind: "result", text: "ok" }] });
    expect(messageItems({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] }).items).toEqual([{ kind: "call", name: "bash", args: '{"command":"ls"}' }]);
    expect(messageItems({ role: "toolResult", toolCallId: "c", content: [{ type: "text", text: "done" }] })).toEqual({ role: "tool", items: [{ kind: "result", text: "done" }] });
  });
});

describe("reference or recall, on one denominator", () => {
  it("both profiles held out of the same needed tokens, and a sentence naming the better one", () => {
    const { html } = report("examples/session.json", "--threshold", "20000");
    const data = JSON.parse(html.match(/<script type="application\/json" id="cliff-data">([^<]*)<\/script>/)![1]);
    const same = data.sameCliffs as { cliffs: number; needed: number; held: Record<string, number> };
    expect(same.cliffs).toBe(2);
    const rows = [...html.matchAll(/<tr class="same-(\w+)"><td>\w+<\/td><td>([\d,]+) \/ ([\d,]+) \(/g)];
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r[3])).size).toBe(1);
    expect(Number(rows[0][3].replace(/,/g, ""))).toBe(same.needed);
    const sentence = paragraph(html, "profile-verdict");
    const after = (data.sameCliffs as { meanAfter: Record<string, number> }).meanAfter;
    const better = same.held.recall !== same.held.reference ? (same.held.recall > same.held.reference ? "Recall" : "Reference") : after.recall <= after.reference ? "recall" : "reference";
    expect(sentence).toContain(`${better} did better on this session`);
    expect(sentence).toContain(`the next turns needed ${same.needed.toLocaleString("en-US")} distinctive tokens`);
    expect(paragraph(html, "profile-bills")).toMatch(/^Each replayed with its own cliffs, \w+ costs .+ (less|more|the same)/);
  });
  it("the sentence names the rules that held what the other profile lost", () => {
    const runs = [
      { profile: "recall" as const, held: 3, meanAfter: 200, heldBy: [{ rule: "working-set" as const, key: null, tokens: ["a", "b"] }, { rule: "tail" as const, key: null, tokens: ["c"] }] },
      { profile: "reference" as const, held: 1, meanAfter: 100, heldBy: [{ rule: "tail" as const, key: null, tokens: ["c"] }] },
    ];
    expect(rulesThatMadeTheDifference(runs[0], runs[1])).toEqual([{ rule: "working-set", tokens: 2 }]);
    const s = sameCliffsSentence({ cliffs: 1, needed: 4, runs }, (r) => r);
    expect(s).toBe("At the same 1 cliff, the next turns needed 4 distinctive tokens that only the history before a cliff held: recall held 3 (75.0%), reference 1 (25.0%). Recall did better on this session: 2 more of what the next turns used stayed in the request, held by working-set 2, for 200 tokens after a cliff against 100.");
  });
});

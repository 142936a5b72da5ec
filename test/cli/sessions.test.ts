/** The CLI on the sessions people have (Claude Code, Codex, OpenHands), standard input, its errors and its output. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { readSession } from "../../cli/readers/index.js";
import { renderSvg, yTicks } from "../../node/sawtooth.js";
import { table } from "../../cli/table.js";

const FIX = new URL("../fixtures/sessions/", import.meta.url).pathname;
const fixture = (name: string): string => join(FIX, name);
const read = (name: string, forced?: string) => readSession(readFileSync(fixture(name), "utf8"), fixture(name), forced);
const cli = (args: string[], input?: string) => {
  const r = spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", input, timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const texts = (messages: unknown[]): string => JSON.stringify(messages);

describe("readers", () => {
  it("Claude Code: the history restarts at the last compact_boundary, with its summary line; split messages merged; sidechains skipped", () => {
    const s = read("claude-code-compacted.jsonl");
    expect([s.format, s.dialect]).toEqual(["claude-code", "anthropic"]);
    expect(texts(s.messages)).not.toContain("OLD TASK");
    expect(texts(s.messages)).not.toContain("SIDECHAIN");
    expect((s.messages[0] as { content: string }).content).toMatch(/^This session is being continued/);
    // Text and tool_use lines of one API message are one assistant message.
    expect((s.messages[1] as { content: unknown[] }).content).toHaveLength(2);
    expect(s.messages).toHaveLength(1 + 6 * 2);
  });

  it("Claude Code: a subagent's transcript (every line a sidechain) is read", () => {
    const s = read("claude-subagent.jsonl");
    expect(s.messages).toHaveLength(10);
    expect(s.note).toMatch(/subagent/);
  });

  it("Codex: response items replayed, a compaction replaced by its replacement history", () => {
    const s = read("codex-rollout.jsonl");
    expect([s.format, s.dialect]).toEqual(["codex", "openai-responses"]);
    expect(texts(s.messages)).not.toContain("OLD CODEX TASK");
    expect(texts(s.messages)).not.toContain("OLD OUTPUT");
    expect(texts(s.messages.slice(0, 3))).toContain("Fix the tokenizer bug");
    expect(s.messages).toHaveLength(3 + 6 * 6);
  });

  it("Codex: a compaction without replacement history keeps the initial context, the user messages and the summary", () => {
    const s = read("codex-rollout-legacy.jsonl");
    const head = s.messages.slice(0, 3) as { content: { text: string }[] }[];
    expect(head.map((m) => m.content[0].text)).toEqual(["<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>", "OLD CODEX TASK", "LEGACY SUMMARY"]);
    expect(texts(s.messages)).not.toContain("OLD OUTPUT");
  });

  it("OpenHands: actions and observations as Chat messages, tool calls paired through their metadata and cause, a condensation applied", () => {
    for (const name of ["openhands-trajectory.json", "openhands-output.jsonl"]) {
      const s = read(name);
      expect([s.format, s.dialect]).toEqual(["openhands", "openai-chat"]);
      const msgs = s.messages as Record<string, any>[];
      expect(msgs[0]).toEqual({ role: "system", content: "You are OpenHands agent." });
      expect(msgs[1]).toEqual({ role: "user", content: "Fix the failing date parser test" });
      expect(msgs[2]).toEqual({ role: "user", content: "CONDENSED: the first look at date0.py" });
      // One assistant message per model response, with both of its calls; each observation answers one call.
      const assistant = msgs.filter((m) => m.role === "assistant");
      expect(assistant[0].tool_calls.map((c: any) => c.id)).toEqual(["toolu_v1", "toolu_r1"]);
      const tools = msgs.filter((m) => m.role === "tool");
      expect(tools.map((t) => t.tool_call_id).slice(0, 2)).toEqual(["toolu_v1", "toolu_r1"]);
      expect(texts(msgs)).not.toContain("toolu_v0");
      expect(msgs.at(-1)!.tool_calls[0].function.name).toBe("finish");
    }
    expect(read("openhands-output.jsonl").note).toMatch(/record 1 of 2/);
  });

  it("each reader can be forced, and its errors name the file and the line or key", () => {
    expect(read("codex-rollout.jsonl", "codex").format).toBe("codex");
    expect(() => readSession('{"type":"compacted","payload":3}\n', "x.jsonl", "codex")).toThrow(/x\.jsonl:line 1: a "compacted" line needs a "payload" object/);
    expect(() => readSession('{"history": 3}', "o.json", "openhands")).toThrow(/o\.json:key "history"/);
    expect(() => readSession('{"type":"user","message":{"role":"user","content":3}}\n', "c.jsonl")).toThrow(/c\.jsonl:line 1: message\.content must be a string or a list/);
  });
});

describe("the command", () => {
  it("reads a session from standard input with -", () => {
    const text = readFileSync(fixture("codex-rollout.jsonl"), "utf8");
    const r = cli(["compact", "-", "--json", "--keep-recent", "1"], text);
    expect(r.err).toBe("");
    const j = JSON.parse(r.out);
    expect([j.file, j.format, j.compacted]).toEqual(["standard input", "codex", true]);
    expect(j.files.modified).toContain("src/lex3.rs");
  });

  it("every usage error is one line on stderr with exit 2 and no stack trace", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-cli-"));
    const s = fixture("claude-subagent.jsonl");
    const cases: [string[], RegExp][] = [
      [[], /no command given/],
      [["compact", s, "--keep-recent", "-1"], /--keep-recent must be a whole number ≥ 0, got "-1"/],
      [["compact", s, "--svg", join(dir, "x.svg")], /--svg does not apply to compact \(it is for: simulate\)/],
      [["compact", s, "--cache-discount", "0.2"], /--cache-discount does not apply to compact/],
      [["simulate", s, "--threshold", "100", "--cache-discount", "2"], /--cache-discount must be a number in \[0, 1\], got "2"/],
      [["simulate", s, "--threshold", "100", "--svg", "/nonexistent/x.svg"], /--svg \/nonexistent\/x\.svg: its folder \/nonexistent does not exist/],
      [["compact", s, "--lines", "many"], /--lines must be a whole number ≥ 0, got "many"/],
      [["compact", s, "--max-summary-ratio", "3"], /--max-summary-ratio must be a number in \(0, 1\], got "3"/],
      [["compact", s, "--threshold"], /--threshold needs a value \(N\)/],
      [["compact", s, "--sandbox", "quickjs"], /--sandbox needs --host agentparley/],
      [["report", s, "-o", join(dir, "no", "r.html")], /--output .*does not exist/],
      [["frobnicate"], /unknown command "frobnicate"/],
    ];
    for (const [args, pattern] of cases) {
      const r = cli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toMatch(pattern);
      expect(r.err).not.toMatch(/internal error|\n\s+at /);
      expect(r.err.split("\n")[0]).toMatch(/^cliffcompaction: /);
    }
  });

  it("--help and COMMAND --help go to stdout with exit 0 and list every flag with its default", () => {
    const all = cli(["--help"]);
    expect(all.code).toBe(0);
    for (const c of ["compact", "simulate", "report", "serve", "run"]) expect(all.out).toContain(`cliffcompaction ${c}`);
    const sim = cli(["simulate", "--help"]);
    expect(sim.code).toBe(0);
    for (const flag of ["--svg FILE", "--csv FILE", "--cache-discount X", "--max-summary-ratio X", "--keep-recent N", "--threshold N"]) expect(sim.out).toContain(flag);
    expect(sim.out).toMatch(/--cache-discount X.*\(default 0\.1\)/);
    expect(sim.out).toMatch(/--keep-recent N.*\(default 3\)/);
    expect(sim.out).not.toContain("--lines");
  });

  it("--json prints tokens as integers and money as fixed decimals", () => {
    const r = cli(["simulate", fixture("codex-rollout.jsonl"), "--threshold", "800", "--json"]);
    const j = JSON.parse(r.out);
    for (const b of Object.values(j.billing) as Record<string, number>[]) {
      expect(Number.isInteger(b.input) && Number.isInteger(b.cached)).toBe(true);
      expect(Math.round(b.billed * 100)).toBeCloseTo(b.billed * 100, 6);
      expect(String(b.billed)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });
});

describe("output", () => {
  it("tables stay aligned with 14-digit numbers", () => {
    const rows = table([["", "sent", "billed"], ["a", "12,345,678,901,234", "1"], ["longer name", "5", "98,765,432,109,876"]]);
    const ends = rows.map((r) => r.length);
    expect(new Set(ends).size).toBe(1);
    expect(rows[1].indexOf("12,345")).toBeLessThan(rows[2].indexOf("5"));
  });

  it("the chart: round ticks, request labels on the x axis, a legend, and a clipped baseline marked with its true end", () => {
    expect(yTicks(129_000)).toEqual([0, 50_000, 100_000, 150_000]);
    expect(yTicks(43_210)).toEqual([0, 10_000, 20_000, 30_000, 40_000, 50_000]);
    const context = Array.from({ length: 40 }, (_, i) => 1000 + (i % 10) * 900);
    const baseline = Array.from({ length: 40 }, (_, i) => 1000 + i * 5000);
    const svg = renderSvg({ context, baseline, cliffs: [9, 19, 29], threshold: 9000, title: "t" });
    const doc = new XMLParser({ ignoreAttributes: false }).parse(svg);
    const texts: string[] = [doc.svg.text].flat().map((t: any) => (typeof t === "string" ? t : String(t["#text"])));
    expect(texts.some((t) => /ends at 196k/.test(t))).toBe(true);
    const xticks = [doc.svg.text].flat().filter((t: any) => t["@_class"] === "xtick").map((t: any) => String(t["#text"]));
    expect(xticks).toEqual(["5", "10", "15", "20", "25", "30", "35", "40"]);
    expect([doc.svg.path].flat().filter((p: any) => p["@_class"] === "clipped")).toHaveLength(1);
    expect([doc.svg.g].flat().filter((g: any) => g["@_class"] === "legend")).toHaveLength(3);
    expect([doc.svg.circle].flat()).toHaveLength(3);
    const unclipped = renderSvg({ context, baseline: context, cliffs: [], threshold: 9000, title: "t" });
    expect(unclipped).not.toContain('class="clipped"');
  });
});

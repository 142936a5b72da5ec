/**
 * The Gemini CLI reader: a session file as Gemini CLI 0.61 saved it here (test:agents made it
 * against the scripted Gemini API, paths redacted: a shell command, a read, a write, an edit and a
 * listing), read as Gemini API contents with each call answered by its response, once; the corpus's
 * real session when it is present; the older whole-JSON session, checkpoints, rewinds and a Gemini
 * API request body; `compact`, `simulate` and `report` on it; hostile files end in one line.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSession } from "../../cli/readers/index.js";
import { compact } from "../../core/index.js";
import { pairingViolation } from "../helpers/gemini-model.js";

const FIXTURE = new URL("../fixtures/sessions/gemini-cli-session.jsonl", import.meta.url).pathname;
const CORPUS = "/work/shared/corpus/gemini_axe.jsonl";
const dir = mkdtempSync(join(tmpdir(), "cliff-gemini-cli-"));
const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 60_000 });
const write = (name: string, text: string): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const lines = (records: unknown[]): string => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
type Content = { role: string; parts: Record<string, any>[] };
const calls = (cs: Content[]) => cs.flatMap((c) => c.parts.filter((p) => p.functionCall).map((p) => p.functionCall.name));
const responses = (cs: Content[]) => cs.flatMap((c) => c.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse.name));
const HEADER = { sessionId: "s1", projectHash: "p1", startTime: "2026-12-01T10:00:00.000Z", lastUpdated: "2026-12-01T10:00:00.000Z", kind: "main" };

describe("the Gemini CLI reader", () => {
  it("a session Gemini CLI 0.61 saved: detected, each call answered once by name and id, in order, with the model's name", () => {
    const s = readSession(readFileSync(FIXTURE, "utf8"), FIXTURE);
    expect([s.format, s.dialect, s.model]).toEqual(["gemini-cli", "gemini", "gemini-3-flash-preview"]);
    const contents = s.messages as Content[];
    expect(pairingViolation(contents)).toBeNull();
    expect(calls(contents)).toEqual(["run_shell_command", "read_file", "write_file", "replace", "list_directory"]);
    expect(responses(contents)).toEqual(calls(contents));
    expect(contents[0].parts[0].text).toMatch(/^<session_context>/);
    expect(contents.at(-1)!.role).toBe("model");
    expect(contents.at(-1)!.parts.map((p) => p.text).join("")).toContain("ALL DONE");
    // Forced, the same.
    expect(readSession(readFileSync(FIXTURE, "utf8"), FIXTURE, "gemini-cli").messages).toEqual(s.messages);
    // Times from the records, for simulate's idle gaps.
    expect(s.times?.get(contents[2] as object)).toBeGreaterThan(Date.parse("2026-01-01"));
  });

  it("a cliff on it keeps the pairs whole and names the files the calls touched", () => {
    const s = readSession(readFileSync(FIXTURE, "utf8"), FIXTURE);
    const r = compact(s.messages, "gemini", { keepRecent: 1 })!;
    expect(pairingViolation(r.messages)).toBeNull();
    expect(r.summaryText).toContain("seq 1 12");
    expect(r.summaryText).toMatch(/\[write_file\] .*plan\.md/);
  });

  it("compact, simulate and report read it", () => {
    const c = cli(["compact", FIXTURE, "--keep-recent", "1", "--json"]);
    expect(c.status, c.stderr).toBe(0);
    expect(JSON.parse(c.stdout).dialect ?? "gemini").toBe("gemini");
    const sim = cli(["simulate", FIXTURE, "--format", "gemini-cli", "--threshold", "3000", "--json"]);
    expect(sim.status, sim.stderr).toBe(0);
    expect(JSON.parse(sim.stdout).requests).toBeGreaterThan(3);
    const out = join(dir, "report.html");
    const rep = cli(["report", FIXTURE, "--threshold", "3000", "-o", out]);
    expect(rep.status, rep.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("<html");
  });

  it.runIf(existsSync(CORPUS))("the corpus's Gemini CLI session: every call paired with its result", () => {
    const s = readSession(readFileSync(CORPUS, "utf8"), CORPUS);
    expect([s.format, s.dialect]).toEqual(["gemini-cli", "gemini"]);
    const contents = s.messages as Content[];
    expect(pairingViolation(contents)).toBeNull();
    expect(calls(contents).length).toBe(106);
    expect(responses(contents)).toEqual(calls(contents));
  });

  it("records written again, a rewind, a whole-list $set and the older JSON session", () => {
    const model = (id: string, text: string, extra: Record<string, unknown> = {}) => ({ id, timestamp: "2026-12-01T10:00:01.000Z", type: "gemini", content: text, model: "gemini-2.5-pro", ...extra });
    const user = (id: string, text: string) => ({ id, timestamp: "2026-12-01T10:00:00.000Z", type: "user", content: [{ text }] });
    const call = { id: "c1", name: "read_file", args: { file_path: "a.ts" }, result: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "A" } } }], status: "success" };
    const records = [
      HEADER, user("u1", "first"), model("m1", "thinking it over"), model("m1", "reading", { toolCalls: [call], thoughts: [{ subject: "Plan", description: "read a.ts" }] }),
      { id: "r1", type: "user", content: [{ functionResponse: { id: "c1", name: "read_file", response: { output: "A" } } }] },
      { id: "i1", type: "info", content: "Request cancelled." }, user("u2", "dropped by the rewind"), model("m2", "dropped too"), { $rewindTo: "u2" },
      user("u3", "kept"), model("m3", "done"), { $set: { lastUpdated: "x" } },
    ];
    const s = readSession(lines(records), write("s.jsonl", lines(records)));
    const contents = s.messages as Content[];
    expect(contents.map((c) => c.role).join(",")).toBe("user,model,user,user,model");
    expect(contents[1].parts).toEqual([{ text: "Plan: read a.ts", thought: true }, { text: "reading" }, { functionCall: { id: "c1", name: "read_file", args: { file_path: "a.ts" } } }]);
    expect(responses(contents)).toEqual(["read_file"]);
    const reset = lines([HEADER, user("u1", "old"), { $set: { messages: [user("u9", "new start"), model("m9", "ok")] } }]);
    expect((readSession(reset, write("r.jsonl", reset)).messages as Content[]).map((c) => c.parts[0].text)).toEqual(["new start", "ok"]);
    const old = JSON.stringify({ ...HEADER, messages: records.slice(1, 5) });
    expect(readSession(old, write("old.json", old)).messages).toEqual(contents.slice(0, 3));
  });

  it("a checkpoint ({history} or the bare list) and a Gemini API request body", () => {
    const history = [{ role: "user", parts: [{ text: "task" }] }, { role: "model", parts: [{ functionCall: { name: "glob", args: { pattern: "*.ts" } } }] }, { role: "user", parts: [{ functionResponse: { name: "glob", response: { output: "a.ts" } } }] }];
    for (const text of [JSON.stringify({ history, authType: "gemini-api-key" }), JSON.stringify(history)]) {
      const s = readSession(text, write("checkpoint-tag.json", text));
      expect([s.format, s.dialect, s.messages]).toEqual(["gemini-cli", "gemini", history]);
    }
    const body = JSON.stringify({ contents: history, systemInstruction: { parts: [{ text: "sys" }] } });
    const b = readSession(body, write("body.json", body));
    expect([b.format, b.dialect, b.messages]).toEqual(["gemini", "gemini", history]);
    expect(b.body?.systemInstruction).toEqual({ parts: [{ text: "sys" }] });
  });

  it("hostile files end in one line or read what they can, never a stack trace", () => {
    const bomb = "[".repeat(20_000) + "]".repeat(20_000);
    const cases = [
      lines([HEADER]),
      lines([HEADER, { id: "x", type: "gemini", content: 5, toolCalls: "no", thoughts: [null, 7] }, { id: "__proto__", type: "user", content: [null, 3, "bare", { text: bomb }] }]),
      lines([HEADER, { id: "g", type: "gemini", content: "", toolCalls: [{ id: { a: 1 }, name: null, args: bomb, result: { weird: true } }, null] }]),
      lines([HEADER, { $rewindTo: "missing" }, { $set: { messages: "no" } }, { id: "u", type: "user", content: "\ud800 lone" }]),
      JSON.stringify({ history: [{ role: "model", parts: "x" }] }),
      '{"sessionId":"s","projectHash":"p"}\n{"id":"u","type":"user","content":[{"text":"a"}]}\nnot json\n',
    ];
    for (const [i, text] of cases.entries()) {
      const f = write(`hostile-${i}.jsonl`, text);
      const r = cli(["compact", f, "--format", "gemini-cli"]);
      expect([0, 2], `${i}: ${r.stderr}`).toContain(r.status);
      if (r.status === 2) expect(r.stderr.trim().split("\n").length, r.stderr).toBe(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

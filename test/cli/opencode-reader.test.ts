/**
 * The OpenCode reader: an `opencode export` file read as the messages OpenCode sends its model.
 * The fixture was made here by OpenCode 1.18.33 against a scripted model (paths redacted): sixteen
 * shell calls, a failed read, two of OpenCode's own compactions. Beside it, the messages of the
 * last request OpenCode sent in that session: the reader must give exactly those. Hostile inputs
 * (malformed, huge, deep) end in one line, never a stack trace.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readSession } from "../../cli/readers/index.js";

const FIX = new URL("../fixtures/sessions/", import.meta.url).pathname;
const EXPORT = join(FIX, "opencode-export.json");
const dir = mkdtempSync(join(tmpdir(), "cliff-opencode-"));
const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 60_000 });

/** An export of one session on `provider` with these messages (info fields OpenCode writes, parts as given). */
function exportOf(provider: string, messages: { role: "user" | "assistant"; parts: Record<string, unknown>[]; extra?: Record<string, unknown> }[]): string {
  return JSON.stringify({
    info: { id: "ses_test", slug: "test", version: "1.18.33", title: "t", time: { created: 1, updated: 2 } },
    messages: messages.map((m, i) => ({
      info: { id: `msg_${String(i).padStart(3, "0")}`, sessionID: "ses_test", role: m.role, time: { created: 1_700_000_000_000 + i * 1000 }, ...(m.role === "assistant" ? { providerID: provider, modelID: provider === "openai" ? "gpt-5.5" : "m", finish: "tool-calls" } : {}), ...m.extra },
      parts: m.parts,
    })),
  });
}

const tool = (callID: string, state: Record<string, unknown>, name = "bash") => ({ type: "tool", tool: name, callID, state });

describe("the OpenCode reader", () => {
  it("a real export: detected, read as Messages after OpenCode's newest compaction, exactly the messages OpenCode sent", () => {
    const s = readSession(readFileSync(EXPORT, "utf8"), EXPORT);
    expect([s.format, s.dialect, s.model]).toEqual(["opencode", "anthropic", "claude-sonnet-4-5"]);
    expect(s.note).toBe("history after OpenCode's newest compaction");
    const sent = JSON.parse(readFileSync(join(FIX, "opencode-export.sent.json"), "utf8")).messages;
    // The export holds the final answer too, which came after that request.
    expect(s.messages.slice(0, -1)).toEqual(sent);
    expect(s.messages.at(-1)).toEqual({ role: "assistant", content: [{ type: "text", text: "ALL DONE" }] });
    expect(s.times!.get(s.messages[0] as object)).toBeGreaterThan(1e12);
  });

  it("the whole history when nothing was compacted: the failed read is an error result, every call paired with its result", () => {
    const value = JSON.parse(readFileSync(EXPORT, "utf8"));
    const first = value.messages.findIndex((m: any) => m.parts.some((p: any) => p.type === "compaction"));
    value.messages = value.messages.slice(0, first);
    const s = readSession(JSON.stringify(value), "x.json");
    expect(s.note).toBeUndefined();
    const msgs = s.messages as any[];
    const uses = msgs.flatMap((m) => (m.role === "assistant" ? m.content.filter((b: any) => b.type === "tool_use") : []));
    const results = msgs.flatMap((m) => (m.role === "user" && Array.isArray(m.content) ? m.content.filter((b: any) => b.type === "tool_result") : []));
    expect(uses).toHaveLength(11);
    expect(results.map((r) => r.tool_use_id)).toEqual(uses.map((u) => u.id));
    expect(results.filter((r) => r.is_error)).toEqual([{ type: "tool_result", tool_use_id: "call_script_003", content: "File not found: /home/user/project/missing.txt", is_error: true }]);
    expect(uses.find((u) => u.id === "call_script_003")).toEqual({ type: "tool_use", id: "call_script_003", name: "read", input: { filePath: "/home/user/project/missing.txt" } });
  });

  it("a session on another provider reads as Chat: tool calls with their results, an error, an interrupted call, a cleared result, steps split, ignored text and file parts", () => {
    const s = readSession(exportOf("openai", [
      { role: "user", parts: [{ type: "text", text: "Fix the parser" }, { type: "text", text: "HIDDEN", ignored: true }, { type: "file", mime: "image/png", filename: "a.png", url: "data:image/png;base64,iVBORw0KGgo=" }, { type: "file", mime: "application/pdf", filename: "spec.pdf", url: "file:///x/spec.pdf" }, { type: "file", mime: "text/plain", filename: "a.txt", url: "file:///a.txt" }] },
      { role: "assistant", parts: [
        { type: "step-start" }, { type: "reasoning", text: "" }, { type: "text", text: "Looking." },
        tool("c1", { status: "completed", input: { command: "ls" }, output: "a.py", time: { start: 1, end: 2 } }),
        tool("c2", { status: "completed", input: { filePath: "a.py" }, output: "OLD BODY", time: { start: 1, end: 2, compacted: 3 } }, "read"),
        { type: "step-finish" }, { type: "step-start" },
        tool("c3", { status: "error", input: { command: "make" }, error: "exit 2" }),
        tool("c4", { status: "running", input: { command: "sleep 9" } }),
        { type: "patch", hash: "x", files: [] },
      ] },
      { role: "assistant", parts: [{ type: "text", text: "FAILED ANSWER" }], extra: { error: { name: "APIError", data: {} } } },
      { role: "assistant", parts: [{ type: "text", text: "Done." }], extra: { finish: "stop" } },
    ]), "oc.json");
    expect([s.format, s.dialect, s.model]).toEqual(["opencode", "openai-chat", "gpt-5.5"]);
    expect(s.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Fix the parser\n[Attached application/pdf: spec.pdf]" }, { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } }] },
      { role: "assistant", content: "Looking.", tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }, { id: "c2", type: "function", function: { name: "read", arguments: '{"filePath":"a.py"}' } }] },
      { role: "tool", tool_call_id: "c1", content: "a.py" },
      { role: "tool", tool_call_id: "c2", content: "[Old tool result content cleared]" },
      { role: "assistant", content: null, tool_calls: [{ id: "c3", type: "function", function: { name: "bash", arguments: '{"command":"make"}' } }, { id: "c4", type: "function", function: { name: "bash", arguments: '{"command":"sleep 9"}' } }] },
      { role: "tool", tool_call_id: "c3", content: "exit 2" },
      { role: "tool", tool_call_id: "c4", content: "[Tool execution was interrupted]" },
      { role: "assistant", content: "Done." },
    ]);
  });

  it("a compaction OpenCode has not finished is not applied; --format opencode forces the reader; other JSON is not taken for an export", () => {
    const unfinished = exportOf("anthropic", [
      { role: "user", parts: [{ type: "text", text: "TASK" }] },
      { role: "assistant", parts: [{ type: "text", text: "working" }] },
      { role: "user", parts: [{ type: "compaction", auto: true }] },
      { role: "assistant", parts: [], extra: { summary: true } },
    ]);
    const s = readSession(unfinished, "u.json", "opencode");
    expect(JSON.stringify(s.messages)).toContain("TASK");
    expect(s.note).toBeUndefined();
    expect(readSession(JSON.stringify({ model: "gpt-5", messages: [{ role: "user", content: "hi" }] }), "body.json").format).toBe("openai-chat");
    expect(() => readSession('{"info": {}, "messages": []}', "e.json", "opencode")).toThrow(/^e\.json:key "messages": no user or assistant text/);
  });

  it("malformed exports: one line naming the file and the key", () => {
    expect(() => readSession('{"info": {"id": "ses_x"}, "messages": [3]}', "m.json", "opencode")).toThrow(/^m\.json:key "messages\[0\]": an OpenCode message needs an "info" object and a "parts" list; accepted formats:/);
    expect(() => readSession('{"info": {"id": "ses_x"}, "messages": [{"info": {"role": "system"}, "parts": []}]}', "m.json")).toThrow(/^m\.json:key "messages\[0\]\.info\.role": must be "user" or "assistant"/);
    expect(() => readSession('{"info": {"id": "ses_x"}, "messages": [{"info": {"role": "user"}, "parts": [7]}]}', "m.json")).toThrow(/^m\.json:key "messages\[0\]\.parts\[0\]": each part must be an object with a "type"/);
    expect(() => readSession('{"info": 1, "messages": 2}', "m.json", "opencode")).toThrow(/^m\.json: an OpenCode export needs an "info" object and a "messages" list/);
    const file = join(dir, "cut.json");
    writeFileSync(file, readFileSync(EXPORT, "utf8").slice(0, 5000));
    const r = cli(["compact", file, "--format", "opencode"]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/cut\.json:line \d+: not valid JSON/);
  });

  it("deep: a tool input nested 100,000 levels is one line and exit 2 in Chat, and no stack trace in either dialect", () => {
    let input = "{}";
    for (let i = 0; i < 100_000; i++) input = `{"a":${input}}`;
    for (const provider of ["openai", "anthropic"]) {
      const text = exportOf(provider, [{ role: "user", parts: [{ type: "text", text: "go" }] }, { role: "assistant", parts: [tool("deep", { status: "completed", input: {}, output: "ok" })] }]).replace('"input":{}', `"input":${input}`);
      const file = join(dir, `deep-${provider}.json`);
      writeFileSync(file, text);
      const r = cli(["compact", file]);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stderr.trim().split("\n").length).toBeLessThanOrEqual(1);
      if (provider === "openai") {
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(/deep-openai\.json:tool call "deep": its input is nested too deeply to read/);
      }
    }
  });

  it("huge: 20,000 steps with 20,000 calls are read, every call paired", () => {
    const messages: { role: "user" | "assistant"; parts: Record<string, unknown>[] }[] = [{ role: "user", parts: [{ type: "text", text: "go" }] }];
    for (let i = 0; i < 20_000; i++) messages.push({ role: "assistant", parts: [{ type: "step-start" }, tool(`c${i}`, { status: "completed", input: { command: `echo ${i}` }, output: `${i}` })] });
    const s = readSession(exportOf("openai", messages), "big.json");
    expect(s.messages).toHaveLength(1 + 2 * 20_000);
    expect((s.messages.at(-1) as any).tool_call_id).toBe("c19999");
  });

  // The corpus beside the repo (../shared/corpus), or where CLIFF_CORPUS says.
  const corpusDir = process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
  const corpus = ["opencode_w1t92-bugfix.json", "opencode_task66-session2.json"].map((n) => join(corpusDir, n)).filter((f) => existsSync(f));
  it.runIf(corpus.length > 0)("the corpus's OpenCode exports (when present): every tool part a call with its result", () => {
    for (const f of corpus) {
      const value = JSON.parse(readFileSync(f, "utf8"));
      const parts = value.messages.flatMap((m: any) => m.parts.filter((p: any) => p.type === "tool"));
      const s = readSession(JSON.stringify(value), f);
      expect(s.format).toBe("opencode");
      const calls = (s.messages as any[]).flatMap((m) => m.tool_calls ?? []);
      const results = (s.messages as any[]).filter((m) => m.role === "tool");
      expect(calls.length).toBe(parts.length);
      expect(results.map((r) => r.tool_call_id)).toEqual(calls.map((c: any) => c.id));
    }
  });
});

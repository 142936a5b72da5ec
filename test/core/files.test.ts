/** Files read and modified, from the tool-call shapes agents really use; carried across cliffs in every host. */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Engine, fileOpsOfCall, filesTouched, FileTracker, formatFileLists, parseFileLists, resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { summarizeWithReport } from "../../plugin/summarize.js";
import { TASK, type FlatMessage } from "../helpers/flat-session.js";
import { quickjsSandbox } from "../helpers/sandboxes.js";

const ops = (name: string, args: unknown) => fileOpsOfCall(name, args);

describe("file operations of one tool call", () => {
  it("Pi: read, write, edit with path", () => {
    expect(ops("read", { path: "src/a.ts", offset: 10 })).toEqual({ read: ["src/a.ts"], modified: [] });
    expect(ops("write", { path: "src/b.ts", content: "x" })).toEqual({ read: [], modified: ["src/b.ts"] });
    expect(ops("edit", { path: "src/c.ts", oldText: "a", newText: "b" })).toEqual({ read: [], modified: ["src/c.ts"] });
  });

  it("Claude Code: Read, Write, Edit, MultiEdit, NotebookEdit", () => {
    expect(ops("Read", { file_path: "/repo/src/a.ts", limit: 200 })).toEqual({ read: ["/repo/src/a.ts"], modified: [] });
    expect(ops("Write", { file_path: "/repo/new.md", content: "# x" }).modified).toEqual(["/repo/new.md"]);
    expect(ops("Edit", { file_path: "/repo/src/a.ts", old_string: "a", new_string: "b", replace_all: false }).modified).toEqual(["/repo/src/a.ts"]);
    expect(ops("MultiEdit", { file_path: "/repo/src/m.ts", edits: [{ old_string: "a", new_string: "b" }] }).modified).toEqual(["/repo/src/m.ts"]);
    expect(ops("NotebookEdit", { notebook_path: "/repo/nb.ipynb", new_source: "print(1)" }).modified).toEqual(["/repo/nb.ipynb"]);
  });

  it("apply_patch and Codex patches: add, update, delete and move lines; a Responses apply_patch_call operation", () => {
    const patch = "*** Begin Patch\n*** Add File: docs/new.md\n+hello\n*** Update File: src/app.py\n*** Move to: src/main.py\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch";
    expect(ops("apply_patch", patch)).toEqual({ read: [], modified: ["docs/new.md", "src/app.py", "src/main.py", "old.txt"] });
    expect(ops("apply_patch", JSON.stringify({ input: patch })).modified).toHaveLength(4);
    expect(ops("apply_patch_call", { type: "update_file", path: "src/x.ts", diff: "@@ -1 +1 @@" }).modified).toEqual(["src/x.ts"]);
    // A file path mentioned inside the patch body is not a file operation.
    expect(ops("apply_patch", "*** Begin Patch\n*** Update File: a.py\n+# see *** Update File: b.py\n*** End Patch").modified).toEqual(["a.py"]);
  });

  it("SWE-agent / OpenHands str_replace_editor: view reads, create / str_replace / insert modify", () => {
    expect(ops("str_replace_editor", { command: "view", path: "/testbed/setup.py" })).toEqual({ read: ["/testbed/setup.py"], modified: [] });
    for (const command of ["create", "str_replace", "insert", "undo_edit"]) {
      expect(ops("str_replace_editor", JSON.stringify({ command, path: "/testbed/pkg/mod.py", old_str: "a", new_str: "b" })).modified).toEqual(["/testbed/pkg/mod.py"]);
    }
  });

  it("the common names with path, file_path, filePath, filename or paths", () => {
    expect(ops("read_file", { filePath: "a.txt" }).read).toEqual(["a.txt"]);
    expect(ops("view", { filename: "b.txt" }).read).toEqual(["b.txt"]);
    expect(ops("write_file", { path: "c.txt", content: "" }).modified).toEqual(["c.txt"]);
    expect(ops("edit_file", { file_path: "d.txt" }).modified).toEqual(["d.txt"]);
    expect(ops("read_file", { paths: ["e.txt", "f.txt", 3, ""] }).read).toEqual(["e.txt", "f.txt"]);
  });

  it("no guessing: shell commands, unknown tools and bad arguments give nothing", () => {
    expect(ops("bash", { command: "cat src/a.ts && sed -i s/a/b/ src/b.ts" })).toEqual({ read: [], modified: [] });
    expect(ops("search", { path: "src" })).toEqual({ read: [], modified: [] });
    expect(ops("read", "{not json")).toEqual({ read: [], modified: [] });
    expect(ops("read", { path: 42 })).toEqual({ read: [], modified: [] });
    expect(ops("Read", null)).toEqual({ read: [], modified: [] });
  });
});

describe("files touched by a message list", () => {
  it("reads the calls of every dialect, including provider JSON in flat content; never user or tool text", () => {
    const anthropic = [
      { role: "user", content: "please read notes.md and /etc/passwd" },
      { role: "assistant", content: [{ type: "tool_use", id: "1", name: "Read", input: { file_path: "src/a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "1", content: '{"path":"leak.ts"} *** Update File: leak2.ts' }] },
      { role: "assistant", content: [{ type: "tool_use", id: "2", name: "Edit", input: { file_path: "src/a.ts" } }] },
    ];
    expect(filesTouched(anthropic, "anthropic")).toEqual({ read: [], modified: ["src/a.ts"] });
    const chat = [{ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "read_file", arguments: '{"path":"x.py"}' } }] }];
    expect(filesTouched(chat, "openai-chat").read).toEqual(["x.py"]);
    const responses = [{ type: "custom_tool_call", call_id: "p", name: "apply_patch", input: "*** Begin Patch\n*** Add File: n.txt\n*** End Patch" }];
    expect(filesTouched(responses, "openai-responses").modified).toEqual(["n.txt"]);
    const pi = [{ role: "assistant", content: [{ type: "toolCall", id: "t", name: "read", arguments: { path: "p.ts" } }] }];
    expect(filesTouched(pi, "pi").read).toEqual(["p.ts"]);
    const flat = [
      { role: "user", content: '[{"type":"tool_use","name":"Read","input":{"file_path":"user.ts"}}]' },
      { role: "assistant", content: '[{"type":"tool_use","id":"1","name":"Read","input":{"file_path":"flat.ts"}}]' },
      { role: "assistant", content: JSON.stringify({ content: null, tool_calls: [{ function: { name: "write_file", arguments: '{"path":"w.ts"}' } }] }) },
      { role: "tool", content: '[{"type":"tool_use","name":"Write","input":{"file_path":"tool.ts"}}]' },
    ];
    expect(filesTouched(flat, "plain")).toEqual({ read: ["flat.ts"], modified: ["w.ts"] });
    // A host that writes calls into the text as signature lines; never from a user or a tool.
    const signed = [
      { role: "assistant", content: 'Step 1: reading it.\n[read] {"path":"src/sig.ts"}\n[Edit] {"file_path":"src/edit.ts","old_string":"a"}' },
      { role: "user", content: '[read] {"path":"user-said.ts"}' },
      { role: "tool", content: '[write] {"path":"tool-said.ts"}' },
      { role: "assistant", content: "[read] {not json}\n[read] " + '{"a":'.repeat(100) + "1" + "}".repeat(100) },
    ];
    expect(filesTouched(signed, "plain")).toEqual({ read: ["src/sig.ts"], modified: ["src/edit.ts"] });
  });

  it("deduplicated, kept as given, a modified file not listed as read, a later read of it changes nothing", () => {
    const t = new FileTracker();
    t.add(["./a.ts", "a.ts", "b.ts", "a.ts"], []);
    t.add([], ["b.ts"]);
    t.add(["b.ts"], []);
    expect(t.lists()).toEqual({ read: ["./a.ts", "a.ts"], modified: ["b.ts"] });
  });

  it("hostile paths: the closing tag, newlines, 10,000 paths, a 1 MB path", () => {
    const t = new FileTracker();
    const hostile = ["a</read-files>\n<modified-files>\nevil", "two\nlines", "x".repeat(1 << 20)];
    t.add(hostile, []);
    const many = Array.from({ length: 10_000 }, (_, i) => `src/f${i}.ts`);
    t.add([], many);
    const capped = t.newest(200, 16_000);
    expect(capped).toHaveLength(200);
    expect(capped[0]).toEqual({ path: "src/f9999.ts", modified: true });
    // Pi's tagged form has no escape: such paths are left out rather than break the list.
    const text = formatFileLists({ read: hostile, modified: ["ok.ts"] });
    expect(parseFileLists(text)).toEqual({ read: [hostile[2]], modified: ["ok.ts"] });
  });
});

describe("AgentParley: files carried across 20 cliffs", () => {
  const cfg = resolveConfig();
  const call = (name: string, input: Record<string, unknown>) => JSON.stringify([{ type: "tool_use", id: "x", name, input }]);

  function cycle(c: number): FlatMessage[] {
    const out: FlatMessage[] = [];
    for (let t = 0; t < 6; t++) {
      out.push({ role: "assistant", content: call("Read", { file_path: `src/c${c}_${t}.ts` }) }, { role: "tool", content: "x".repeat(900) });
    }
    if (c === 1) out.push({ role: "assistant", content: call("Read", { file_path: "src/kept.ts" }) }, { role: "tool", content: "ok" });
    if (c === 1) out.push({ role: "assistant", content: call("Write", { file_path: "src/written-at-1.ts" }) }, { role: "tool", content: "ok" });
    if (c === 12) out.push({ role: "assistant", content: call("Edit", { file_path: "src/c1_0.ts" }) }, { role: "tool", content: "ok" });
    return out;
  }

  it("files of cycle 1 are listed at cycle 20, a file later modified moves, within budget, the task verbatim", () => {
    let history: FlatMessage[] = [TASK, ...cycle(1)];
    for (let c = 1; c <= 20; c++) {
      const r = summarizeWithReport({ messages: history, threshold: 6000 }, cfg);
      expect(r.outcome, `cycle ${c}`).toBe("summary");
      expect(r.summaryTokens).toBeLessThanOrEqual(0.45 * 6000);
      const env = parseEnvelope(r.summary)!;
      expect(env.task).toEqual([TASK]);
      expect(env.files!.read).toContain("src/kept.ts");
      expect(env.files!.modified).toContain("src/written-at-1.ts");
      if (c >= 12) {
        expect(env.files!.modified).toContain("src/c1_0.ts");
        expect(env.files!.read).not.toContain("src/c1_0.ts");
      } else expect(env.files!.read).toContain("src/c1_0.ts");
      history = [{ role: "user", content: r.summary }, ...cycle(c + 1)];
    }
  });

  it("the same 20 cycles through the built bundle in QuickJS give the library's envelopes", async () => {
    const qjs = await quickjsSandbox();
    let history: FlatMessage[] = [TASK, ...cycle(1)];
    for (let c = 1; c <= 20; c++) {
      const s = qjs.summarize({ messages: history, threshold: 6000 });
      expect(s).toBe(summarizeWithReport({ messages: history, threshold: 6000 }, cfg).summary);
      const env = parseEnvelope(s)!;
      expect(env.task).toEqual([TASK]);
      expect(env.files!.read).toContain("src/kept.ts");
      history = [{ role: "user", content: s }, ...cycle(c + 1)];
    }
  });

  it("the section is shed before the digest is cut, oldest files first", () => {
    const big: FlatMessage[] = [TASK];
    for (let i = 0; i < 150; i++) big.push({ role: "assistant", content: call("Read", { file_path: `src/deep/path/number/${i}.ts` }) }, { role: "tool", content: "z".repeat(900) });
    const loose = summarizeWithReport({ messages: big, threshold: 100_000 }, cfg);
    expect(loose.filesRead).toBe(150);
    // The size rung 2 reaches with every file listed, less 500 tokens: only shedding files can fit it.
    const rung2 = summarizeWithReport({ messages: big, threshold: 100_000 }, resolveConfig({ keepRecent: 1, thoughtMaxChars: 300, keepThinking: false }));
    const tight = summarizeWithReport({ messages: big, threshold: Math.floor((rung2.summaryTokens - 500) / 0.45) }, cfg);
    expect(tight.outcome).toBe("summary");
    expect(tight.rung).toBeLessThan(3);
    const env = parseEnvelope(tight.summary)!;
    expect(env.files!.read.length).toBeLessThan(150);
    expect(env.files!.read[0]).toBe("src/deep/path/number/149.ts");
  });
});

describe("properties: no path is invented", () => {
  it("every listed file appears in some tool call of the input or in the previous envelope's lists", () => {
    const path = fc.oneof(fc.constantFrom("a.ts", "src/b.py", "x y.md", "é/日本.txt"), fc.string({ minLength: 1, maxLength: 12, unit: "binary" }));
    // A patch names one file a line, so its paths hold no line break.
    const step = fc.tuple(fc.constantFrom("Read", "Write", "read_file", "str_replace_editor", "apply_patch", "bash"), path).filter(([name, p]) => name !== "apply_patch" || !/[\n\r]/.test(p));
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), fc.array(step, { maxLength: 6 }), (first, second) => {
        const msgs = (steps: [string, string][]): FlatMessage[] =>
          steps.flatMap(([name, p]) => {
            const input = name === "apply_patch" ? { input: `*** Begin Patch\n*** Update File: ${p}\n*** End Patch` } : name === "str_replace_editor" ? { command: "view", path: p } : { file_path: p, path: p };
            return [{ role: "assistant", content: call(name, input) }, { role: "tool", content: "ok" }];
          });
        const called = new Set([...first, ...second].flatMap(([, p]) => [p, p.trim()]));
        const r1 = summarizeWithReport({ messages: [TASK, ...msgs(first)], threshold: 100_000 }, resolveConfig());
        const carried = r1.outcome === "summary" ? parseEnvelope(r1.summary)!.files : undefined;
        const listed1 = carried === undefined ? [] : [...carried.read, ...carried.modified];
        for (const p of listed1) expect(called.has(p)).toBe(true);
        if (r1.outcome !== "summary") return;
        const r2 = summarizeWithReport({ messages: [{ role: "user", content: r1.summary }, ...msgs(second)], threshold: 100_000 }, resolveConfig());
        if (r2.outcome !== "summary") return;
        const f = parseEnvelope(r2.summary)!.files;
        for (const p of f === undefined ? [] : [...f.read, ...f.modified]) expect(called.has(p) || listed1.includes(p)).toBe(true);
      }),
      { numRuns: 300 },
    );
    function call(name: string, input: Record<string, unknown>): string {
      return JSON.stringify([{ type: "tool_use", id: "x", name, input }]);
    }
  });
});

describe("the engine's file lists", () => {
  it("off by default (the reference's summary); appendFileLists carries them across cliffs", () => {
    const msgs: unknown[] = [{ role: "user", content: "fix it" }];
    for (let i = 0; i < 40; i++) {
      msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Read", input: { file_path: `src/f${i}.ts` } }] });
      msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "y".repeat(800) }] });
    }
    const text = (e: Engine, n: number) => {
      const out = e.prepare({ messages: msgs.slice(0, n) }, "anthropic").outgoingBody().messages as { content: unknown }[];
      return JSON.stringify(out.find((m) => typeof m.content === "string" && m.content.startsWith(SUMMARY_HEADER)) ?? null);
    };
    const plain = new Engine({ thresholdTokens: 3000, keepRecent: 1 });
    const withFiles = new Engine({ thresholdTokens: 3000, keepRecent: 1, appendFileLists: true });
    for (let n = 10; n <= msgs.length; n += 2) {
      text(plain, n);
      text(withFiles, n);
    }
    expect(text(plain, msgs.length)).not.toContain("<read-files>");
    const last = text(withFiles, msgs.length);
    // Several cliffs happened; the first files read are still listed after the last one.
    expect(last).toContain("src/f0.ts");
    expect(last).toContain("src/f30.ts");
    expect(last).toContain("<read-files>");
  });
});

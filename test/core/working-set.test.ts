/**
 * The working set (workingSetFileMaxChars, workingSetMaxChars): of each file the span read or
 * wrote whole, the newest copy keeps its text and older copies are superseded, in every dialect
 * and shape a file is written or read in. Each test states what the rule's absence gives, so it
 * fails while the rule is missing.
 */
import { describe, expect, it } from "vitest";
import { compact, type CompactResult } from "../../core/index.js";
import { readPath, wholeWritePaths } from "../../core/parts/working-set.js";
import { ALL_DIALECTS, filler, numberedLines, session, stepMessages, taskMessage, type DialectName, type Step } from "../helpers/tool-steps.js";

const fillers = (n = 3): Step[] => Array.from({ length: n }, (_, i) => filler(i));
const ON = { editMaxChars: 8000, workingSetFileMaxChars: 4000, workingSetMaxChars: 40000 };
const summary = (msgs: unknown[], dialect: string, cfg: Record<string, unknown> = {}): string => {
  const r: CompactResult | null = compact(msgs, dialect, { profile: "reference", keepRecent: 3, ...cfg });
  expect(r).not.toBeNull();
  return r!.summaryText;
};

const v1 = numberedLines("const parserVersionOne", 20);
const v2 = numberedLines("const parserVersionTwo", 20);

describe("the working set: a file's newest copy keeps its text, older copies are superseded", () => {
  it.each(ALL_DIALECTS)("%s: Claude Code Write twice then Edit: the first Write is superseded, the newest Write and the Edit stay", (dialect) => {
    const steps: Step[] = [
      { name: "Write", args: { file_path: "src/parser.ts", content: v1 }, result: "ok" },
      { name: "Write", args: { file_path: "src/parser.ts", content: v2 }, result: "ok" },
      { name: "Edit", args: { file_path: "src/parser.ts", old_string: "a", new_string: "const parserEditThree = 3;" }, result: "ok" },
      ...fillers(),
    ];
    const msgs = session(dialect, steps);
    const without = summary(msgs, dialect, { editMaxChars: 8000 });
    expect(without).toContain(`[Write] src/parser.ts\n${v1}`);
    const s = summary(msgs, dialect, ON);
    expect(s).not.toContain("parserVersionOne line 5");
    expect(s).toContain(`[Write] src/parser.ts\n${v2}`);
    expect(s).toContain("[Edit] src/parser.ts\nconst parserEditThree = 3;");
    // The superseded write still names its file (the signature line, as the reference shows it).
    expect(s).toMatch(/\[Write\] \{[^\n]*const parserVersionOne line 0/);
  });

  it.each(ALL_DIALECTS)("%s: superseded reads: the newest read of a file is kept whole, the older one dropped", (dialect) => {
    const steps: Step[] = [
      { name: "Read", args: { file_path: "src/widget.ts" }, result: v1 },
      { name: "Read", args: { file_path: "src/widget.ts" }, result: v2 },
      ...fillers(),
    ];
    const msgs = session(dialect, steps);
    expect(summary(msgs, dialect)).not.toContain("parserVersionTwo line 19");
    const s = summary(msgs, dialect, ON);
    expect(s).toContain(`result: ${v2}`);
    expect(s).not.toContain("parserVersionOne line 19");
  });

  it("a read superseded by a newer whole write, and a write by a newer read (OpenHands str_replace_editor)", () => {
    const steps: Step[] = [
      { name: "str_replace_editor", args: { command: "view", path: "/repo/a.py" }, result: v1 },
      { name: "str_replace_editor", args: { command: "create", path: "/repo/a.py", file_text: v2 }, result: "File created" },
      ...fillers(),
    ];
    const s = summary(session("openai-chat", steps), "openai-chat", ON);
    expect(s).toContain(`[str_replace_editor] /repo/a.py\n${v2}`);
    expect(s).not.toContain("parserVersionOne line 19");
  });

  it("caps a copy at the per-file cap and the newest copies at the total, newest first", () => {
    const big = numberedLines("const bigFileLine", 400);
    const steps: Step[] = [
      { name: "Read", args: { file_path: "a.ts" }, result: numberedLines("const fileAlphaLine", 40) },
      { name: "Read", args: { file_path: "b.ts" }, result: numberedLines("const fileBetaLine", 40) },
      { name: "Read", args: { file_path: "c.ts" }, result: big },
      ...fillers(),
    ];
    const msgs = session("anthropic", steps);
    const s = summary(msgs, "anthropic", { workingSetFileMaxChars: 500, workingSetMaxChars: 100000 });
    expect(s).toContain(`result: ${big.slice(0, 500)}...`);
    expect(s).not.toContain(big.slice(0, 501));
    // Room for the newest two only: c.ts (cut to 500) and b.ts; a.ts falls back to what the reference keeps (nothing).
    const tight = summary(msgs, "anthropic", { workingSetFileMaxChars: 1200, workingSetMaxChars: 3000 });
    expect(tight).toContain("fileBetaLine line 39");
    expect(tight).not.toContain("fileAlphaLine");
  });

  it("Codex: apply_patch as a custom tool call adding a file twice, and as a function call", () => {
    const patch = (body: string): string => `*** Begin Patch\n*** Add File: m.rs\n${body.split("\n").map((l) => "+" + l).join("\n")}\n*** End Patch`;
    const items: unknown[] = [
      taskMessage("openai-responses", "task"),
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: patch(v1) },
      { type: "custom_tool_call_output", call_id: "c1", output: "Success" },
      { type: "function_call", call_id: "c2", name: "apply_patch", arguments: JSON.stringify({ input: patch(v2) }) },
      { type: "function_call_output", call_id: "c2", output: "Success" },
      ...fillers().flatMap((f) => stepMessages("openai-responses", f)),
    ];
    expect(summary(items, "openai-responses", { editMaxChars: 8000 })).toContain("+const parserVersionOne line 19");
    const s = summary(items, "openai-responses", ON);
    expect(s).not.toContain("+const parserVersionOne line 19");
    expect(s).toContain("+const parserVersionTwo line 19");
  });

  const heredocs: [string, DialectName, string, string][] = [
    ["bash heredoc (mini-swe-agent, OpenHands)", "openai-chat", "bash", `cat > src/p.py <<'EOF'\n${"%s"}\nEOF`],
    ["heredoc the other way round", "openai-chat", "execute_bash", `cat <<EOF > src/p.py\n${"%s"}\nEOF\npython src/p.py`],
    ["Codex shell apply_patch heredoc", "openai-responses", "shell", `apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/p.py\n${"%s"}\n*** End Patch\nEOF`],
    ["Codex shell_command PowerShell here-string", "openai-responses", "shell_command", `@'\n${"%s"}\n'@ | Set-Content -Path src/p.py`],
  ];
  it.each(heredocs)("%s (%s): a shell command's file write is superseded by a newer one", (_label, dialect, tool, shape) => {
    const steps: Step[] = [
      { name: tool, args: { command: shape.replace("%s", v1) }, result: "ok" },
      { name: tool, args: { command: shape.replace("%s", v2) }, result: "ok" },
      ...fillers(),
    ];
    const msgs = session(dialect, steps);
    expect(summary(msgs, dialect, { editMaxChars: 8000 })).toContain("const parserVersionOne line 19");
    const s = summary(msgs, dialect, ON);
    expect(s).not.toContain("const parserVersionOne line 19");
    expect(s).toContain("const parserVersionTwo line 19");
  });

  it("a command that writes two files stays while one of them has no newer copy", () => {
    const both = `cat > a.py <<'EOF'\n${v1}\nEOF\ncat > b.py <<'EOF'\nconst onlyHere = 1\nEOF`;
    const steps: Step[] = [
      { name: "bash", args: { command: both }, result: "ok" },
      { name: "bash", args: { command: `cat > a.py <<'EOF'\n${v2}\nEOF` }, result: "ok" },
      ...fillers(),
    ];
    expect(summary(session("openai-chat", steps), "openai-chat", ON)).toContain("const onlyHere = 1");
  });

  it("knows which calls write and read files whole", () => {
    expect(wholeWritePaths("Write", { file_path: "a", content: "x" })).toEqual(["a"]);
    expect(wholeWritePaths("Edit", { file_path: "a", old_string: "x", new_string: "y" })).toEqual([]);
    expect(wholeWritePaths("bash", { command: "cat >> log.txt <<EOF\nx\nEOF" })).toEqual([]);
    expect(wholeWritePaths("shell", { command: ["bash", "-lc", "tee out.txt <<'EOF'\nx\nEOF"] })).toEqual(["out.txt"]);
    expect(wholeWritePaths("apply_patch", "*** Begin Patch\n*** Update File: u.rs\n@@\n-a\n+b\n*** End Patch")).toEqual([]);
    expect(readPath("Read", { file_path: "r.ts" })).toBe("r.ts");
    expect(readPath("shell_command", { command: "Get-Content -Raw app\\main.py" })).toBe("app\\main.py");
    expect(readPath("bash", { command: "cat src/a.py" })).toBe("src/a.py");
    expect(readPath("bash", { command: "cat src/a.py | grep x" })).toBeNull();
  });

  it("is off in the reference profile: the same input gives the reference's summary", () => {
    const steps: Step[] = [
      { name: "Read", args: { file_path: "src/widget.ts" }, result: v1 },
      { name: "Write", args: { file_path: "src/widget.ts", content: v2 }, result: "ok" },
      ...fillers(),
    ];
    for (const dialect of ALL_DIALECTS) {
      const msgs = session(dialect, steps);
      expect(summary(msgs, dialect, { workingSetMaxChars: 5 })).toBe(summary(msgs, dialect));
    }
  });
});

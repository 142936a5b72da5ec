/**
 * The recall rules, each in every dialect it applies to: per-kind call caps (edits and writes show
 * their new text), a failed result's tail, the latest plan, the tail focus. Each test states what
 * the reference does with the same input, so it fails while the rule is missing.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson, compact, getDialect, resolveConfig, type CompactResult } from "../../core/index.js";
import { MAX_TAIL_TERMS, tailTerms } from "../../core/retention/tail-focus.js";
import { ALL_DIALECTS, filler, numberedLines, session, stepMessages, taskMessage, type DialectName, type Step } from "../helpers/tool-steps.js";

const fillers = (n = 3): Step[] => Array.from({ length: n }, (_, i) => filler(i));
const summary = (msgs: unknown[], dialect: string, cfg: Record<string, unknown> = {}): string => {
  const r: CompactResult | null = compact(msgs, dialect, { profile: "reference", keepRecent: 3, ...cfg });
  expect(r).not.toBeNull();
  return r!.summaryText;
};

describe("recall rule: edits and writes show their new text (editMaxChars)", () => {
  const newText = numberedLines("const widgetParser", 30);
  const edit: Step = { name: "Edit", args: { file_path: "src/parser.ts", old_string: "old", new_string: newText }, result: "ok" };

  it.each(ALL_DIALECTS)("%s: the new text's own lines under the path, where the reference cuts the signature", (dialect) => {
    const msgs = session(dialect, [edit, ...fillers()]);
    const reference = summary(msgs, dialect);
    expect(reference).not.toContain("const widgetParser line 29");
    expect(reference).toMatch(/\[Edit\] \{"file_path":"src\/parser.ts","(new|old)_string":"[^\n]{0,120}\.\.\.\n/);
    const recall = summary(msgs, dialect, { editMaxChars: 2000 });
    expect(recall).toContain(`[Edit] src/parser.ts\n${newText}`);
    expect(recall).not.toContain('"old_string"');
  });

  it("cuts the new text at the cap with an ellipsis", () => {
    const s = summary(session("anthropic", [edit, ...fillers()]), "anthropic", { editMaxChars: 40 });
    expect(s).toContain(`[Edit] src/parser.ts\n${newText.slice(0, 40)}...`);
    expect(s).not.toContain(newText.slice(0, 41));
  });

  const shapes: [string, DialectName, Step, string][] = [
    ["Claude Code Write", "anthropic", { name: "Write", args: { file_path: "a.py", content: "def alpha_one():\n    return 1" }, result: "ok" }, "[Write] a.py\ndef alpha_one():\n    return 1"],
    ["Claude Code MultiEdit", "anthropic", { name: "MultiEdit", args: { file_path: "b.py", edits: [{ old_string: "x", new_string: "beta_one = 1" }, { old_string: "y", new_string: "beta_two = 2" }] }, result: "ok" }, "[MultiEdit] b.py\nbeta_one = 1\nbeta_two = 2"],
    ["Claude Code NotebookEdit", "anthropic", { name: "NotebookEdit", args: { notebook_path: "n.ipynb", new_source: "print(gamma_one)" }, result: "ok" }, "[NotebookEdit] n.ipynb\nprint(gamma_one)"],
    ["Pi edit", "pi", { name: "edit", args: { path: "src/c.ts", oldText: "a", newText: "export const deltaOne = 1;" }, result: "ok" }, "[edit] src/c.ts\nexport const deltaOne = 1;"],
    ["Pi edit (edits list)", "pi", { name: "edit", args: { path: "src/c.ts", edits: [{ oldText: "a", newText: "let epsOne = 1;" }] }, result: "ok" }, "[edit] src/c.ts\nlet epsOne = 1;"],
    ["Pi write", "pi", { name: "write", args: { path: "src/d.ts", content: "export {};\nconst zetaOne = 2;" }, result: "ok" }, "[write] src/d.ts\nexport {};\nconst zetaOne = 2;"],
    ["str_replace_editor create", "openai-chat", { name: "str_replace_editor", args: { command: "create", path: "/repo/e.py", file_text: "ETA_ONE = 1" }, result: "ok" }, "[str_replace_editor] /repo/e.py\nETA_ONE = 1"],
    ["str_replace_editor str_replace", "openai-chat", { name: "str_replace_editor", args: { command: "str_replace", path: "/repo/e.py", old_str: "a", new_str: "THETA_ONE = 2" }, result: "ok" }, "[str_replace_editor] /repo/e.py\nTHETA_ONE = 2"],
    ["write_file", "openai-responses", { name: "write_file", args: { path: "f.txt", content: "iota_one\niota_two" }, result: "ok" }, "[write_file] f.txt\niota_one\niota_two"],
    ["edit_file", "plain", { name: "edit_file", args: { path: "g.txt", new_string: "kappa_one" }, result: "ok" }, "[edit_file] g.txt\nkappa_one"],
    ["apply_patch", "openai-chat", { name: "apply_patch", args: { input: "*** Begin Patch\n*** Update File: h.py\n@@\n-lambda_old\n+lambda_new\n*** End Patch" }, result: "ok" }, "[apply_patch] *** Begin Patch\n*** Update File: h.py\n@@\n-lambda_old\n+lambda_new\n*** End Patch"],
  ];
  it.each(shapes)("%s (%s)", (_label, dialect, step, expected) => {
    const msgs = session(dialect, [step, ...fillers()]);
    expect(summary(msgs, dialect)).not.toContain(expected);
    expect(summary(msgs, dialect, { editMaxChars: 2000 })).toContain(expected);
  });

  it("Codex shapes: apply_patch as a custom tool, an apply_patch_call's diff, a shell apply_patch command", () => {
    const patch = "*** Begin Patch\n*** Add File: m.rs\n+fn mu_one() {}\n*** End Patch";
    const items: unknown[] = [
      taskMessage("openai-responses", "task"),
      { type: "custom_tool_call", call_id: "c1", name: "apply_patch", input: patch },
      { type: "custom_tool_call_output", call_id: "c1", output: "Success" },
      { type: "apply_patch_call", call_id: "c2", operation: { type: "update_file", path: "n.rs", diff: "@@\n-a\n+fn nu_one() {}" } },
      { type: "apply_patch_call_output", call_id: "c2", output: "ok" },
      { type: "function_call", call_id: "c3", name: "shell", arguments: JSON.stringify({ command: ["apply_patch", "*** Begin Patch\n*** Add File: x.rs\n+fn xi_one() {}\n*** End Patch"] }) },
      { type: "function_call_output", call_id: "c3", output: "ok" },
      ...fillers().flatMap((f) => stepMessages("openai-responses", f)),
    ];
    const s = summary(items, "openai-responses", { editMaxChars: 2000 });
    expect(s).toContain(`[apply_patch] ${patch}`);
    expect(s).toContain("[apply_patch_call] n.rs\n@@\n-a\n+fn nu_one() {}");
    expect(s).toContain("[shell] *** Begin Patch\n*** Add File: x.rs\n+fn xi_one() {}\n*** End Patch");
  });

  it("a view, a read and a long shell command keep the reference's signature", () => {
    const long = "x".repeat(400);
    const steps: Step[] = [
      { name: "str_replace_editor", args: { command: "view", path: "/repo/v.py" }, result: "ok" },
      { name: "bash", args: { command: `echo ${long}` }, result: "ok" },
      { name: "Read", args: { file_path: "r.py" }, result: "ok" },
      ...fillers(),
    ];
    for (const dialect of ALL_DIALECTS) {
      const msgs = session(dialect, steps);
      expect(summary(msgs, dialect, { editMaxChars: 2000 })).toBe(summary(msgs, dialect));
    }
  });
});

describe("recall rule: a failed result keeps its end (errorTailMaxChars)", () => {
  const trace = numberedLines("noise", 200) + "\nTraceback (most recent call last):\n  File \"parser.py\", line 42\nValueError: bad widget spec";
  const tailOf = (s: string): string => s.slice(s.indexOf("result (error tail"));

  it.each([["anthropic"], ["pi"]] as [DialectName][])("%s: the dialect's error flag", (dialect) => {
    const msgs = session(dialect, [{ name: "bash", args: { command: "pytest" }, result: trace, error: true }, ...fillers()]);
    expect(summary(msgs, dialect)).not.toContain("ValueError");
    const s = summary(msgs, dialect, { errorTailMaxChars: 120 });
    expect(s).toContain('noise line 199\nTraceback (most recent call last):\n  File "parser.py", line 42\nValueError: bad widget spec');
    expect(tailOf(s).split("\n---")[0].length).toBeLessThanOrEqual("result (error tail): ".length + 120);
    expect(s).not.toContain("noise line 0\n");
  });

  const stated: [string, DialectName, string, number][] = [
    ["Pi bash", "pi", trace + "\n\n\nCommand exited with code 2", 2],
    ["mini-swe-agent", "openai-chat", "<returncode>1</returncode>\n<output>\n" + trace + "\n</output>", 1],
    ["OpenHands", "openai-chat", trace + "\n[Command finished with exit code 3]", 3],
    ["OpenHands (completed)", "openai-chat", trace + "\n[The command completed with exit code 4.]", 4],
    ["Codex text", "openai-responses", "Exit code: 5\nWall time: 0.3 seconds\nOutput:\n" + trace, 5],
    ["Codex unified exec", "openai-responses", "Process exited with code 6\nOutput:\n" + trace, 6],
    ["Codex JSON", "openai-responses", JSON.stringify({ output: trace, metadata: { exit_code: 7, duration_seconds: 0.5 } }), 7],
    ["flat text", "plain", "<returncode>8</returncode>\n<output>\n" + trace + "\n</output>", 8],
  ];
  it.each(stated)("%s (%s): the exit code the output states", (_label, dialect, text, code) => {
    const msgs = session(dialect, [{ name: "bash", args: { command: "pytest" }, result: text }, ...fillers()]);
    expect(summary(msgs, dialect)).not.toContain("bad widget spec");
    const s = summary(msgs, dialect, { errorTailMaxChars: 200 });
    expect(s).toContain(`result (error tail, exit ${code}): `);
    expect(s).toContain("bad widget spec");
  });

  it("Pi bashExecution's exit code and a Responses shell call's outcome", () => {
    const pi = [taskMessage("pi", "task"), { role: "assistant", content: [{ type: "text", text: "run" }] }, { role: "bashExecution", command: "make", output: trace, exitCode: 9 }, ...fillers().flatMap((f) => stepMessages("pi", f))];
    expect(summary(pi, "pi", { errorTailMaxChars: 200 })).toContain("result (error tail, exit 9): ");
    const shell = [
      taskMessage("openai-responses", "task"),
      { type: "shell_call", call_id: "s1", action: { commands: ["make"] } },
      { type: "shell_call_output", call_id: "s1", output: [{ stdout: trace, stderr: "", outcome: { type: "exit", exit_code: 10 } }] },
      ...fillers().flatMap((f) => stepMessages("openai-responses", f)),
    ];
    expect(summary(shell, "openai-responses", { errorTailMaxChars: 200 })).toContain("result (error tail, exit 10): ");
  });

  it("a long result that did not fail is dropped as in the reference; exit 0 is no failure", () => {
    for (const text of [trace, "<returncode>0</returncode>\n" + trace, trace + "\nCommand exited with code 0"]) {
      for (const dialect of ALL_DIALECTS) {
        const msgs = session(dialect, [{ name: "bash", args: { command: "pytest" }, result: text }, ...fillers()]);
        expect(summary(msgs, dialect, { errorTailMaxChars: 200 })).toBe(summary(msgs, dialect));
      }
    }
  });

  it("a last line longer than the cap keeps its end after an ellipsis", () => {
    const msgs = session("anthropic", [{ name: "bash", args: {}, result: "a".repeat(900) + "THE_END", error: true }, ...fillers()]);
    expect(summary(msgs, "anthropic", { errorTailMaxChars: 50 })).toContain(`result (error tail): ...${"a".repeat(43)}THE_END`);
  });
});

describe("recall rule: the latest plan (planMaxChars)", () => {
  const todos = (n: number) => ({ todos: Array.from({ length: 6 }, (_, i) => ({ content: `plan ${n} task ${i}: wire the widget parser`, status: i < n ? "completed" : "pending" })) });
  const plan = (name: string, args: Record<string, unknown>): Step => ({ name, args, result: "ok" });

  const cases: [string, DialectName, Step, Step][] = [
    ["TodoWrite", "anthropic", plan("TodoWrite", todos(1)), plan("TodoWrite", todos(2))],
    ["update_plan", "openai-responses", plan("update_plan", { plan: [{ step: "plan 1 step", status: "in_progress" }] }), plan("update_plan", { plan: [{ step: "plan 2 step", status: "in_progress" }], explanation: "plan 2 x".repeat(30) })],
    ["task_tracker", "openai-chat", plan("task_tracker", { command: "plan", task_list: [{ title: "plan 1 item" }] }), plan("task_tracker", { command: "plan", task_list: [{ title: "plan 2 item ".repeat(20) }] })],
    ["Pi todo", "pi", plan("todo", { action: "write", todos: ["plan 1 a"] }), plan("todo", { action: "write", todos: ["plan 2 b ".repeat(30)] })],
    ["TodoWrite (flat)", "plain", plan("TodoWrite", todos(1)), plan("TodoWrite", todos(2))],
  ];
  it.each(cases)("%s (%s): the newest plan whole, the older one dropped", (name, dialect, older, newer) => {
    const msgs = session(dialect, [older, filler(7), newer, ...fillers()]);
    const reference = summary(msgs, dialect);
    expect(reference).toContain("plan 1");
    expect(reference).toMatch(new RegExp(`\\[${name.split(" ")[0] === "Pi" ? "todo" : name.replace(/ \(flat\)/, "")}\\] .*\\.\\.\\.`));
    const s = summary(msgs, dialect, { planMaxChars: 5000 });
    expect(s).not.toContain("plan 1");
    // Chat and Responses arguments are the model's JSON text, shown as it is; objects as canonical JSON.
    const whole = dialect === "openai-chat" || dialect === "openai-responses" ? JSON.stringify(newer.args) : canonicalJson(newer.args);
    expect(s).toContain(`] ${whole}`);
    // The plan stands in the place of the message that made it.
    expect(s.indexOf("plan 2")).toBeGreaterThan(s.indexOf("echo step 7"));
  });

  it("a task tracker's view is no plan; a plan in the kept tail leaves the span's newest in place", () => {
    const view = plan("task_tracker", { command: "view" });
    const msgs = session("openai-chat", [plan("task_tracker", { command: "plan", task_list: [{ title: "plan 1 item" }] }), view, ...fillers()]);
    expect(summary(msgs, "openai-chat", { planMaxChars: 5000 })).toContain('{"command":"plan","task_list":[{"title":"plan 1 item"}]}');
    const tailPlan = session("anthropic", [plan("TodoWrite", todos(1)), ...fillers(2), plan("TodoWrite", todos(2))]);
    const s = summary(tailPlan, "anthropic", { planMaxChars: 5000 });
    expect(s).toContain("plan 1 task 0");
    expect(s).not.toContain("plan 2");
  });

  it("over the cap the newest plan is cut with an ellipsis", () => {
    const msgs = session("anthropic", [plan("TodoWrite", todos(2)), ...fillers()]);
    const s = summary(msgs, "anthropic", { planMaxChars: 60 });
    expect(s).toMatch(/\[TodoWrite\] \{"todos":\[\{"content":"plan 2 task 0[^\n]{0,40}\.\.\./);
  });
});

describe("recall rule: a focus from the live tail (tailFocus)", () => {
  const source = numberedLines("filler code", 120).split("\n");
  source.splice(60, 0, "export function parseWidgetSpec(spec: WidgetSpec): Widget {");
  const read: Step = { name: "read", args: { path: "src/widget.ts" }, result: source.join("\n") };
  const tail: Step[] = [filler(1), filler(2), { name: "bash", args: { command: "grep -n parseWidgetSpec src/*.ts" }, result: "ok" }];

  it.each(ALL_DIALECTS)("%s: the dropped read's lines that name what the tail works on", (dialect) => {
    const msgs = session(dialect, [read, ...tail]);
    expect(summary(msgs, dialect)).not.toContain("parseWidgetSpec(spec");
    const s = summary(msgs, dialect, { tailFocus: true });
    expect(s).toContain("result (focus excerpt): filler code line 59\nexport function parseWidgetSpec(spec: WidgetSpec): Widget {\nfiller code line 60");
  });

  it("merges with the user's focus under the same caps", () => {
    const lines = source.slice();
    lines.splice(10, 0, "the staging database port is 48213");
    const msgs = session("anthropic", [{ ...read, result: lines.join("\n") }, ...tail]);
    const r = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3, tailFocus: true }, { focus: { text: "database port", terms: ["database port"] } })!;
    expect(r.summaryText).toContain("the staging database port is 48213");
    expect(r.summaryText).toContain("parseWidgetSpec(spec: WidgetSpec)");
    const capped = compact(msgs, "anthropic", { profile: "reference", keepRecent: 3, tailFocus: true, focusResultMaxChars: 60 }, { focus: { text: "database port", terms: ["database port"] } })!;
    const excerpt = capped.parts.find((p) => p.startsWith("result (focus excerpt): "))!;
    expect(excerpt.length).toBeLessThanOrEqual("result (focus excerpt): ".length + 63);
  });
});

describe("recall rule: pins (keepResultsOf, keepFiles, pinMaxChars)", () => {
  const long = numberedLines("pinned fact", 80);
  const read = (path: string): Step => ({ name: "Read", args: { file_path: path }, result: long });

  it.each(ALL_DIALECTS)("%s: by tool name (any case), by glob, by file; others dropped as in the reference", (dialect) => {
    const byName = session(dialect, [read("src/a.ts"), ...fillers()]);
    expect(summary(byName, dialect)).not.toContain("pinned fact line 79");
    expect(summary(byName, dialect, { keepResultsOf: ["read"] })).toContain(`result: ${long}`);
    const mcp = session(dialect, [{ name: "mcp__github__get_issue", args: { n: 1 }, result: long }, ...fillers()]);
    expect(summary(mcp, dialect, { keepResultsOf: ["mcp__*"] })).toContain(`result: ${long}`);
    expect(summary(mcp, dialect, { keepResultsOf: ["mcp__slack__*"] })).not.toContain("pinned fact");
    const doc = session(dialect, [read("docs/guide.md"), read("src/b.ts"), ...fillers()]);
    const s = summary(doc, dialect, { keepFiles: ["*.md"] });
    expect(s.split(`result: ${long}`)).toHaveLength(2);
    expect(s.indexOf(`result: ${long}`)).toBeLessThan(s.indexOf("src/b.ts"));
    expect(summary(doc, dialect, { keepFiles: ["docs/*.md"] })).toContain(`result: ${long}`);
    expect(summary(doc, dialect, { keepFiles: ["src/*.md"] })).not.toContain("pinned fact");
  });

  it("a pinned result over its cap keeps its start; pinMaxChars 0 turns pins off", () => {
    const msgs = session("anthropic", [read("AGENTS.md"), ...fillers()]);
    expect(summary(msgs, "anthropic", { keepFiles: ["AGENTS.md"], pinMaxChars: 30 })).toContain(`result: ${long.slice(0, 30)}...`);
    expect(summary(msgs, "anthropic", { keepFiles: ["AGENTS.md"], pinMaxChars: 0 })).toBe(summary(msgs, "anthropic"));
  });

  it("Pi's toolName and a bash execution name their tool", () => {
    const pi = [taskMessage("pi", "task"), { role: "assistant", content: [{ type: "text", text: "run" }] }, { role: "bashExecution", command: "make", output: long, exitCode: 0 }, ...fillers().flatMap((f) => stepMessages("pi", f))];
    expect(summary(pi, "pi", { keepResultsOf: ["bash"] })).toContain(`result: ${long}`);
  });
});

describe("the recall profile", () => {
  it("turns its rules on (the error tail only when asked for); each rule's own key turns it off alone; the recall profile is the default", () => {
    const trace = numberedLines("noise", 100) + "\nValueError: bad widget spec\nCommand exited with code 1";
    const steps: Step[] = [
      { name: "Edit", args: { file_path: "src/p.ts", old_string: "a", new_string: numberedLines("edited", 100) }, result: "ok" },
      { name: "bash", args: { command: "pytest" }, result: trace, error: true },
      { name: "Read", args: { file_path: "AGENTS.md" }, result: numberedLines("agents rule", 60) },
      { name: "Read", args: { file_path: "src/q.ts" }, result: numberedLines("read whole", 60) },
      ...fillers(),
    ];
    for (const dialect of ALL_DIALECTS) {
      const msgs = session(dialect, steps);
      const recall = summary(msgs, dialect, { profile: "recall" });
      expect(recall).toContain("[Edit] src/p.ts\nedited line 0");
      expect(recall).not.toContain("ValueError: bad widget spec");
      expect(summary(msgs, dialect, { profile: "recall", errorTailMaxChars: 200 })).toContain("ValueError: bad widget spec");
      expect(recall).toContain("agents rule line 59");
      expect(summary(msgs, dialect, { profile: "recall", editMaxChars: 0 })).not.toContain("edited line 99");
      expect(recall).toContain("read whole line 59");
      expect(summary(msgs, dialect, { profile: "recall", workingSetFileMaxChars: 0 })).not.toContain("read whole line 59");
      // AGENTS.md is pinned and, read whole, in the working set too: each key alone keeps it.
      expect(summary(msgs, dialect, { profile: "recall", keepFiles: [] })).toContain("agents rule line 59");
      expect(summary(msgs, dialect, { profile: "recall", keepFiles: [], workingSetFileMaxChars: 0 })).not.toContain("agents rule line 59");
      expect(compact(msgs, dialect, { keepRecent: 3 })!.summaryText).toBe(recall);
    }
  });
});

describe("focusContextLines", () => {
  it("widens a focus excerpt's window (1, the reference's, by default)", () => {
    const lines = numberedLines("ctx", 80).split("\n");
    lines.splice(20, 0, "the staging database port is 48213");
    const msgs = session("anthropic", [{ name: "read", args: { path: "a" }, result: lines.join("\n") }, ...fillers()]);
    const focus = { focus: { text: "database port", terms: ["database port"] } };
    expect(compact(msgs, "anthropic", { profile: "reference", keepRecent: 3 }, focus)!.summaryText).toContain("result (focus excerpt): ctx line 19\nthe staging database port is 48213\nctx line 20");
    expect(compact(msgs, "anthropic", { profile: "reference", keepRecent: 3, focusContextLines: 2 }, focus)!.summaryText).toContain("result (focus excerpt): ctx line 18\nctx line 19\nthe staging database port is 48213\nctx line 20\nctx line 21");
  });
});

describe("tail terms", () => {
  it("are read newest first from the tail's newest 8,000 characters", () => {
    const long = "oldTerm_one " + "filler words here ".repeat(2000) + "fresh_term_two";
    const tail = session("anthropic", [{ name: "bash", args: { command: "echo" }, result: "ok", say: long }]).slice(1);
    const terms = tailTerms(tail, getDialect("anthropic"), resolveConfig());
    expect(terms).toContain("fresh_term_two");
    expect(terms).not.toContain("oldterm_one");
    expect(terms.length).toBeLessThanOrEqual(MAX_TAIL_TERMS);
  });
});

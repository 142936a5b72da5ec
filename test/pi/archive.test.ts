/**
 * The real Pi 1.6, offline: refs in a compaction's summary, the export (a per-session folder, off
 * unless asked for), and /tree branch summaries answered without a model.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REF_LINE, SUMMARY_HEADER } from "../../core/index.js";
import { refOf } from "../../core/recall/index.js";
import { summarizeBranch } from "../../pi-extension/branch.js";
import { sessionFolderName } from "../../pi-extension/archive.js";
import { resolveConfig } from "../../core/index.js";
import { fauxAssistantMessage, fauxToolCall, makeHarness, type Harness } from "./harness.js";

const output = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i} of output for request ${n}`).join("\n");
const refs = (text: string): { length: string; ref: string }[] => text.split("\n").flatMap((l) => {
  const m = REF_LINE.exec(l);
  return m === null ? [] : [{ length: m[2], ref: m[3] }];
});
/** The texts under a folder, by ref. */
function exportedTexts(folder: string): Map<string, string> {
  if (!existsSync(folder)) return new Map();
  const texts = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
  return new Map(texts.map((t) => [refOf(t), t]));
}

async function toolRun(h: Harness, prompt: string, sizes: number[], final: string): Promise<void> {
  h.faux.appendResponses([...sizes.map((n) => fauxAssistantMessage([fauxToolCall("big", { n })], { stopReason: "toolUse" })), fauxAssistantMessage(final)]);
  await h.session.prompt(prompt);
}

async function threeRuns(h: Harness): Promise<void> {
  await toolRun(h, "TASK-A: fix the build", [80], "done 1");
  await toolRun(h, "then the tests", [90, 3], "done 2");
  await toolRun(h, "then the docs", [4], "done 3");
}

const saved = process.env.PI_CODING_AGENT_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = saved;
});

describe("Pi: refs and the export", () => {
  it("asked for, the export writes each text a compaction's refs name to the session's folder; the summary names no path", async () => {
    const base = mkdtempSync(join(tmpdir(), "cliff-pi-archive-"));
    const h = await makeHarness({ config: { archive: true, archiveDir: base } });
    await threeRuns(h);
    const calls = h.faux.state.callCount;
    await h.session.compact();
    expect(h.faux.state.callCount).toBe(calls);
    const summary = h.lastCompaction().summary as string;
    const named = refs(summary);
    expect(named.length).toBeGreaterThanOrEqual(2);
    const folder = join(base, sessionFolderName(h.session.sessionManager.getSessionId()));
    const texts = exportedTexts(folder);
    for (const p of named) expect(texts.get(p.ref)?.length.toLocaleString("en-US")).toBe(p.length);
    expect([...texts.values()]).toContain(output(80));
    expect([...texts.values()]).toContain(output(90));
    expect(summary).toContain(`result: dropped ${output(80).length.toLocaleString("en-US")} chars, ref ${refOf(output(80))}`);
    expect(summary).not.toContain(base);
    h.notices.length = 0;
    await h.session.prompt("/cliff status");
    expect(h.notices.map((n) => n.message).join("\n")).toContain(`archive: on, ${folder} · 2 file(s)`);
    h.dispose();
  });

  it("by default (the recall profile) the summary names refs and nothing is written; /cliff status says the archive is an export", async () => {
    const agent = mkdtempSync(join(tmpdir(), "cliff-pi-agent-"));
    process.env.PI_CODING_AGENT_DIR = agent;
    const h = await makeHarness();
    await threeRuns(h);
    await h.session.compact();
    const named = refs(h.lastCompaction().summary);
    expect(named.map((p) => p.ref)).toContain(refOf(output(80)));
    expect(readdirSync(agent)).not.toContain("cliffcompaction");
    h.notices.length = 0;
    await h.session.prompt("/cliff status");
    expect(h.notices.map((n) => n.message).join("\n")).toContain("archive: off (an export; summaries name each dropped text by its ref)");
    h.dispose();
  });

  it("the reference profile: no ref, no folder", async () => {
    const agent = mkdtempSync(join(tmpdir(), "cliff-pi-agent-"));
    process.env.PI_CODING_AGENT_DIR = agent;
    const h = await makeHarness({ config: { profile: "reference" } });
    await threeRuns(h);
    await h.session.compact();
    expect(refs(h.lastCompaction().summary)).toEqual([]);
    expect(h.lastCompaction().summary).not.toContain("chars, ref ");
    expect(readdirSync(agent)).not.toContain("cliffcompaction");
    h.dispose();
  });
});

describe("Pi: /tree branch summaries without a model", () => {
  const firstUser = (h: Harness): string => h.branch().find((e) => e.type === "message" && e.message.role === "user").id;

  it("navigating away with a summary writes our branch summary entry; no model call; /cliff status shows it", async () => {
    const base = mkdtempSync(join(tmpdir(), "cliff-pi-tree-"));
    const h = await makeHarness({ config: { archive: true, archiveDir: base } });
    await threeRuns(h);
    const calls = h.faux.state.callCount;
    const r = await h.session.navigateTree(firstUser(h), { summarize: true, customInstructions: "request 90" });
    expect(r.cancelled).toBe(false);
    expect(h.faux.state.callCount).toBe(calls);
    const entry = [...h.session.sessionManager.getEntries()].reverse().find((e: any) => e.type === "branch_summary") as any;
    expect(entry.fromHook).toBe(true);
    expect(entry.summary.startsWith(SUMMARY_HEADER)).toBe(true);
    expect(entry.summary).toContain("user: then the tests");
    expect(entry.summary).toContain('[big] {"n":80}');
    expect(entry.summary).toContain("result (focus excerpt)");
    expect(entry.details).toMatchObject({ method: "cliffcompaction", version: 1, focus: "request 90" });
    const texts = exportedTexts(join(base, sessionFolderName(h.session.sessionManager.getSessionId())));
    for (const p of refs(entry.summary)) expect(texts.has(p.ref), p.ref).toBe(true);
    expect(refs(entry.summary).length).toBeGreaterThan(0);
    h.notices.length = 0;
    await h.session.prompt("/cliff status");
    const status = h.notices.map((n) => n.message).join("\n");
    expect(status).toMatch(/last branch summary: @ \S+ from \d+ message\(s\), \d+ part\(s\), \d+ chars, no model call/);
    expect(status).toContain("user: then the tests");
    h.dispose();
  });

  it("with enabled: false Pi's own summary runs (a model call)", async () => {
    const h = await makeHarness({ config: { enabled: false } });
    await threeRuns(h);
    const calls = h.faux.state.callCount;
    h.faux.appendResponses([fauxAssistantMessage("Pi's own branch summary")]);
    await h.session.navigateTree(firstUser(h), { summarize: true });
    expect(h.faux.state.callCount).toBe(calls + 1);
    const entry = [...h.session.sessionManager.getEntries()].reverse().find((e: any) => e.type === "branch_summary") as any;
    expect(entry.fromHook).not.toBe(true);
    expect(entry.summary).toContain("Pi's own branch summary");
    h.dispose();
  });

  it("without a summary asked for, no entry is written; a branch with nothing to summarise gives no answer", async () => {
    const h = await makeHarness();
    await threeRuns(h);
    await h.session.navigateTree(firstUser(h), { summarize: false });
    expect(h.session.sessionManager.getEntries().some((e: any) => e.type === "branch_summary")).toBe(false);
    h.dispose();
    const cfg = resolveConfig();
    expect(summarizeBranch([], cfg)).toBeNull();
    expect(summarizeBranch([{ type: "label", id: "a", parentId: null, targetId: "x", label: "l" }, { type: "model_change", id: "b", parentId: "a" }], cfg)).toBeNull();
  });

  it("carries the files of summaries inside the branch and lists the branch's own, as Pi's summaries end", () => {
    const entries = [
      { type: "branch_summary", id: "s", parentId: null, summary: "earlier", fromHook: false, details: { readFiles: ["old.ts"], modifiedFiles: [] } },
      { type: "message", id: "u", parentId: "s", message: { role: "user", content: "go" } },
      { type: "message", id: "a", parentId: "u", message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "edit", arguments: { path: "src/x.ts", oldText: "a", newText: "b" } }] } },
      { type: "message", id: "t", parentId: "a", message: { role: "toolResult", toolCallId: "c", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false } },
    ];
    const r = summarizeBranch(entries, resolveConfig())!;
    expect(r.details.readFiles).toEqual(["old.ts"]);
    expect(r.details.modifiedFiles).toEqual(["src/x.ts"]);
    expect(r.summary).toMatch(/<read-files>\nold\.ts\n<\/read-files>/);
    expect(r.summary).toMatch(/<modified-files>\nsrc\/x\.ts\n<\/modified-files>/);
  });
});

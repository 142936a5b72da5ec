/**
 * Another extension's session_before_compact handler can replace ours: Pi keeps the last truthy
 * answer, so one that answers `{}` after ours makes Pi run its own model summary. `/cliff status`
 * names the extension files that answer the event, and once a compaction we answered was not the
 * one Pi wrote, says so (a notice at once, a line in the status). Real Pi 1.6 sessions, offline.
 */
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answersCompaction, extensionFiles, OWN_MARK, overrideOf, rivalHandlers, rivalLines } from "../../pi-extension/rivals.js";
import { EXTENSION, fauxAssistantMessage, fauxToolCall, makeHarness, type Harness } from "./harness.js";

const RIVAL = `export default function (pi) {\n  pi.on("session_before_compact", () => ({}));\n}\n`;
const BYSTANDER = `export default function (pi) {\n  pi.on("session_start", () => undefined);\n}\n`;

function places(): { agentDir: string; cwd: string } {
  const dir = mkdtempSync(join(tmpdir(), "cliff-rivals-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "project");
  mkdirSync(join(agentDir, "extensions", "folder-ext"), { recursive: true });
  mkdirSync(join(cwd, ".pi", "extensions"), { recursive: true });
  return { agentDir, cwd };
}

describe("rival handlers: the files Pi would load", () => {
  it("finds files, folders, package.json entries, settings paths and -e paths, and names those that answer session_before_compact", () => {
    const p = places();
    writeFileSync(join(p.agentDir, "extensions", "a-rival.ts"), RIVAL);
    writeFileSync(join(p.agentDir, "extensions", "bystander.js"), BYSTANDER);
    writeFileSync(join(p.agentDir, "extensions", "notes.md"), "session_before_compact");
    writeFileSync(join(p.agentDir, "extensions", "folder-ext", "index.ts"), RIVAL);
    mkdirSync(join(p.agentDir, "extensions", "pkg", "src"), { recursive: true });
    writeFileSync(join(p.agentDir, "extensions", "pkg", "package.json"), JSON.stringify({ pi: { extensions: ["./src/main.ts"] } }));
    writeFileSync(join(p.agentDir, "extensions", "pkg", "src", "main.ts"), RIVAL);
    writeFileSync(join(p.cwd, ".pi", "extensions", "project.js"), RIVAL);
    const listed = join(p.agentDir, "..", "listed.mjs");
    writeFileSync(listed, RIVAL);
    writeFileSync(join(p.agentDir, "settings.json"), JSON.stringify({ extensions: ["../listed.mjs"] }));
    const flagged = join(p.agentDir, "..", "flagged.ts");
    writeFileSync(flagged, RIVAL);
    const ours = join(p.agentDir, "..", "ours.js");
    writeFileSync(ours, readFileSync(EXTENSION, "utf8"));

    const files = extensionFiles({ ...p, argv: ["node", "pi", "-e", flagged, `--extension=${ours}`] });
    expect(files.map((f) => f.slice(p.agentDir.length - "agent".length))).toEqual([
      "agent/extensions/a-rival.ts", "agent/extensions/bystander.js", "agent/extensions/folder-ext/index.ts", "agent/extensions/pkg/src/main.ts",
      "project/.pi/extensions/project.js", "listed.mjs", "flagged.ts", "ours.js",
    ]);
    const rivals = rivalHandlers({ ...p, argv: ["node", "pi", "-e", flagged, `--extension=${ours}`] });
    expect(rivals).toEqual(files.filter((f) => !f.endsWith("bystander.js") && f !== ours));
    expect(rivals).toHaveLength(6);
  });

  it("never counts this extension's own bundle, and reads an empty place as no rivals", () => {
    expect(readFileSync(EXTENSION, "utf8")).toContain(OWN_MARK);
    expect(answersCompaction(readFileSync(EXTENSION, "utf8"))).toBe(false);
    expect(answersCompaction(RIVAL)).toBe(true);
    expect(rivalHandlers({ agentDir: join(tmpdir(), "no-such-agent-dir-cliff") })).toEqual([]);
  });

  it("tells what Pi wrote after our answer", () => {
    expect(overrideOf("S", { fromExtension: true, compactionEntry: { summary: "S" } })).toBeNull();
    expect(overrideOf("S", { fromExtension: true, compactionEntry: { summary: "T" } })).toBe("other-compaction");
    expect(overrideOf("S", { fromExtension: false, compactionEntry: { summary: "model" } })).toBe("pi-default");
    expect(rivalLines([], undefined)).toEqual([]);
    const lines = rivalLines(["/x/a.ts"], { at: "2026-12-02T00:00:00.000Z", outcome: "pi-default" });
    expect(lines[0]).toMatch(/^warning: another extension answers session_before_compact; Pi keeps the last answer/);
    expect(lines[1]).toBe("  /x/a.ts");
    expect(lines[2]).toMatch(/was not used: an empty answer after ours made Pi run its own model summary$/);
  });
});

async function toolRun(h: Harness, prompt: string, sizes: number[], final: string): Promise<void> {
  h.faux.appendResponses([...sizes.map((n) => fauxAssistantMessage([fauxToolCall("big", { n })], { stopReason: "toolUse" })), fauxAssistantMessage(final)]);
  await h.session.prompt(prompt);
}

const text = (h: Harness): string => h.notices.map((n) => n.message).join("\n");

describe("rival handlers in a real Pi 1.6 session", () => {
  it("an extension answering {} after ours: Pi runs its own summary, we warn at once and /cliff status names it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-rival-pi-"));
    const rival = join(dir, "agent", "extensions", "empty-answer.js");
    mkdirSync(join(dir, "agent", "extensions"), { recursive: true });
    writeFileSync(rival, RIVAL);
    const before = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = join(dir, "agent");
    try {
      // Loaded after ours, as Pi loads a later extension.
      const h = await makeHarness({ extensions: [EXTENSION, rival] });
      await h.session.prompt("/cliff status");
      expect(text(h)).toContain(`warning: another extension answers session_before_compact`);
      expect(text(h)).toContain(`  ${rival}`);
      expect(text(h)).not.toContain("was not used");
      await toolRun(h, "TASK-R", [40], "a");
      await toolRun(h, "b", [3], "b");
      h.faux.appendResponses([fauxAssistantMessage("## Goal\nPi's own summary"), fauxAssistantMessage("## Goal\nPi's own summary")]);
      await h.session.compact();
      expect(h.lastCompaction().fromHook).not.toBe(true);
      const warned = h.notices.filter((n) => n.type === "warning" && n.message.includes("was not used: an empty answer after ours made Pi run its own model summary"));
      expect(warned).toHaveLength(1);
      expect(warned[0].message).toContain(rival);
      await h.session.prompt("/cliff status");
      expect(h.notices.at(-1)!.message).toMatch(/our compaction @ \S+ was not used/);
      h.dispose();
    } finally {
      if (before === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = before;
    }
  });

  it("alone, or with a rival loaded before ours: our compaction is used and nothing is said of an override", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-rival-pi-"));
    const rival = join(dir, "empty-answer.js");
    writeFileSync(rival, RIVAL);
    const h = await makeHarness({ extensions: [rival, EXTENSION] });
    await toolRun(h, "TASK-F", [40], "a");
    await toolRun(h, "b", [3], "b");
    await h.session.compact();
    expect(h.lastCompaction().fromHook).toBe(true);
    await h.session.prompt("/cliff status");
    expect(text(h)).not.toContain("was not used");
    h.dispose();
  });
});

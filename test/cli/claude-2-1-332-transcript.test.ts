/**
 * A Claude Code 2.1.332 transcript (captured from the real client by test/agents/capture-transcript.ts,
 * redacted): its new entry kinds (`api-request`, `api-request-blob`, `api-request-shape`,
 * `cost-state`, `atis-latch`, and `tools-used`, `last-prompt`, `queue-operation`, attachments)
 * are skipped, not errors, and the session reads as the model saw it, through `compact` and `report`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSession } from "../../cli/readers/index.js";

const FIXTURE = "test/fixtures/claude-2.1.332/transcript.jsonl";
const NEW_KINDS = ["api-request", "api-request-blob", "api-request-shape", "cost-state", "atis-latch"];

const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 60_000 });

describe("a Claude Code 2.1.332 transcript", () => {
  const lines = readFileSync(FIXTURE, "utf8").trim().split("\n").map((l) => JSON.parse(l));

  it("holds every new entry kind, and was written by 2.1.332", () => {
    const kinds = new Set(lines.map((l) => l.type));
    for (const k of NEW_KINDS) expect(kinds.has(k), k).toBe(true);
    expect(lines.find((l) => l.type === "api-request").version).toBe("2.1.332");
  });

  it("reads as the model saw it: the user and assistant lines on the branch, the rest skipped", () => {
    const s = readSession(readFileSync(FIXTURE, "utf8"), FIXTURE);
    expect(s.format).toBe("claude-code");
    expect(s.model).toBe("claude-opus-5-5");
    const turns = lines.filter((l) => l.type === "user" || l.type === "assistant");
    expect(s.messages).toHaveLength(turns.length);
    expect(s.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(JSON.stringify(s.messages)).not.toMatch(/api-request|cost-state|atis|shapeHash/);
  });

  it("goes through compact and report", () => {
    const c = cli("compact", FIXTURE, "--profile", "reference", "--threshold", "100", "--keep-recent", "1", "--json");
    expect(c.status, c.stderr).toBe(0);
    const plan = JSON.parse(c.stdout);
    expect([plan.format, plan.compacted, plan.before.messages, plan.after.messages, plan.parts.assistantSteps]).toEqual(["claude-code", true, 8, 3, 3]);
    expect(c.stdout).toContain("seq 1 40");
    const dir = mkdtempSync(join(tmpdir(), "cliff-332-report-"));
    try {
      const out = join(dir, "r.html");
      const r = cli("report", FIXTURE, "--profile", "reference", "--threshold", "100", "--keep-recent", "1", "-o", out);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(/4 requests, \d+ cliffs? at threshold 100/);
      expect(readFileSync(out, "utf8")).toContain("<html");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * `simulate` on a Claude Code transcript with timestamps: the cache expires after a gap longer
 * than it lives (the prefix is written again), the opt-in idle cliff cliffs the first request after
 * such a gap below the threshold, and the bill is in dollars at the model's list prices.
 */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000 });

/** A Claude Code transcript of `turns` tool turns (~500 tokens each), 10 s apart, with a gap of `gapMin` minutes before turn `gapAt`. */
function transcript(turns: number, gapAt: number, gapMin: number, model = "claude-sonnet-4-5-20250929"): string {
  let t = Date.parse("2026-11-30T10:00:00Z");
  const lines: unknown[] = [];
  let parent: string | null = null;
  const push = (type: "user" | "assistant", message: Record<string, unknown>) => {
    const uuid = `u${lines.length}`;
    lines.push({ type, uuid, parentUuid: parent, timestamp: new Date(t).toISOString(), sessionId: "s", message });
    parent = uuid;
    t += 10_000;
  };
  push("user", { role: "user", content: "Fix the build." });
  for (let i = 0; i < turns; i++) {
    if (i === gapAt) t += gapMin * 60_000;
    push("assistant", { role: "assistant", model, id: `m${i}`, content: [{ type: "tool_use", id: `t${i}`, name: "Bash", input: { command: `make ${i}` } }] });
    push("user", { role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `${i} ` + "x".repeat(2000) }] });
  }
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

const dir = mkdtempSync(join(tmpdir(), "cliff-idle-sim-"));
function simulate(text: string, ...flags: string[]): any {
  const file = join(dir, `s${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, text);
  const r = cli(["simulate", file, "--threshold", "10000", "--min-gain-tokens", "1000", "--keep-recent", "1", "--json", ...flags]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("simulate with the transcript's timestamps", () => {
  it("shows the idle cliff after a gap and its bill in dollars", () => {
    const idle = simulate(transcript(15, 11, 6), "--idle-cliff", "5m");
    expect(idle.model).toBe("claude-sonnet-4-5-20250929");
    expect(idle.idleCliffs).toBe(1);
    expect(idle.cliffs.map((c: any) => c.reason)).toEqual(["idle"]);
    expect(idle.cliffs[0].before).toBeLessThan(10_000);
    expect(idle.cliffs[0].before).toBeGreaterThanOrEqual(5_000);
    expect(idle.price).toMatchObject({ input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 });
    const b = idle.billing;
    expect(b.cliff.dollars).toBeGreaterThan(0);
    expect(b.cliff.dollars).toBeLessThan(b.noCompaction.dollars);
    // The LLM baseline pays the same cliff as one more full-context call and its summary's output.
    expect(b.llmSummary.extraCalls).toBe(1);
    expect(b.llmSummary.dollars).toBeGreaterThan(b.cliff.dollars);
    const plain = simulate(transcript(15, 11, 6));
    expect([plain.idleCliffs, plain.cliffs.length]).toEqual([0, 0]);
    expect(idle.billing.cliff.dollars).toBeLessThan(plain.billing.cliff.dollars);
  });

  it("never cliffs without a gap, nor below the floor", () => {
    expect(simulate(transcript(15, 99, 0), "--idle-cliff", "5m").idleCliffs).toBe(0);
    // The gap comes at turn 4 (~2,000 tokens), under half the threshold.
    expect(simulate(transcript(15, 4, 6), "--idle-cliff", "5m").idleCliffs).toBe(0);
  });

  it("bills a cache that expired over the gap as written again, by the provider's lifetime or --cache-ttl", () => {
    const five = simulate(transcript(15, 11, 6));
    expect(five.cacheTtlSeconds).toBe(300);
    expect(five.timed).toBe(true);
    expect(five.billing.noCompaction.expired).toBe(1);
    const hour = simulate(transcript(15, 11, 6), "--cache-ttl", "1h");
    expect(hour.billing.noCompaction.expired).toBe(0);
    expect(hour.billing.noCompaction.dollars).toBeLessThan(five.billing.noCompaction.dollars);
  });
});

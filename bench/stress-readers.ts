/**
 * The CLI's readers against the review's hostile session files (reliability round three, items
 * 3–5): 100,000 split lines of one Claude Code message, a Codex rollout of 30,000 items and 30,000
 * rollbacks, an OpenHands condensation range of 0..1e15. Targets: each read in under 2 s; the
 * range in constant memory.
 */
import { performance } from "node:perf_hooks";
import { readSession } from "../cli/readers/index.js";
import { fmt, gc, heapMB } from "./util.js";

const lines = (xs: unknown[]): string => xs.map((x) => JSON.stringify(x)).join("\n") + "\n";

function splitLines(n: number): string {
  const out: unknown[] = [{ type: "user", uuid: "u0", parentUuid: null, message: { role: "user", content: "task" } }];
  for (let i = 0; i < n; i++) {
    out.push({ type: "assistant", uuid: `a${i}`, parentUuid: i === 0 ? "u0" : `a${i - 1}`, message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: `part ${i} of one long answer` }] } });
  }
  return lines(out);
}

/** `items` response items (half of them user turns), then `rollbacks` rollbacks of one turn each. */
function rollbacks(items: number, count: number): string {
  const out: unknown[] = [{ type: "session_meta", payload: { id: "s" } }];
  for (let i = 0; i < items; i++) {
    const role = i % 2 ? "assistant" : "user";
    out.push({ type: "response_item", payload: { type: "message", role, content: [{ type: role === "user" ? "input_text" : "output_text", text: `turn ${i}` }] } });
  }
  for (let i = 0; i < count; i++) out.push({ type: "event_msg", payload: { type: "thread_rolled_back", num_turns: 1 } });
  out.push({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "after" }] } });
  return lines(out);
}

function condensationRange(): string {
  return JSON.stringify([
    { id: 0, source: "user", action: "message", args: { content: "task" } },
    { id: 1, source: "agent", action: "run", args: { command: "ls", thought: "look" } },
    { id: 2, action: "condensation", args: { forgotten_events_start_id: 0, forgotten_events_end_id: 1e15, summary: "s" } },
    { id: 1e15 + 1, source: "agent", action: "message", args: { content: "done" } },
  ]);
}

function row(label: string, text: string, file: string): void {
  gc();
  const heap = heapMB();
  const t0 = performance.now();
  const s = readSession(text, file);
  const ms = performance.now() - t0;
  const grew = heapMB() - heap;
  console.log(`  ${`${label} (${(text.length / 1e6).toFixed(1)} MB)`.padEnd(58)} ${fmt(ms).padStart(9)} (target < 2 s) ${ms < 2000 ? "✔" : "✘"}   ${s.messages.length} messages, heap +${grew.toFixed(0)} MB`);
}

export function benchReaders(big: boolean): void {
  console.log(`readers (${big ? "the review's sizes" : "a tenth of the review's sizes"}):`);
  row(`Claude Code, ${big ? "100,000" : "10,000"} split lines of one message`, splitLines(big ? 100_000 : 10_000), "split.jsonl");
  row(`Codex, ${big ? "30,000 items + 30,000" : "3,000 items + 3,000"} rollbacks`, rollbacks(big ? 30_000 : 3_000, big ? 30_000 : 3_000), "rollout.jsonl");
  row("OpenHands, a condensation range of 0..1e15", condensationRange(), "events.json");
}

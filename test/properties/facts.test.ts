/**
 * The facts the default profile's rules keep about a call between and within compactions (a call's
 * decoded arguments, its repeat key, a message's asked-twice keys and dropped results) never change
 * a summary: compacting a growing session over the same objects, some arguments edited in place
 * between requests, gives what a fresh compaction of a copy gives (warm = cold), in every dialect
 * whose arguments are objects or JSON strings. 200 runs under `npm run test:deep`, 50 in `npm test`.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compact, resolveConfig } from "../../core/index.js";
import { resultText } from "../helpers/arbitraries.js";
import { runs } from "../helpers/scale.js";

const RUNS = runs(200);

/** A few calls the session repeats (reads of one file, the same command), so the repeat rules have work. */
const POOL: [string, Record<string, unknown>][] = [
  ["Read", { file_path: "src/a.ts" }],
  ["read", { path: "./src/a.ts" }],
  ["bash", { command: "npm   test" }],
  ["bash", { command: "npm test\n" }],
  ["bash", { command: "sed -n '1,40p' src/b.ts" }],
  ["grep", { pattern: "parse", path: "src" }],
  ["Write", { file_path: "src/c.ts", content: "export const c = 1;\n".repeat(30) }],
];

const turns = fc.array(fc.record({ calls: fc.array(fc.tuple(fc.nat(POOL.length - 1), resultText), { minLength: 1, maxLength: 3 }), say: fc.string({ maxLength: 20 }) }), { minLength: 2, maxLength: 9 });

type Dialect = "anthropic" | "openai-chat" | "openai-responses";

function session(dialect: Dialect, ts: { calls: [number, string][]; say: string }[]): unknown[] {
  const args = (k: number): unknown => (dialect === "anthropic" ? { ...POOL[k][1] } : JSON.stringify(POOL[k][1]));
  if (dialect === "openai-responses") {
    const items: unknown[] = [{ type: "message", role: "user", content: [{ type: "input_text", text: "fix the parser" }] }];
    ts.forEach((t, i) => {
      t.calls.forEach(([k], j) => items.push({ type: "function_call", call_id: `c${i}_${j}`, name: POOL[k][0], arguments: args(k) }));
      t.calls.forEach(([, r], j) => items.push({ type: "function_call_output", call_id: `c${i}_${j}`, output: r }));
      items.push({ type: "message", role: "assistant", content: [{ type: "output_text", text: t.say || "ok" }] });
    });
    return items;
  }
  const msgs: unknown[] = [{ role: "user", content: "fix the parser" }];
  ts.forEach((t, i) => {
    if (dialect === "anthropic") {
      msgs.push({ role: "assistant", content: [{ type: "text", text: t.say || "ok" }, ...t.calls.map(([k], j) => ({ type: "tool_use", id: `c${i}_${j}`, name: POOL[k][0], input: args(k) }))] });
      msgs.push({ role: "user", content: t.calls.map(([, r], j) => ({ type: "tool_result", tool_use_id: `c${i}_${j}`, content: r })) });
    } else {
      msgs.push({ role: "assistant", content: t.say, tool_calls: t.calls.map(([k], j) => ({ id: `c${i}_${j}`, type: "function", function: { name: POOL[k][0], arguments: args(k) } })) });
      t.calls.forEach(([, r], j) => msgs.push({ role: "tool", tool_call_id: `c${i}_${j}`, content: r }));
    }
  });
  return msgs;
}

/** Edits the arguments of the first call in place (an object's field, or a JSON string replaced in its holder). */
function editArgs(msgs: unknown[], dialect: Dialect): void {
  for (const m of msgs as Record<string, any>[]) {
    if (dialect === "anthropic" && Array.isArray(m.content)) {
      const call = m.content.find((b: Record<string, unknown>) => b.type === "tool_use");
      if (call !== undefined) return void (call.input = Object.assign(call.input, { file_path: "src/edited.ts", command: "make edited" }));
    }
    if (dialect === "openai-chat" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) return void (m.tool_calls[0].function.arguments = JSON.stringify({ path: "src/edited.ts" }));
    if (dialect === "openai-responses" && m.type === "function_call") return void (m.arguments = JSON.stringify({ command: "make edited" }));
  }
}

const summaryOf = (msgs: unknown[], dialect: Dialect, keepRecent: number): string | null => compact(msgs, dialect, resolveConfig({ keepRecent }))?.summaryText ?? null;

describe.each(["anthropic", "openai-chat", "openai-responses"] as const)("properties: the default profile's per-call facts, %s", (dialect) => {
  it("a growing session compacted warm (the same objects, arguments edited in place between requests) gives a fresh compaction's summary", () => {
    fc.assert(
      fc.property(turns, fc.integer({ min: 1, max: 3 }), fc.nat(8), (ts, keepRecent, editAt) => {
        const msgs = session(dialect, ts);
        for (let n = 2; n <= msgs.length; n++) {
          if (n === 2 + editAt) editArgs(msgs, dialect);
          const warm = msgs.slice(0, n);
          const first = summaryOf(warm, dialect, keepRecent);
          // Again over the same objects, then cold: a copy whose strings and objects are all new.
          expect(summaryOf(warm, dialect, keepRecent)).toBe(first);
          expect(summaryOf(JSON.parse(JSON.stringify(warm)), dialect, keepRecent)).toBe(first);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

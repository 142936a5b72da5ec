/**
 * Recorded Pi session files, written by this script in Pi's current format (v3: a tree of entries
 * with id/parentId) and the old v1 format (a linear list), with a tool-heavy conversation.
 * Run directly to refresh test/fixtures/: `node --import tsx test/pi/fixtures.ts`.
 */
import { writeFileSync } from "node:fs";

const TASK = "FIXTURE-TASK: migrate the config loader to the new schema and keep every test green.";

function conversation(turns: number): Record<string, unknown>[] {
  const msgs: Record<string, unknown>[] = [{ role: "user", content: [{ type: "text", text: TASK }], timestamp: 1_764_000_000_000 }];
  for (let i = 0; i < turns; i++) {
    const t = 1_764_000_000_000 + i * 1000;
    msgs.push({
      role: "assistant",
      content: [{ type: "text", text: `Turn ${i}: reading part ${i} of the loader.` }, { type: "toolCall", id: `call_${i}`, name: i % 3 === 2 ? "edit" : "read", arguments: { path: `src/config/part${i}.ts` } }],
      api: "faux", provider: "faux", model: "faux-1", stopReason: "toolUse", timestamp: t,
      usage: { input: 100 * i, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 100 * i + 20, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    });
    msgs.push({
      role: "toolResult", toolCallId: `call_${i}`, toolName: i % 3 === 2 ? "edit" : "read", isError: false, timestamp: t + 500,
      content: [{ type: "text", text: i % 2 === 0 ? `// part ${i}\n` + `export const setting${i} = load("key${i}");\n`.repeat(60) : `ok: part ${i} updated` }],
    });
  }
  msgs.push({ role: "assistant", content: [{ type: "text", text: "All parts migrated." }], api: "faux", provider: "faux", model: "faux-1", stopReason: "stop", timestamp: 1_764_000_100_000,
    usage: { input: 9000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 9010, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } } });
  return msgs;
}

/** Pi's current session format: header v3, then entries linked by parentId. */
export function currentFormat(cwd: string, turns = 12): string {
  const lines: unknown[] = [{ type: "session", version: 3, id: "0b9e5a1c-0000-4000-8000-000000000001", timestamp: "2026-11-30T10:00:00.000Z", cwd }];
  let parent: string | null = null;
  let n = 0;
  const id = (): string => (n++).toString(16).padStart(8, "0");
  const add = (e: Record<string, unknown>): void => {
    const entry = { ...e, id: id(), parentId: parent, timestamp: "2026-11-30T10:00:00.000Z" };
    parent = entry.id as string;
    lines.push(entry);
  };
  add({ type: "model_change", provider: "faux", modelId: "faux-1" });
  for (const m of conversation(turns)) add({ type: "message", message: m });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** The old v1 format: no ids, one entry after another. */
export function v1Format(cwd: string, turns = 12): string {
  const lines: unknown[] = [{ type: "session", id: "0b9e5a1c-0000-4000-8000-000000000002", timestamp: "2025-06-01T10:00:00.000Z", cwd, provider: "faux", modelId: "faux-1" }];
  for (const m of conversation(turns)) lines.push({ type: "message", timestamp: "2025-06-01T10:00:00.000Z", message: m });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

export const FIXTURE_TASK = TASK;

if (process.argv[1] && process.argv[1].endsWith("fixtures.ts")) {
  writeFileSync(new URL("../fixtures/pi-session-v3.jsonl", import.meta.url), currentFormat("/tmp/cliff-fixture"));
  writeFileSync(new URL("../fixtures/pi-session-v1.jsonl", import.meta.url), v1Format("/tmp/cliff-fixture"));
  console.log("wrote test/fixtures/pi-session-v3.jsonl and pi-session-v1.jsonl");
}

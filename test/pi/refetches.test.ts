/**
 * `/cliff status`'s re-fetches on a Pi branch: a file a compaction dropped read again after it counts
 * once, with its result's tokens; a file never read before counts none; the line says so.
 */
import { describe, expect, it } from "vitest";
import { tokensOfChars } from "../../core/index.js";
import { branchRefetches, refetchLine } from "../../pi-extension/refetches.js";

const text = (label: string) => Array.from({ length: 60 }, (_, i) => `${label} line ${i}`).join("\n");
let n = 0;
function step(name: string, args: Record<string, unknown>, result: string): Record<string, unknown>[] {
  const id = `call_${n++}`;
  return [
    { type: "message", id: `e${n}a`, message: { role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }] } },
    { type: "message", id: `e${n}r`, message: { role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: result }], isError: false } },
  ];
}

describe("/cliff status: re-fetches after Pi's compactions", () => {
  it("counts the dropped file read again, not the new one", () => {
    const WIDGET = text("widget");
    const before = [{ type: "message", id: "u0", message: { role: "user", content: [{ type: "text", text: "Fix the widget." }] } }, ...step("read", { path: "src/widget.ts" }, WIDGET), ...step("bash", { command: "make" }, "ok")];
    const kept = step("bash", { command: "make test" }, "ok");
    const compaction = { type: "compaction", id: "c1", summary: "The conversation so far: the agent read src/widget.ts and ran make.", firstKeptEntryId: kept[0].id };
    const after = [...step("read", { path: "src/widget.ts" }, WIDGET), ...step("read", { path: "src/new.ts" }, text("new"))];
    const r = branchRefetches([...before, ...kept, compaction, ...after]);
    expect(r).toEqual({ cliffs: 1, count: 1, tokens: tokensOfChars(WIDGET.length), perCliff: [1] });
    expect(refetchLine(r)).toContain("re-fetches: 1 after 1 compaction(s)");
    expect(refetchLine(branchRefetches([...before, ...after]))).toBe("");
  });
});

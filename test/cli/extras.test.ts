import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectDialect } from "../../core/index.js";
import { progressBar } from "../../cli/simulate/progress.js";

describe("examples", () => {
  it("examples/session.json is what the generator writes, byte for byte", () => {
    const out = join(mkdtempSync(join(tmpdir(), "cliff-ex-")), "s.json");
    const r = spawnSync(process.execPath, [new URL("../../examples/generate.mjs", import.meta.url).pathname, out], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(new URL("../../examples/session.json", import.meta.url), "utf8"));
    expect((JSON.parse(readFileSync(out, "utf8")).messages as unknown[]).length).toBeGreaterThan(200);
  });
});

describe("detectDialect", () => {
  it("tells the request shapes apart", () => {
    expect(detectDialect({ model: "gpt", input: [{ type: "message", role: "user", content: "x" }] })).toBe("openai-responses");
    expect(detectDialect({ model: "claude", system: "s", messages: [{ role: "user", content: "x" }] })).toBe("anthropic");
    expect(detectDialect({ messages: [{ role: "assistant", content: [{ type: "tool_use", id: "1", name: "a", input: {} }] }] })).toBe("anthropic");
    expect(detectDialect({ model: "gpt", messages: [{ role: "user", content: "x" }] })).toBe("openai-chat");
    expect(detectDialect([{ role: "assistant", content: null, tool_calls: [] }, { role: "tool", tool_call_id: "1", content: "r" }])).toBe("openai-chat");
    expect(detectDialect([{ role: "toolResult", content: [] }])).toBe("pi");
    expect(detectDialect([{ role: "assistant", content: [{ type: "toolCall", name: "x", arguments: {} }] }])).toBe("pi");
    expect(detectDialect([{ role: "user", content: "x" }, { role: "assistant", content: "y" }])).toBe("plain");
    expect(detectDialect("nonsense")).toBe("plain");
  });
});

describe("progress bar", () => {
  it("draws on a terminal only, and only for long jobs", async () => {
    const written: string[] = [];
    const stream = { isTTY: true, write: (s: string) => written.push(s) } as unknown as NodeJS.WriteStream;
    const quick = progressBar("simulating", stream);
    quick.update(50, 100);
    expect(written).toEqual([]);
    await new Promise((r) => setTimeout(r, 320));
    quick.update(50, 100);
    expect(written.at(-1)).toBe("\rsimulating [###############...............]  50%");
    quick.done();
    expect(written.at(-1)!.trim()).toBe("");
    const piped: string[] = [];
    const bar = progressBar("x", { isTTY: false, write: (s: string) => piped.push(s) } as unknown as NodeJS.WriteStream);
    await new Promise((r) => setTimeout(r, 320));
    bar.update(1, 2);
    expect(piped).toEqual([]);
  });
});

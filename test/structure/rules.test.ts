/** The layout test's own rules, on small made-up graphs: each must be able to fail. */
import { describe, expect, it } from "vitest";
import { crowdedFolders, cycles, pastFace } from "./imports.js";

const edge = (from: string, to: string, typeOnly = false) => ({ from, to, typeOnly });

describe("layout rules", () => {
  it("find a cycle of values, and one closed only by a type-only import when types count", () => {
    const files = ["cli/a.ts", "cli/b.ts", "cli/c.ts"];
    expect(cycles(files, [edge("cli/a.ts", "cli/b.ts"), edge("cli/b.ts", "cli/a.ts")])).toEqual([["cli/a.ts", "cli/b.ts"]]);
    expect(cycles(files, [edge("cli/a.ts", "cli/b.ts"), edge("cli/b.ts", "cli/c.ts"), edge("cli/c.ts", "cli/a.ts", true)])).toEqual([]);
    expect(cycles(files, [edge("cli/a.ts", "cli/b.ts"), edge("cli/b.ts", "cli/c.ts"), edge("cli/c.ts", "cli/a.ts", true)], "types too")).toEqual([["cli/a.ts", "cli/b.ts", "cli/c.ts"]]);
  });

  it("count the sources directly in a folder, not those of its sub-folders", () => {
    const flat = Array.from({ length: 16 }, (_, i) => `proxy/f${i}.ts`);
    expect(crowdedFolders(flat, 15)).toEqual(["proxy (16 files)"]);
    expect(crowdedFolders([...flat.slice(1), "proxy/http/x.ts"], 15)).toEqual([]);
  });

  it("see an import past a face, and let the core's files be imported one by one", () => {
    expect(pastFace(edge("cli/main.ts", "cli/report/html.ts"))).toBe("cli/report/index.ts");
    expect(pastFace(edge("cli/main.ts", "cli/report/index.ts"))).toBeUndefined();
    expect(pastFace(edge("cli/report/a.ts", "cli/report/b.ts"))).toBeUndefined();
    expect(pastFace(edge("cli/watch/a.ts", "proxy/observe/sessions.ts"))).toBe("proxy/observe/index.ts");
    expect(pastFace(edge("proxy/http/server.ts", "proxy/observe/events.ts"))).toBe("proxy/observe/index.ts");
    expect(pastFace(edge("cli/main.ts", "proxy/options.ts"))).toBeUndefined();
    expect(pastFace(edge("plugin/summarize.ts", "core/dialects/plain.ts"))).toBeUndefined();
    expect(pastFace(edge("core/compact.ts", "core/engine/memo.ts"))).toBeUndefined();
    expect(pastFace(edge("node/x.ts", "node/clients/codex-home.ts"))).toBe("node/clients/index.ts");
  });
});

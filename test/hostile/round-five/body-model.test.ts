/**
 * Round five, item 8: `simulate` and `report` read a request body's own `model`, as the proxy does:
 * without `--threshold` the body replays at its model's threshold, not at an unknown model's.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJson } from "../../../cli/readers/json.js";
import { runChild } from "../../helpers/child.js";

const messages = [{ role: "user", content: "fix the build" }, { role: "assistant", content: "on it" }, { role: "user", content: "go on" }];

describe("round five: a body's model", () => {
  it("8. simulate and report read the request body's model", async () => {
    expect(readJson({ model: "claude-sonnet-4-5", max_tokens: 8, messages }, "b.json").model).toBe("claude-sonnet-4-5");
    expect(readJson({ model: "gpt-5", input: messages }, "b.json").model).toBe("gpt-5");
    expect(readJson({ messages }, "b.json").model).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), "cliff-body-model-"));
    const file = join(dir, "body.json");
    writeFileSync(file, JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 8, messages }));
    const env = { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: dir, XDG_CONFIG_HOME: dir };
    const sim = await runChild(process.execPath, ["dist/cli.mjs", "simulate", file, "--json"], process.cwd(), env, 30_000);
    expect(sim.err).toBe("");
    const j = JSON.parse(sim.out);
    expect(j.model).toBe("claude-sonnet-4-5");
    expect(j.threshold).toBe(100_000);
    const report = await runChild(process.execPath, ["dist/cli.mjs", "report", file, "-o", join(dir, "r.html")], process.cwd(), env, 30_000);
    expect(report.code, report.err).toBe(0);
    expect(report.out).toMatch(/at threshold 100,000 \(the proxy.s default for claude-sonnet-4-5/);
  });
});

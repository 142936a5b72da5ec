/** The proxy's two switches (preserved thinking, the fallback): on unless a flag, a variable or the config file turns one off. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../cli/args.js";
import { proxySwitches } from "../../cli/proxy/settings.js";
import { settingLayers } from "../../cli/settings.js";

const switches = (argv: string[], env: Record<string, string> = {}) => proxySwitches(settingLayers(parseArgs(["serve", ...argv]).values, env));

describe("proxy switches", () => {
  it("both on by default; --no-preserved-thinking and --no-fallback turn them off", () => {
    expect(switches([])).toEqual({ preservedThinking: true, fallback: true });
    expect(switches(["--no-preserved-thinking"])).toEqual({ preservedThinking: false, fallback: true });
    expect(switches(["--no-fallback"])).toEqual({ preservedThinking: true, fallback: false });
  });

  it("CLIFF_PRESERVED_THINKING and CLIFF_FALLBACK, and the config file's keys, below the flags", () => {
    expect(switches([], { CLIFF_PRESERVED_THINKING: "false", CLIFF_FALLBACK: "0" })).toEqual({ preservedThinking: false, fallback: false });
    const dir = mkdtempSync(join(tmpdir(), "cliff-switches-"));
    const file = join(dir, "c.json");
    writeFileSync(file, JSON.stringify({ preservedThinking: false, fallback: true }));
    expect(switches(["--config", file])).toEqual({ preservedThinking: false, fallback: true });
    expect(switches(["--config", file], { CLIFF_FALLBACK: "off" })).toEqual({ preservedThinking: false, fallback: false });
    expect(() => switches([], { CLIFF_FALLBACK: "maybe" })).toThrow(/CLIFF_FALLBACK must be true or false/);
  });
});

/**
 * The proxy's switches: preserved thinking and the fallback on unless a flag, a variable or the
 * config file turns one off; answering the clients' compaction requests on by default in `run`, off in `serve`;
 * passing message threads on untouched off unless asked for.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../cli/args.js";
import { proxySwitches } from "../../cli/proxy/settings.js";
import { settingLayers } from "../../cli/settings.js";

const both = (argv: string[], env: Record<string, string> = {}, command: "serve" | "run" = "serve") => proxySwitches(settingLayers(parseArgs([command, ...argv]).values, env), command);
const switches = (argv: string[], env: Record<string, string> = {}) => {
  const { answerCompaction: _, passThreads: __, remoteCompaction: ___, ...rest } = both(argv, env);
  return rest;
};
const answers = (command: "serve" | "run", argv: string[] = [], env: Record<string, string> = {}): boolean | undefined => both(command === "run" ? [...argv, "--", "claude"] : argv, env, command).answerCompaction;

describe("proxy switches", () => {
  it("remote compaction: on by default (an upstream is taken as OpenAI's); --no-remote-compaction, CLIFF_REMOTE_COMPACTION=false turn it off", () => {
    expect(both([]).remoteCompaction).toBe(true);
    expect(both(["--no-remote-compaction"]).remoteCompaction).toBe(false);
    expect(both([], { CLIFF_REMOTE_COMPACTION: "false" }).remoteCompaction).toBe(false);
  });

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

  it("answerCompaction: on in run, off in serve; --answer-compaction, --no-answer-compaction, CLIFF_ANSWER_COMPACTION and the config file set it", () => {
    expect(answers("run")).toBe(true);
    expect(answers("serve")).toBe(false);
    expect(answers("serve", ["--answer-compaction"])).toBe(true);
    expect(answers("run", ["--no-answer-compaction"])).toBe(false);
    expect(answers("serve", [], { CLIFF_ANSWER_COMPACTION: "true" })).toBe(true);
    expect(answers("run", [], { CLIFF_ANSWER_COMPACTION: "off" })).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), "cliff-switches-"));
    const file = join(dir, "c.json");
    writeFileSync(file, JSON.stringify({ answerCompaction: true }));
    expect(answers("serve", ["--config", file])).toBe(true);
    expect(answers("serve", ["--config", file, "--no-answer-compaction"])).toBe(false);
  });

  it("passThreads: off in serve and run; --pass-threads, --no-pass-threads, CLIFF_PASS_THREADS and the config file set it", () => {
    const passes = (command: "serve" | "run", argv: string[] = [], env: Record<string, string> = {}) => both(command === "run" ? [...argv, "--", "claude"] : argv, env, command).passThreads;
    expect(passes("serve")).toBe(false);
    expect(passes("run")).toBe(false);
    expect(passes("serve", ["--pass-threads"])).toBe(true);
    expect(passes("run", ["--pass-threads"])).toBe(true);
    expect(passes("serve", [], { CLIFF_PASS_THREADS: "true" })).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), "cliff-switches-"));
    const file = join(dir, "c.json");
    writeFileSync(file, JSON.stringify({ passThreads: true }));
    expect(passes("serve", ["--config", file])).toBe(true);
    expect(passes("serve", ["--config", file, "--no-pass-threads"])).toBe(false);
  });
});

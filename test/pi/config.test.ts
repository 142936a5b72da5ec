import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configPath, detectHost, envName, loadConfig } from "../../pi-extension/config.js";
import { liveFromEntries } from "../../core/pi/session.js";

const home = (): string => mkdtempSync(join(tmpdir(), "cliff-home-"));

describe("Pi extension config", () => {
  it("finds the file by precedence: explicit path, config dir, ~/.pi, ~/.omp", () => {
    const h = home();
    expect(configPath({ PI_CLIFF_CONFIG: "/x/a.json", OMP_CLIFF_CONFIG: "/y/b.json" }, h)).toBe("/x/a.json");
    expect(configPath({ OMP_CLIFF_CONFIG: "/y/b.json" }, h)).toBe("/y/b.json");
    expect(configPath({ PI_CONFIG_DIR: "/cfg" }, h)).toBe("/cfg/cliffcompaction.json");
    expect(configPath({ OMP_CONFIG_DIR: "/omp" }, h)).toBe("/omp/cliffcompaction.json");
    expect(configPath({}, h)).toBe(join(h, ".pi/agent/cliffcompaction.json"));
    mkdirSync(join(h, ".omp/agent"), { recursive: true });
    writeFileSync(join(h, ".omp/agent/cliffcompaction.json"), "{}");
    expect(configPath({}, h)).toBe(join(h, ".omp/agent/cliffcompaction.json"));
    mkdirSync(join(h, ".pi/agent"), { recursive: true });
    writeFileSync(join(h, ".pi/agent/cliffcompaction.json"), "{}");
    expect(configPath({}, h)).toBe(join(h, ".pi/agent/cliffcompaction.json"));
  });

  it("under OMP, PI_CONFIG_DIR names the config folder under home, as OMP reads it", () => {
    const h = home();
    expect(configPath({}, h, "omp")).toBe(join(h, ".omp/agent/cliffcompaction.json"));
    expect(configPath({ PI_CONFIG_DIR: ".ompx" }, h, "omp")).toBe(join(h, ".ompx/agent/cliffcompaction.json"));
    expect(configPath({ PI_CODING_AGENT_DIR: "/profiles/work/agent", PI_CONFIG_DIR: ".ompx" }, h, "omp")).toBe("/profiles/work/agent/cliffcompaction.json");
    expect(configPath({ PI_CONFIG_DIR: ".ompx" }, h, "pi")).toBe(".ompx/cliffcompaction.json");
    // Without a file, each host names its own place.
    expect(loadConfig({}, h, "omp").path).toBe(join(h, ".omp/agent/cliffcompaction.json"));
    expect(loadConfig({}, h, "pi").path).toBe(join(h, ".pi/agent/cliffcompaction.json"));
    expect(detectHost(["/usr/bin/bun", "/x/node_modules/@oh-my-pi/pi-coding-agent/src/cli.ts"], { ...process.versions })).toBe("omp");
    expect(detectHost(["/usr/bin/node", "/x/bin/omp"], { ...process.versions })).toBe("omp");
    expect(detectHost(["/usr/bin/node", "/x/node_modules/@earendil-works/pi-coding-agent/dist/cli.js"], { ...process.versions })).toBe("pi");
  });

  it("applies CLIFF_* env over the file; bad values are reported and ignored", () => {
    const h = home();
    const file = join(h, "c.json");
    writeFileSync(file, JSON.stringify({ keep_recent: 2, strict: true, bogus: 1 }));
    const env = { PI_CLIFF_CONFIG: file, CLIFF_KEEP_RECENT: "5", CLIFF_SHADOW: "yes", CLIFF_STRICT: "off", CLIFF_RESULT_MAX_CHARS: "12abc" };
    const l = loadConfig(env, h);
    // The bad value is ignored: resultMaxChars keeps the default profile's (recall) value.
    expect(l.config).toMatchObject({ profile: "recall", keepRecent: 5, shadow: true, strict: false, resultMaxChars: 200 });
    expect(l.problems.join("\n")).toMatch(/bogus/);
    expect(l.problems.join("\n")).toMatch(/CLIFF_RESULT_MAX_CHARS="12abc"/);
    expect(envName("thoughtMaxChars")).toBe("CLIFF_THOUGHT_MAX_CHARS");
  });

  it("a boolean that is neither true nor false is reported and leaves the setting as it was", () => {
    for (const raw of ["ture", "2", "enabled"]) {
      const l = loadConfig({ CLIFF_ENABLED: raw, PI_CLIFF_CONFIG: join(home(), "none.json") }, home());
      expect(l.config.enabled).toBe(true);
      expect(l.problems.join("\n")).toContain(`CLIFF_ENABLED=${JSON.stringify(raw)} must be true or false`);
    }
    const off = loadConfig({ CLIFF_ENABLED: "off", CLIFF_MAX_SUMMARY_RATIO: "1.5", PI_CLIFF_CONFIG: join(home(), "none.json") }, home());
    expect(off.config.enabled).toBe(false);
    expect(off.config.maxSummaryRatio).toBe(0.45);
    expect(off.problems.join("\n")).toContain('CLIFF_MAX_SUMMARY_RATIO="1.5" must be a number in (0, 1]');
  });

  it("a file that is not JSON keeps the defaults and says why", () => {
    const h = home();
    const file = join(h, "c.json");
    writeFileSync(file, "{ nope");
    const l = loadConfig({ PI_CLIFF_CONFIG: file }, h);
    expect(l.config.keepRecent).toBe(3);
    expect(l.problems[0]).toMatch(/not valid JSON/);
  });
});

describe("live set from branch entries", () => {
  const msg = (id: string, role: string, text: string): unknown => ({ type: "message", id, message: { role, content: [{ type: "text", text }] } });
  it("keeps the original head, skips what a previous compaction replaced, applies context edits", () => {
    const entries = [
      { type: "session_info", id: "s" },
      msg("sys", "system", "prompt"),
      msg("u0", "user", "task"),
      msg("a0", "assistant", "old 0"),
      msg("u1", "user", "old 1"),
      msg("a1", "assistant", "kept 1"),
      { type: "compaction", id: "c1", firstKeptEntryId: "a1", summary: "OLD SUMMARY" },
      msg("a2", "assistant", "failed"),
      { type: "context_edit", id: "x", targetId: "a2", replacement: null },
      { type: "custom_message", id: "cm", content: "note from an extension" },
      { type: "branch_summary", id: "b", summary: "branch went nowhere" },
    ];
    const live = liveFromEntries(entries);
    expect(live.map((l) => l.entryId)).toEqual(["u0", "a1", "cm", "b"]);
    expect(JSON.stringify(live)).not.toContain("OLD SUMMARY");
    expect(live[3].message.content).toContain("<summary>\nbranch went nowhere\n</summary>");
  });
});

describe("recorded Pi fixtures", () => {
  it("test/fixtures/pi-session-*.jsonl are what test/pi/fixtures.ts writes", async () => {
    const { readFileSync } = await import("node:fs");
    const { currentFormat, v1Format } = await import("./fixtures.js");
    expect(readFileSync(new URL("../fixtures/pi-session-v3.jsonl", import.meta.url), "utf8")).toBe(currentFormat("/tmp/cliff-fixture"));
    expect(readFileSync(new URL("../fixtures/pi-session-v1.jsonl", import.meta.url), "utf8")).toBe(v1Format("/tmp/cliff-fixture"));
  });
});

import { describe, expect, it } from "vitest";
import { CONFIG_KINDS, ConfigError, DEFAULT_CONFIG, PROFILES, envName, envValues, parseSetting, resolveConfig, resolveLayers, setBy } from "../../core/index.js";
import { REFERENCE_CONFIG } from "../../core/config/index.js";

describe("config kinds", () => {
  it("profile is an enum: recall by default, a bad name refused with the names it accepts", () => {
    expect(DEFAULT_CONFIG.profile).toBe("recall");
    expect(resolveConfig({}).profile).toBe("recall");
    expect(CONFIG_KINDS.profile).toBe("enum");
    expect(resolveConfig({ profile: "recall" }).profile).toBe("recall");
    expect(() => resolveConfig({ profile: "fast" })).toThrow(/profile.*reference, recall/);
    expect(parseSetting("profile", " recall ")).toBe("recall");
    expect(() => parseSetting("profile", "Recall")).toThrow(ConfigError);
  });
  it("a list reads comma-separated text and refuses what is not a list of strings", () => {
    const key = Object.keys(CONFIG_KINDS).find((k) => (CONFIG_KINDS as Record<string, string>)[k] === "list") as keyof typeof CONFIG_KINDS | undefined;
    if (key === undefined) return; // no list key defined yet: nothing to read
    expect(parseSetting(key, "a, b ,,c")).toEqual(["a", "b", "c"]);
    expect(() => resolveConfig({ [key]: "a,b" })).toThrow(new RegExp(key));
    expect(() => resolveConfig({ [key]: [1] })).toThrow(new RegExp(key));
  });
});

describe("profiles", () => {
  it("the recall profile is the default; the reference profile gives the reference's own defaults, whatever the base", () => {
    expect(resolveConfig({ profile: "recall" })).toEqual(resolveConfig());
    expect(resolveConfig({ profile: "reference" })).toEqual(REFERENCE_CONFIG);
    expect(resolveConfig({ profile: "reference" }, resolveConfig({ profile: "recall" }))).toEqual(REFERENCE_CONFIG);
    expect(resolveLayers([{ source: "flags", values: { profile: "reference" } }])).toEqual(REFERENCE_CONFIG);
    // The reference's own values, written out: what the Python reference's defaults are.
    expect(REFERENCE_CONFIG).toMatchObject({ profile: "reference", keepRecent: 3, thoughtMaxChars: 0, cmdMaxChars: 150, resultMaxChars: 500, humanMaxChars: 20000, keepThinking: true, editMaxChars: 0, workingSetFileMaxChars: 0, planMaxChars: 0, tailFocus: false, archive: false, keepEditedFiles: false, backRefMaxChars: 0, focusResultMaxChars: 800, focusTotalMaxChars: 6000 });
    expect(REFERENCE_CONFIG.keepFiles).toEqual([]);
  });
  it("a profile supplies defaults; an explicit key wins whatever the order of keys", () => {
    const keys = Object.keys(PROFILES.recall) as (keyof typeof DEFAULT_CONFIG)[];
    const a = resolveConfig({ profile: "recall", keepRecent: 7 });
    const b = resolveConfig({ keepRecent: 7, profile: "recall" });
    expect(a).toEqual(b);
    expect(a.keepRecent).toBe(7);
    for (const k of keys) if (k !== "keepRecent") expect(a[k]).toEqual(PROFILES.recall[k]);
  });
});

describe("layers: flags over CLIFF_* over file over profile over defaults", () => {
  it("a higher layer wins for a key", () => {
    const cfg = resolveLayers([
      { source: "file", values: { keepRecent: 1, cmdMaxChars: 10 } },
      { source: "env", values: { keepRecent: 2 } },
      { source: "flags", values: { cmdMaxChars: 30 } },
    ]);
    expect(cfg.keepRecent).toBe(2);
    expect(cfg.cmdMaxChars).toBe(30);
  });
  it("the profile comes from the highest layer that sets it, and a lower layer's explicit key still beats the profile", () => {
    const cfg = resolveLayers([
      { source: "file", values: { profile: "reference", resultMaxChars: 123 } },
      { source: "env", values: { profile: "recall" } },
    ]);
    expect(cfg.profile).toBe("recall");
    expect(cfg.resultMaxChars).toBe(123);
  });
  it("host defaults sit below the profile and every layer", () => {
    expect(resolveLayers([], { keepRecent: 9 }).keepRecent).toBe(9);
    expect(resolveLayers([{ source: "flags", values: { keepRecent: 4 } }], { keepRecent: 9 }).keepRecent).toBe(4);
  });
  it("an error names the layer it came from", () => {
    expect(() => resolveLayers([{ source: "CLIFF_* environment", values: { keepRecent: -1 } }])).toThrow(/^CLIFF_\* environment: .*keepRecent/);
  });
  it("setBy names the highest layer that set a key, or undefined", () => {
    const layers = [
      { source: "file", values: { keepRecent: 1 } },
      { source: "flags", values: { keep_recent: 2 } },
    ];
    expect(setBy(layers, "keepRecent")).toBe("flags");
    expect(setBy(layers, "cmdMaxChars")).toBeUndefined();
  });
  it("host keys are skipped when named, refused otherwise", () => {
    expect(resolveLayers([{ source: "file", values: { openaiUpstream: "x", keepRecent: 2 } }], {}, ["openaiUpstream"]).keepRecent).toBe(2);
    expect(() => resolveLayers([{ source: "file", values: { openaiUpstream: "x" } }])).toThrow(/openaiUpstream/);
  });
});

describe("CLIFF_* variables", () => {
  it("are named after the key in upper snake case", () => {
    expect(envName("keepRecent")).toBe("CLIFF_KEEP_RECENT");
    expect(envName("thresholdTokens")).toBe("CLIFF_THRESHOLD_TOKENS");
  });
  it("are parsed by kind; a bad one is reported by name and left out", () => {
    const { values, problems } = envValues({ CLIFF_KEEP_RECENT: "5", CLIFF_PROFILE: "recall", CLIFF_STRICT: "yes", CLIFF_CMD_MAX_CHARS: "x", CLIFF_OTHER: "1", CLIFF_RESULT_MAX_CHARS: "" });
    expect(values).toEqual({ keepRecent: 5, profile: "recall", strict: true });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^CLIFF_CMD_MAX_CHARS="x" must be a whole number/);
  });
});

/**
 * Help that reads right: usage lines mark what is optional, every flag is described in words (never
 * by its config key's name), each default is what the command really uses, profile by profile, and
 * a mistyped flag or command gets the one it was near.
 */
import { describe, expect, it } from "vitest";
import { COMMANDS, FLAGS, nearest, parseArgs, UsageError } from "../../cli/args.js";
import { helpText } from "../../cli/help.js";
import { CONFIG_KEYS, resolveConfig } from "../../core/index.js";

/** The help line of `--name` in `command --help`. */
const line = (command: (typeof COMMANDS)[number], name: string): string => {
  const found = helpText(command).split("\n").find((l) => new RegExp(`^  (-\\w, )?--${name}( |$)`).test(l));
  if (found === undefined) throw new Error(`no --${name} in ${command} --help`);
  return found;
};

const usageError = (argv: string[]): string => {
  try {
    parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`${argv.join(" ")} parsed`);
};

describe("the help text", () => {
  it("marks --threshold optional in simulate's usage, and says what it does without it", () => {
    const help = helpText("simulate");
    expect(help).toContain("Usage: cliffcompaction simulate FILE|- [--threshold N] [options]");
    expect(help).toContain("each model's own unless --threshold N");
  });

  it("describes every flag in words: no help is a config key's name, none has two defaults", () => {
    for (const f of FLAGS) {
      expect(f.help, `--${f.name}`).not.toMatch(/^[a-z]+[A-Z]\w*$/);
      expect(f.help.split(" ").length, `--${f.name}: ${f.help}`).toBeGreaterThanOrEqual(3);
      expect(CONFIG_KEYS as readonly string[], `--${f.name}`).not.toContain(f.help);
    }
    for (const c of COMMANDS) for (const l of helpText(c).split("\n")) expect(l.split("(default ").length, l).toBeLessThanOrEqual(2);
  });

  it("gives --threshold the default each command really uses: the model's own, but for compact", () => {
    const t = line("simulate", "threshold");
    expect(t).not.toMatch(/\(default 200000\)/);
    expect(t).toContain("(default each model's own: below its long-context price tier, else half its window, at most 200,000; compact: 200000)");
    expect(resolveConfig({}).thresholdTokens).toBe(200000);
  });

  it("shows each setting's default under the default profile and under any profile that differs", () => {
    const reference = resolveConfig({ profile: "reference" });
    const recall = resolveConfig({ profile: "recall" });
    const shown = (v: unknown): string => (Array.isArray(v) ? (v.length === 0 ? "none" : v.join(",")) : String(v));
    for (const [flag, key] of [["edit-max-chars", "editMaxChars"], ["result-max-chars", "resultMaxChars"], ["working-set-file-max-chars", "workingSetFileMaxChars"], ["back-ref-max-chars", "backRefMaxChars"], ["keep-files", "keepFiles"], ["keep-recent", "keepRecent"]] as const) {
      const a = shown(reference[key]);
      const b = shown(recall[key]);
      const defaults = line("simulate", flag).match(/\(default ([^)]*)\)$/)![1];
      const mine = resolveConfig({}).profile === "recall" ? [b, a, "reference"] : [a, b, "recall"];
      expect(defaults, flag).toBe(mine[0] === mine[1] ? mine[0] : `${mine[0]}; ${mine[2]} profile: ${mine[1]}`);
    }
    expect(line("simulate", "tail-focus")).toMatch(/\(on (in the recall profile|by default; off in the reference profile)\)$/);
    expect(line("simulate", "keep-thinking")).toMatch(/\((on by default; off in the recall profile|on in the reference profile)\)$/);
    expect(line("simulate", "archive-dir")).toMatch(/--archive-dir DIR +the export's folder .*\(default the host's\)$/);
  });
});

describe("did you mean", () => {
  it("names the flag an unknown one was near, among those the command takes", () => {
    expect(usageError(["simulate", "x", "--treshold", "5"])).toBe("unknown option --treshold (did you mean --threshold?)");
    expect(usageError(["compact", "x", "--keep-recnet", "2"])).toBe("unknown option --keep-recnet (did you mean --keep-recent?)");
    expect(usageError(["report", "x", "--ouput=r.html"])).toBe("unknown option --ouput (did you mean --output?)");
    expect(usageError(["serve", "--anthropic-upstrem", "http://x"])).toBe("unknown option --anthropic-upstrem (did you mean --anthropic-upstream?)");
    // --svg is simulate's: report is not offered it.
    expect(usageError(["report", "x", "--svgg", "a.svg"])).toBe("unknown option --svgg");
    expect(usageError(["simulate", "x", "--svgg", "a.svg"])).toBe("unknown option --svgg (did you mean --svg?)");
    expect(usageError(["simulate", "x", "--frobnicate"])).toBe("unknown option --frobnicate");
  });

  it("names the command an unknown one was near", () => {
    expect(usageError(["simualte", "x"])).toBe(`unknown command "simualte" (did you mean simulate? commands: ${COMMANDS.join(", ")})`);
    expect(usageError(["frobnicate", "x"])).toBe(`unknown command "frobnicate" (commands: ${COMMANDS.join(", ")})`);
  });

  it("offers a word only when it is near: two edits, one for short words, or the one word it begins", () => {
    expect(nearest("thresold", ["threshold", "port"])).toBe("threshold");
    expect(nearest("prot", ["port", "json"])).toBe("port");
    expect(nearest("pxyz", ["port", "json"])).toBeUndefined();
    expect(nearest("idle-cliff-flo", ["idle-cliff", "idle-cliff-floor"])).toBe("idle-cliff-floor");
    expect(nearest("drain", ["drain-seconds", "port"])).toBe("drain-seconds");
    expect(nearest("keep", ["keep-recent", "keep-files"])).toBeUndefined();
  });
});

/**
 * The default build has the recall profile (`node build.mjs`): the usual file names, the profile's
 * rules baked in, within 60 KiB, and 20 AgentParley cycles in node:vm and QuickJS with the task
 * verbatim, every summary within half the threshold and the files of the first cycle still carried
 * at the last. The reference profile's build (`node build.mjs --profile reference`) has its own file
 * names, and a manifest and README that say which.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { strFromU8, unzipSync } from "fflate";
import { resolveConfig } from "../../core/index.js";
import { parseEnvelope } from "../../plugin/envelope-read.js";
import { summarizeWithReport } from "../../plugin/summarize.js";
import { quickjsSandbox, vmSandbox, type Sandbox } from "../helpers/sandboxes.js";
import { TASK, type FlatMessage } from "../helpers/flat-session.js";

const BUILD = new URL("../../build.mjs", import.meta.url).pathname;
const VERSION = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
const THRESHOLD = 8000;
const call = (name: string, input: Record<string, unknown>): string => JSON.stringify([{ type: "tool_use", id: "x", name, input }]);

/** One cycle: reads of long files, an edit, a failing test run with a long log, a short check. */
function cycle(c: number): FlatMessage[] {
  const out: FlatMessage[] = [];
  for (let t = 0; t < 4; t++) {
    out.push({ role: "assistant", content: call("Read", { file_path: `src/c${c}_${t}.ts` }) }, { role: "tool", content: `export const value${c}_${t} = ${t};\n`.repeat(60) });
  }
  if (c === 1) out.push({ role: "assistant", content: call("Read", { file_path: "src/kept.ts" }) }, { role: "tool", content: "ok" });
  out.push({ role: "assistant", content: call("Edit", { file_path: `src/fix${c}.ts`, old_string: "a", new_string: `export function fix${c}() {\n  return ${c};\n}` }) }, { role: "tool", content: "ok" });
  out.push({ role: "assistant", content: call("Bash", { command: "npm test" }) }, { role: "tool", content: "noise line\n".repeat(120) + `FAIL test/fix${c}.test.ts: expected ${c}\nCommand exited with code 1` });
  out.push({ role: "assistant", content: `Cycle ${c}: checking the fix.` }, { role: "tool", content: `ok ${c}` });
  return out;
}

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cliff-recall-build-"));
  const def = spawnSync(process.execPath, [BUILD, "--out", dir, "--no-types"], { encoding: "utf8" });
  expect(def.status, def.stderr).toBe(0);
  expect(def.stdout).not.toContain("profile)");
  const r = spawnSync(process.execPath, [BUILD, "--profile", "reference", "--out", dir, "--no-types"], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain("(reference profile)");
}, 120_000);

describe("the default build: the recall profile", () => {
  it("has the usual file names, manifest and README, within 60 KiB", () => {
    const files = unzipSync(readFileSync(join(dir, `cliffcompaction-agentparley-${VERSION}.zip`)));
    const manifest = JSON.parse(strFromU8(files["manifest.json"]));
    expect(manifest.id).toBe("cliffcompaction");
    expect(manifest.name).toBe("CliffCompaction");
    expect(manifest.entry).toBe("cliffcompaction.js");
    expect(strFromU8(files["cliffcompaction.js"])).toBe(readFileSync(join(dir, "cliffcompaction.js"), "utf8"));
    expect(readFileSync(join(dir, "cliffcompaction.js")).length).toBeLessThanOrEqual(60 * 1024);
  });

  it("bakes the profile's rules in: an edit's new text; a dropped read's lines that the recent turns name", () => {
    const sb = vmSandbox("", join(dir, "cliffcompaction.js"));
    const env = parseEnvelope(sb.summarize({ messages: [TASK, ...cycle(1), ...cycle(2), { role: "assistant", content: "Now value1_2 again." }, { role: "tool", content: "ok" }], threshold: 100_000 }))!;
    expect(env.digest).toContain("[Edit] src/fix1.ts\nexport function fix1() {\n  return 1;\n}");
    expect(env.digest).toContain("result (focus excerpt): export const value1_2 = 2;");
    const reference = parseEnvelope(vmSandbox("", join(dir, "cliffcompaction-reference.js")).summarize({ messages: [TASK, ...cycle(1), ...cycle(2)], threshold: 100_000 }))!;
    expect(reference.digest).not.toContain("[Edit] src/fix1.ts\n");
  });
});

describe("the reference build", () => {
  it("has its own file names; its manifest and README say it is the reference profile; the library's reference envelope", () => {
    const files = unzipSync(readFileSync(join(dir, `cliffcompaction-agentparley-reference-${VERSION}.zip`)));
    const manifest = JSON.parse(strFromU8(files["manifest.json"]));
    expect(manifest.id).toBe("cliffcompaction-reference");
    expect(manifest.name).toBe("CliffCompaction (reference profile)");
    expect(manifest.description).toContain("reference profile");
    expect(manifest.entry).toBe("cliffcompaction.js");
    expect(strFromU8(files["cliffcompaction.js"])).toBe(readFileSync(join(dir, "cliffcompaction-reference.js"), "utf8"));
    const readme = strFromU8(files["README.md"]);
    expect(readme).toContain("This build uses the reference profile.");
    expect(readme.length).toBeLessThan(4000);
    const context = { messages: [TASK, ...cycle(1), ...cycle(2)], threshold: 100_000 };
    expect(vmSandbox("", join(dir, "cliffcompaction-reference.js")).summarize(context)).toBe(summarizeWithReport(context, resolveConfig({ profile: "reference" })).summary);
  });
});

const sandboxes: [string, () => Promise<Sandbox>][] = [
  ["node:vm", async () => vmSandbox("", join(dir, "cliffcompaction.js"))],
  ["quickjs", () => quickjsSandbox("", join(dir, "cliffcompaction.js"))],
];

describe.each(sandboxes)("the default (recall) build through 20 AgentParley cycles in %s", (_name, make) => {
  it("the task verbatim, within half the threshold, the library's envelope, cycle 1's files carried", async () => {
    const sb = await make();
    const cfg = resolveConfig();
    let history: FlatMessage[] = [TASK, ...cycle(1)];
    for (let c = 1; c <= 20; c++) {
      const s = sb.summarize({ messages: history, threshold: THRESHOLD });
      expect(s, `cycle ${c}`).not.toBe("");
      expect(s).toBe(summarizeWithReport({ messages: history, threshold: THRESHOLD }, cfg).summary);
      expect(Math.ceil(s.length / 4)).toBeLessThanOrEqual(THRESHOLD / 2);
      const env = parseEnvelope(s)!;
      expect(env.task).toEqual([TASK]);
      expect(env.files!.read).toContain("src/kept.ts");
      expect(env.files!.modified).toContain("src/fix1.ts");
      history = [{ role: "user", content: s }, ...cycle(c + 1)];
    }
  }, 120_000);
});

import { beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { writeSessionFiles } from "../helpers/session-files.js";

const CLI = new URL("../../dist/cli.mjs", import.meta.url).pathname;
let dir: string;
let f: Record<string, string>;

function run(...args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const json = (...args: string[]): Record<string, any> => {
  const r = run(...args, "--json");
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "cliff-cli-"));
  f = writeSessionFiles(dir);
});

describe("cliffcompaction compact", () => {
  it("detects every format and compacts it", () => {
    const expected: [string, string, string, string][] = [
      ["pi-v3.jsonl", "pi", "pi", "PI-TASK"],
      ["pi-v1.jsonl", "pi", "pi", "V1-TASK"],
      ["claude-code.jsonl", "claude-code", "anthropic", "CC-TASK"],
      ["anthropic.json", "anthropic", "anthropic", "ANT-TASK"],
      ["openai-chat.json", "openai-chat", "openai-chat", "CHAT-TASK"],
      ["run.traj.json", "traj", "openai-chat", "CHAT-TASK"],
      ["history.json", "traj", "openai-chat", "CHAT-TASK"],
      ["responses.json", "openai-responses", "openai-responses", "RESP-TASK"],
      ["agentparley.json", "agentparley", "plain", "AP-TASK"],
    ];
    for (const [name, format, dialect] of expected) {
      const r = json("compact", f[name], "--keep-recent", "1");
      expect([name, r.format, r.dialect, r.compacted]).toEqual([name, format, dialect, true]);
      expect(r.after.tokens).toBeLessThan(r.before.tokens);
      expect(r.summary.startsWith("The following is a summary of your previous actions")).toBe(true);
    }
  });

  it("follows the Pi branch to the last leaf and reads v1 files", () => {
    const r = json("compact", f["pi-v3.jsonl"], "--keep-recent", "1");
    expect(r.before.messages).toBe(14);
    expect(r.summary).not.toContain("ABANDONED");
    expect(r.summary).toContain("[bash] {\"command\":\"make 0\"}");
    expect(json("compact", f["pi-v1.jsonl"], "--keep-recent", "1").summary).toContain('[read] {"path":"f0"}');
  });

  it("merges split Claude Code messages, skips sidechains, strips traj extras", () => {
    const cc = json("compact", f["claude-code.jsonl"], "--keep-recent", "1");
    expect(cc.before.messages).toBe(11);
    expect(cc.summary).toContain('assistant: cc step 0\n[Bash] {"command":"ls 0"}');
    expect(cc.summary).not.toContain("SIDECHAIN");
    const traj = run("compact", f["run.traj.json"], "--lines", "0");
    expect(traj.out).not.toContain("RAWDATA");
  });

  it("prints a readable report with parts by class", () => {
    const r = run("compact", f["anthropic.json"], "--keep-recent", "1");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/before\s+11 messages/);
    expect(r.out).toMatch(/summary\s+\d+ parts from 8 messages: 4 assistant steps, 2 tool results kept, 2 dropped as too long/);
    expect(r.out).toContain("--- summary ---");
  });

  it("config flags and --config files are validated with the key named", () => {
    expect(json("compact", f["anthropic.json"], "--keep-recent", "2").keepRecent).toBe(2);
    const bad = run("compact", f["anthropic.json"], "--keep-recent", "two");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--keep-recent must be a whole number");
    const cfg = run("compact", f["anthropic.json"], "--config", f["bad-config.json"]);
    expect(cfg.code).toBe(2);
    expect(cfg.err).toContain("keepRecent");
  });

  it("--host agentparley shows the plugin's exact output, in QuickJS too", () => {
    const lib = run("compact", f["agentparley.json"], "--host", "agentparley", "--lines", "0", "--threshold", "100000");
    const qjs = run("compact", f["agentparley.json"], "--host", "agentparley", "--sandbox", "quickjs", "--lines", "0", "--threshold", "100000");
    expect(lib.code).toBe(0);
    expect(qjs.out).toContain("identical to the library's output");
    const body = (s: string): string => s.slice(s.indexOf("--- what the plugin returns ---"));
    expect(body(qjs.out)).toBe(body(lib.out));
    expect(lib.out).toContain("<focus chars=");
    expect(lib.out).toContain("secret port 48210");
    const pi = json("compact", f["pi-v3.jsonl"], "--host", "agentparley");
    expect(pi.outcome).toBe("summary");
    expect(pi.summary).toContain("PI-TASK");
  });

  it("broken input: one clear line naming the file and the line or key, exit code 2", () => {
    const cases: [string[], RegExp][] = [
      [["compact", f["broken.json"]], /broken\.json:line 3: not valid JSON/],
      [["compact", f["broken.jsonl"]], /broken\.jsonl:line 3: not valid JSON/],
      [["compact", f["no-messages.json"]], /no-messages\.json: no "messages" \(or Responses "input"\) list found/],
      [["compact", f["bad-list.json"]], /bad-list\.json:key "messages": must be a list of messages/],
      [["compact", f["bad-entry.json"]], /bad-entry\.json:key "messages\[1\]": each message must be an object/],
      [["compact", f["empty.json"]], /empty\.json: the file is empty/],
      [["compact", f["odd.jsonl"]], /odd\.jsonl:line 1: unrecognised JSON-lines file/],
      [["compact", join(dir, "missing.json")], /missing\.json: cannot read \(ENOENT\)/],
      [["compact", f["anthropic.json"], "--format", "yaml"], /unknown --format "yaml"/],
    ];
    for (const [args, pattern] of cases) {
      const r = run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err).toMatch(pattern);
      expect(r.err.trim().split("\n")).toHaveLength(1);
      if (!/cannot read/.test(r.err)) expect(r.err).toContain("accepted formats:");
      expect(r.out).toBe("");
    }
  });

  it("usage errors exit 2 and point at --help; --help shows examples", () => {
    expect(run("frobnicate", "x").code).toBe(2);
    expect(run("compact").err).toContain("compact needs a FILE");
    expect(run("compact", "a", "--nope").code).toBe(2);
    const help = run("--help");
    expect(help.code).toBe(0);
    expect(help.out).toContain("cliffcompaction simulate examples/session.json --threshold");
  });
});

describe("cliffcompaction simulate", () => {
  it("reports cliffs and billing, writes a valid SVG with one drop per cliff and a CSV", () => {
    const svg = join(dir, "chart.svg");
    const csv = join(dir, "steps.csv");
    const example = new URL("../../examples/session.json", import.meta.url).pathname;
    const r = run("simulate", example, "--threshold", "12000", "--svg", svg, "--csv", csv, "--json");
    expect(r.code).toBe(0);
    const sim = JSON.parse(r.out);
    expect(sim.cliffs.length).toBeGreaterThanOrEqual(2);
    expect(sim.peak).toBeLessThanOrEqual(12000 * 1.2);
    expect(sim.billing.cliff.billed).toBeLessThan(sim.billing.noCompaction.billed);
    expect(sim.billing.llmSummary.extraCalls).toBe(sim.cliffs.length);
    const text = readFileSync(svg, "utf8");
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(text);
    const lines = [doc.svg.polyline].flat();
    const context = lines.find((p: Record<string, string>) => p["@_class"] === "context");
    const ys = (context["@_points"] as string).split(" ").map((pt) => Number(pt.split(",")[1]));
    let drops = 0;
    for (let i = 1; i < ys.length; i++) if (ys[i] > ys[i - 1]) drops++; // SVG y grows downwards
    expect(drops).toBe(sim.cliffs.length);
    expect([doc.svg.circle].flat()).toHaveLength(sim.cliffs.length);
    const rows = readFileSync(csv, "utf8").trim().split("\n");
    expect(rows[0]).toBe("step,message_index,context_tokens,cliff,cached_tokens,uncached_tokens,no_compaction_context_tokens");
    expect(rows.length - 1).toBe(sim.requests);
    expect(rows.filter((l) => l.split(",")[3] === "1")).toHaveLength(sim.cliffs.length);
  });

  it("without --threshold takes the proxy's default for the session's model and says which", () => {
    const r = run("simulate", f["anthropic.json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/threshold 100,000 tokens \(the proxy's default for claude-x: half its 200,000-token window; window from the model table/);
  });
});

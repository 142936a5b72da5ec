/** The minimum gain between cliffs in `simulate` and `report`: the host default, what they say, and a head over the threshold. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aSession } from "../helpers/sessions.js";

const cli = (args: string[], env: Record<string, string> = {}) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000, env: { ...process.env, ...env } });
const dir = mkdtempSync(join(tmpdir(), "cliff-no-thrash-"));
/** An Anthropic request whose system prompt alone (about 2,500 tokens) is over a 2,000-token threshold. */
const bigHead = join(dir, "big-head.json");
writeFileSync(bigHead, JSON.stringify({ model: "m", max_tokens: 64, system: "You are a coding agent. Follow the house rules.\n".repeat(208), messages: aSession(40) }));

function simulate(...flags: string[]): any {
  const r = cli(["simulate", bigHead, "--threshold", "2000", "--json", ...flags]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

function reportData(...flags: string[]): { data: any; html: string } {
  const out = join(dir, `r-${flags.join("_")}.html`);
  const r = cli(["report", bigHead, "--threshold", "2000", "-o", out, ...flags]);
  expect(r.status).toBe(0);
  const html = readFileSync(out, "utf8");
  const json = /<script type="application\/json" id="cliff-data">([^<]*)<\/script>/.exec(html)![1];
  return { data: JSON.parse(json), html };
}

describe("simulate and report: no thrash", () => {
  it("a session whose head alone is over the threshold cliffs on every request without the gain, once per gain with it", () => {
    const none = simulate("--min-gain-tokens", "0");
    expect(none.minGainTokens).toBe(0);
    expect(none.cliffs.length).toBeGreaterThan(none.requests - 5);
    const gained = simulate("--min-gain-tokens", "2000");
    expect(gained.cliffs.length).toBeGreaterThanOrEqual(2);
    expect(gained.cliffs.length).toBeLessThan(none.cliffs.length / 2);
    // Each cliff after the first waited for the gain past what the one before left.
    for (let k = 1; k < gained.cliffs.length; k++) expect(gained.cliffs[k].before).toBeGreaterThanOrEqual(gained.cliffs[k - 1].after + 2000);
    expect(gained.held).toBeGreaterThan(gained.requests / 2);
    expect(gained.tightFloor.head + gained.tightFloor.summary + gained.tightFloor.tail).toBe(gained.tightFloor.tokens);
    expect(gained.tightFloor.head).toBeGreaterThan(2000);
  });

  it("the gain defaults to a tenth of the threshold, below CLIFF_* and flags, and the text output says so", () => {
    expect(simulate().minGainTokens).toBe(200);
    expect(JSON.parse(cli(["simulate", bigHead, "--threshold", "2000", "--json"], { CLIFF_MIN_GAIN_TOKENS: "700" }).stdout).minGainTokens).toBe(700);
    expect(JSON.parse(cli(["simulate", bigHead, "--threshold", "2000", "--json", "--min-gain-tokens", "900"], { CLIFF_MIN_GAIN_TOKENS: "700" }).stdout).minGainTokens).toBe(900);
    const text = cli(["simulate", bigHead, "--threshold", "2000", "--min-gain-tokens", "2000"]).stdout;
    expect(text).toMatch(/^rule {6}a cliff waits for 2,000 tokens of growth past what the last one left \(--min-gain-tokens\); \d+ requests over the threshold held back$/m);
    expect(text).toMatch(/^warning {3}what stays after a cliff, [\d,]+ tokens \(head [\d,]+ \+ summary [\d,]+ \+ tail [\d,]+\), is within the minimum gain 2,000 of the threshold 2,000/m);
    expect(cli(["simulate", bigHead, "--threshold", "2000"]).stdout).toMatch(/a cliff waits for 200 tokens of growth past what the last one left \(--min-gain-tokens, a tenth of the threshold\)/);
    expect(cli(["simulate", "--help"]).stdout).toMatch(/--min-gain-tokens N +after a cliff, the next waits for N tokens of growth past what it left \(default a tenth of the threshold; 0 for compact\)/);
  });

  it("report applies and shows the same rule as simulate", () => {
    const sim = simulate("--min-gain-tokens", "2000");
    const { data, html } = reportData("--min-gain-tokens", "2000");
    expect([data.cliffs, data.minGainTokens, data.held, data.tightFloor]).toEqual([sim.cliffs.length, 2000, sim.held, sim.tightFloor]);
    expect(data.cliffDetails.map((c: any) => c.step)).toEqual(sim.cliffs.map((c: any) => c.step));
    expect(html).toContain('<p id="min-gain">a cliff waits for 2,000 tokens of growth');
    expect(html).toContain('<p id="tight-floor" class="warning">what stays after a cliff');
    const none = reportData("--min-gain-tokens", "0").data;
    expect(none.cliffs).toBeGreaterThan(2 * data.cliffs);
  });

  it("report's own threshold (the proxy's default for the session's model) takes a tenth of it as the gain", () => {
    const out = join(dir, "chosen.html");
    const r = cli(["report", bigHead, "-o", out]);
    expect(r.status).toBe(0);
    const data = JSON.parse(/id="cliff-data">([^<]*)</.exec(readFileSync(out, "utf8"))![1]);
    expect(data.minGainTokens).toBe(Math.floor(data.threshold / 10));
  });
});

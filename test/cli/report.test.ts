/** The HTML report: its data for a known session, and session text that stays text. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { dollarFormat } from "../../cli/simulate/index.js";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000 });

function elements(root: Node): Element[] {
  const out: Element[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if ("tagName" in n) out.push(n as Element);
    const kids = "childNodes" in n ? (n.childNodes as Node[]) : [];
    if ("content" in n && n.content) kids.push(n.content as Node);
    stack.push(...kids);
  }
  return out;
}
const textOf = (n: Node): string => ("value" in n && n.nodeName === "#text" ? String(n.value) : "childNodes" in n ? (n.childNodes as Node[]).map(textOf).join("") : "");
const attr = (e: Element, name: string): string | undefined => e.attrs.find((a) => a.name === name)?.value;

function report(session: string, ...flags: string[]): { html: string; doc: Node; els: Element[]; out: string } {
  const dir = mkdtempSync(join(tmpdir(), "cliff-report-"));
  const file = join(dir, "r.html");
  const r = cli("report", session, "-o", file, ...flags);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const html = readFileSync(file, "utf8");
  const doc = parse(html) as unknown as Node;
  return { html, doc, els: elements(doc), out: r.stdout };
}

describe("report", () => {
  it("holds the simulation, the cliffs and the anatomy of a known session, with nothing from the network", () => {
    const { html, els } = report("examples/session.json", "--threshold", "20000");
    const sim = JSON.parse(cli("simulate", "examples/session.json", "--threshold", "20000", "--json").stdout);
    const dataEl = els.find((e) => e.tagName === "script" && attr(e, "id") === "cliff-data")!;
    const data = JSON.parse(textOf(dataEl));
    expect([data.requests, data.cliffs, data.peak, data.floor, data.threshold]).toEqual([sim.requests, sim.cliffs.length, sim.peak, sim.floor, 20000]);
    // The same sum in another order: equal but for the float's last digits (rounding a .5 could differ).
    expect(data.billing.cliff.billed).toBeCloseTo(sim.billing.cliff.billed, 6);
    expect(data.context).toHaveLength(sim.requests);
    // One row and one expandable section per cliff, each with the summary text.
    const rows = els.filter((e) => e.tagName === "tr" && elements(e).some((c) => c.tagName === "a"));
    expect(rows).toHaveLength(sim.cliffs.length);
    const details = els.filter((e) => e.tagName === "details" && /^cliff-\d+$/.test(attr(e, "id") ?? ""));
    expect(details).toHaveLength(sim.cliffs.length);
    for (const d of details) expect(textOf(elements(d).find((e) => attr(e, "class") === "summary-text")!)).toMatch(/^The following is a summary of your previous actions/);
    // The anatomy bar: five classes that add up to the session.
    const bar = els.find((e) => attr(e, "id") === "anatomy")!;
    expect(elements(bar).filter((e) => e.tagName === "span")).toHaveLength(5);
    expect(Object.values(data.anatomy as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(40_000);
    // The chart is inline; nothing is loaded from anywhere.
    expect(els.some((e) => e.tagName === "svg" && elements(e).some((c) => attr(c, "class") === "context"))).toBe(true);
    expect(html).not.toMatch(/<link|src=|href="http|@import|url\(/);
  });

  it("lists each dropped tool result with its size and call, and the files read and modified", () => {
    const { els } = report(new URL("../fixtures/sessions/codex-rollout.jsonl", import.meta.url).pathname, "--threshold", "700");
    const lis = els.filter((e) => e.tagName === "li").map(textOf);
    expect(lis.some((t) => /^\d[\d,]* chars, from \[shell\] /.test(t))).toBe(true);
    expect(lis.some((t) => t === "modified src/lex0.rs")).toBe(true);
  });

  it("session text is inert: </script>, <img onerror> and quotes render as text", () => {
    const evil = '</script><script>alert(1)</script><img src=x onerror="alert(2)"> \' " &amp;';
    const msgs: unknown[] = [{ role: "user", content: "task " + evil }];
    for (let i = 0; i < 30; i++) {
      msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "Read", input: { file_path: `${evil}/f${i}` } }] });
      msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: evil + "x".repeat(900) }] });
    }
    const dir = mkdtempSync(join(tmpdir(), "cliff-evil-"));
    const session = join(dir, "evil.json");
    writeFileSync(session, JSON.stringify({ model: "m", messages: msgs }));
    const { doc, els } = report(session, "--threshold", "3000");
    expect(els.filter((e) => e.tagName === "img")).toHaveLength(0);
    const scripts = els.filter((e) => e.tagName === "script");
    expect(scripts).toHaveLength(1);
    expect(attr(scripts[0], "type")).toBe("application/json");
    expect(JSON.parse(textOf(scripts[0])).files.read[0]).toBe(`${evil}/f0`);
    expect(els.every((e) => e.attrs.every((a) => !a.name.startsWith("on")))).toBe(true);
    expect(textOf(doc)).toContain(`read ${evil}/f0`);
  });
});

describe("one bill", () => {
  // A Codex rollout with timestamps and a priced model: the profiles' table was once replayed
  // without the cache's lifetime, the prices and the minimum gain, and billed other numbers.
  it.each([["examples/session.json", "20000"], ["test/fixtures/sessions/codex-rollout.jsonl", "800"]])("%s: the profile in force bills in the profiles' table what \"What it costs\" bills, dollars in both when priced", (session, threshold) => {
    for (const profile of ["reference", "recall"]) {
      const { els, html } = report(session, "--threshold", threshold, "--profile", profile);
      const data = JSON.parse(textOf(els.find((e) => attr(e, "id") === "cliff-data")!));
      const run = data.profiles.find((p: { profile: string }) => p.profile === profile);
      expect(run.billed, profile).toBe(data.billing.cliff.billed);
      const billing = textOf(els.find((e) => attr(e, "id") === "billing")!);
      const row = textOf(els.find((e) => attr(e, "class") === `profile-${profile}`)!);
      const billed = Math.round(data.billing.cliff.billed).toLocaleString("en-US");
      expect(billing).toContain(`cliffcompaction (${profile} profile)`);
      expect(billing).toContain(billed);
      expect(row).toContain(billed);
      const priced = JSON.parse(cli("simulate", session, "--threshold", threshold, "--profile", profile, "--json").stdout).billing.cliff.dollars as number | null;
      const shown = priced === null ? "" : dollarFormat([data.billing.cliff.dollars, data.billing.noCompaction.dollars, data.billing.llmSummary.dollars])(priced);
      expect(priced === null ? html.includes("<th>dollars</th>") : billing.includes(shown) && (row.includes(shown) || row.includes(`$${priced.toFixed(2)}`))).toBe(priced !== null);
    }
  });
});

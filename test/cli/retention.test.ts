/** simulate --json's cliffs[].neededDropped and the report's retention parts, on a generated agent session. */
import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { agentSession } from "../../bench/agent-dialects.js";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

const cli = (...args: string[]) => spawnSync(process.execPath, ["dist/cli.mjs", ...args], { encoding: "utf8", timeout: 120_000 });
const dir = mkdtempSync(join(tmpdir(), "cliff-retention-"));
const messages = agentSession("anthropic", 11);
const file = join(dir, "session.json");
writeFileSync(file, JSON.stringify({ model: "m", max_tokens: 100, messages }));

function elements(root: Node): Element[] {
  const out: Element[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if ("tagName" in n) out.push(n as Element);
    stack.push(...("childNodes" in n ? (n.childNodes as Node[]) : []));
  }
  return out;
}
const textOf = (n: Node): string => ("value" in n && n.nodeName === "#text" ? String(n.value) : "childNodes" in n ? (n.childNodes as Node[]).map(textOf).join("") : "");
const cls = (e: Element): string => e.attrs.find((a) => a.name === "class")?.value ?? "";
const id = (e: Element): string => e.attrs.find((a) => a.name === "id")?.value ?? "";

describe("what each cliff cost, in simulate --json", () => {
  // The reference profile: its cliffs drop results the next turns needed (the recall profile keeps them).
  const r = cli("simulate", file, "--threshold", "20000", "--json", "--profile", "reference");
  const sim = JSON.parse(r.stdout);

  it("lists, per cliff, the dropped or cut items that held what the next turns needed", () => {
    expect(r.status, r.stderr).toBe(0);
    expect(sim.cliffs.length).toBeGreaterThanOrEqual(2);
    const items = sim.cliffs.flatMap((c: { neededDropped: unknown[] }) => c.neededDropped);
    expect(items.length).toBeGreaterThan(0);
    for (const c of sim.cliffs) {
      expect(c.held).toBeLessThanOrEqual(c.needed);
      const lost = new Set(c.neededDropped.flatMap((d: { tokens: string[] }) => d.tokens));
      expect(lost.size).toBeLessThanOrEqual(c.needed - c.held);
      for (const d of c.neededDropped) {
        expect(["result", "call", "text", "thinking", "user", "system", "summary", "other"]).toContain(d.kind);
        expect(["dropped", "cut"]).toContain(d.action);
        // The item is the session's message before the cliff, and it holds each token it is charged with;
        // a previous summary is no message of the session file.
        if (d.kind === "summary") {
          expect(d.message).toBeNull();
          continue;
        }
        expect(d.message).toBeLessThan(c.index);
        for (const t of d.tokens) expect(JSON.stringify(messages[d.message])).toContain(t);
      }
    }
    expect(items.some((d: { kind: string; action: string }) => d.kind === "result" && d.action === "dropped")).toBe(true);
  });
});

const RULES = ["head", "tail", "result", "call", "text", "thinking", "user", "system", "files", "edit", "plan", "working-set", "pinned", "error-tail", "focus", "back-ref", "stubbed-read", "archive", "other"];

describe("which rule kept each needed token a cliff held, in simulate --json", () => {
  const cache = join(dir, "held-cache");
  const run = (...extra: string[]) => {
    const r = spawnSync(process.execPath, ["dist/cli.mjs", "simulate", file, "--threshold", "20000", "--json", ...extra], { encoding: "utf8", timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: cache } });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout);
  };

  it.each([["reference"], ["recall"]])("%s: every held token is named once, by a rule and its config key", (profile) => {
    const sim = run("--profile", profile);
    expect(sim.cliffs.length).toBeGreaterThanOrEqual(2);
    for (const c of sim.cliffs) {
      const named = c.heldBy.flatMap((h: { tokens: string[] }) => h.tokens);
      expect(named.length).toBe(c.held);
      expect(new Set(named).size).toBe(named.length);
      for (const h of c.heldBy) {
        expect(RULES).toContain(h.rule);
        expect(h.key === null || typeof h.key === "string").toBe(true);
        expect(h.rule).not.toBe("other");
      }
    }
    const rules = new Set(sim.cliffs.flatMap((c: { heldBy: { rule: string }[] }) => c.heldBy.map((h) => h.rule)));
    expect(rules.has("tail")).toBe(true);
    if (profile === "recall") expect(rules.has("edit") || rules.has("working-set")).toBe(true);
  });

  it("what the kept tail held is credited to keepRecent", () => {
    const sim = run();
    const tail = sim.cliffs.flatMap((c: { heldBy: { rule: string; key: string; tokens: string[] }[] }) => c.heldBy.filter((h) => h.rule === "tail"));
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.every((h: { key: string }) => h.key === "keepRecent")).toBe(true);
  });
});

describe("the report's retention parts", () => {
  const out = join(dir, "r.html");
  const cache = join(dir, "cache");
  // Under the reference profile, whose own cliffs write no archive: the recall profile's replay beside it must not either.
  const r = spawnSync(process.execPath, ["dist/cli.mjs", "report", file, "--threshold", "20000", "--profile", "reference", "-o", out], { encoding: "utf8", timeout: 120_000, env: { ...process.env, XDG_CACHE_HOME: cache } });
  const els = elements(parse(readFileSync(out, "utf8")) as unknown as Node);
  // Each cliff is a <details id="cliff-N">; the kept messages' results and raw JSON fold in details of their own.
  const isCliff = (e: (typeof els)[number]): boolean => e.tagName === "details" && /^cliff-\d+$/.test(id(e));

  it("shows, in each cliff, what the next turns needed that it dropped", () => {
    expect(r.status, r.stderr).toBe(0);
    const details = els.filter(isCliff);
    expect(details.length).toBeGreaterThan(0);
    const needed = els.filter((e) => cls(e) === "needed");
    expect(needed).toHaveLength(details.length);
    expect(els.filter((e) => cls(e) === "needed-item").map(textOf).some((t) => /^message \d+, tool result \(dropped\): \S/.test(t))).toBe(true);
  });

  it("shows, in each cliff, which rule kept each needed token it held", () => {
    const kept = els.filter((e) => cls(e) === "held-by");
    expect(kept.length).toBe(els.filter(isCliff).length);
    const items = els.filter((e) => cls(e) === "held-item").map(textOf);
    expect(items.some((t) => /^the kept tail \(keepRecent\): \S/.test(t))).toBe(true);
    const data = JSON.parse(textOf(els.find((e) => id(e) === "cliff-data")!));
    expect(data.cliffDetails[0].heldBy.flatMap((h: { tokens: string[] }) => h.tokens).length).toBe(data.cliffDetails[0].held);
  });

  it("compares the two profiles: tokens kept, the bill, what each dropped", () => {
    const table = els.find((e) => id(e) === "profiles")!;
    const rows = elements(table).filter((e) => e.tagName === "tr" && cls(e).startsWith("profile-"));
    expect(rows.map(cls).sort()).toEqual(["profile-recall", "profile-reference"]);
    const data = JSON.parse(textOf(els.find((e) => id(e) === "cliff-data")!));
    expect(data.profiles.map((p: { profile: string }) => p.profile)).toEqual(["reference", "recall"]);
    const reference = JSON.parse(cli("simulate", file, "--threshold", "20000", "--json", "--profile", "reference").stdout);
    expect(Math.round(data.profiles[0].billed)).toBe(Math.round(reference.billing.cliff.billed));
    expect(data.profiles[0].dropped.length).toBeGreaterThan(0);
    expect(textOf(els.find((e) => id(e) === "profile-dropped")!)).toMatch(/reference's own cliffs dropped \d+ needed token.*recall's own cliffs dropped \d+ needed token/s);
  });

  it("replays the recall profile's archive without writing one", () => {
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(cache)).toBe(false);
  });
});

/** The proxy's archive: `run --archive DIR` keeps each dropped result of a compacted request; on only on loopback. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POINTER_LINE, resolveConfig } from "../../core/index.js";
import { startProxy } from "../../proxy/index.js";
import { archiveOffNote, proxyArchive } from "../../proxy/decision/archive.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { runChild } from "../helpers/child.js";

let mock: MockUpstream;
const dir = mkdtempSync(join(tmpdir(), "cliff-proxy-archive-"));
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(() => mock.close());

/** An Anthropic history of `n` steps: even steps' results are long (`${i}` then 3000 characters), odd ones short. */
function history(n: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing test." }];
  for (let i = 0; i < n; i++) {
    msgs.push({ role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "bash", input: { command: `pytest -k ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: i % 2 === 0 ? `${i} ` + "X".repeat(3000) : `${i} passed` }] });
  }
  return msgs;
}

const pointers = (text: string): string[] => text.split("\n").flatMap((l) => POINTER_LINE.exec(l)?.[3] ?? []);

describe("cliffcompaction run --archive DIR", () => {
  it("writes one file for each dropped result of a compacted request, and the request sent on points at each", async () => {
    const archive = join(dir, "run-archive");
    const body = JSON.stringify({ model: "m", max_tokens: 10, messages: history(12) });
    const agent = join(dir, "agent.mjs");
    writeFileSync(agent, `#!${process.execPath}\nconst r = await fetch(process.env.ANTHROPIC_BASE_URL + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: ${JSON.stringify(body)} });\nprocess.exit(r.status === 200 ? 0 : 1);\n`);
    chmodSync(agent, 0o755);
    const before = mock.received.length;
    const r = await runChild(process.execPath, ["dist/cli.mjs", "run", "--threshold", "2000", "--keep-recent", "1", "--archive", archive, "--anthropic-upstream", mock.url, "--", agent], process.cwd(), { ...process.env, ANTHROPIC_BASE_URL: "" }, 60_000);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`; archive: ${archive}`);
    const sent = JSON.parse(mock.received[before].body.toString("utf8")) as { messages: { content: unknown }[] };
    const summary = sent.messages.map((m) => (typeof m.content === "string" ? m.content : "")).find((t) => t.includes("kept at"))!;
    // The replay cliffs each time the history crosses the threshold and every cliff drops the one
    // before: every long result was dropped by some cliff and is kept, and the summary sent on
    // (the last cycle's) names the ones it covers.
    const written = readdirSync(archive, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "utf8")).sort();
    const long = [0, 2, 4, 6, 8, 10].map((i) => `${i} ` + "X".repeat(3000));
    const sentOn = JSON.stringify(sent.messages);
    const dropped = long.filter((t) => !sentOn.includes(JSON.stringify(t)));
    expect(dropped.length).toBeGreaterThan(2);
    expect(written).toEqual(dropped.sort());
    const named = pointers(summary);
    expect(named.length).toBeGreaterThan(0);
    for (const path of named) expect(readFileSync(path, "utf8")).toMatch(/^\d+ X{3000}$/);
  });
});

describe("the proxy's archive and where it listens", () => {
  it("is on only on loopback; serve beyond loopback says so when it was asked for", () => {
    const cfg = resolveConfig({ archive: true, archiveDir: join(dir, "never") });
    expect(proxyArchive(cfg, "127.0.0.1", undefined)?.dir).toBe(join(dir, "never"));
    expect(proxyArchive(cfg, "::1", undefined)).toBeDefined();
    for (const host of ["0.0.0.0", "192.168.1.5", "::", "example.com"]) expect(proxyArchive(cfg, host, undefined)).toBeUndefined();
    expect(proxyArchive(resolveConfig({ profile: "reference", archiveDir: join(dir, "never") }), "127.0.0.1", undefined)).toBeUndefined();
    expect(existsSync(join(dir, "never"))).toBe(false);
    expect(archiveOffNote(cfg, "0.0.0.0", true)).toMatch(/archive is off: the proxy listens on 0\.0\.0\.0, beyond loopback/);
    // Supplied by the recall profile, not asked for by name: off without a word.
    expect(archiveOffNote(resolveConfig({ profile: "recall" }), "0.0.0.0", false)).toBeNull();
    expect(archiveOffNote(cfg, "127.0.0.1", true)).toBeNull();
    expect(archiveOffNote(resolveConfig({ archive: false }), "0.0.0.0", true)).toBeNull();
  });

  it("/_cliff/status shows the archive folder and what it wrote", async () => {
    const archive = join(dir, "status-archive");
    const proxy = await startProxy({ config: resolveConfig({ archive: true, archiveDir: archive, thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url } });
    try {
      const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages: history(12) }) });
      expect(r.status).toBe(200);
      const status = (await (await fetch(proxy.url + "/_cliff/status")).json()) as { archive: { dir: string; written: number; failures: number } };
      expect(status.archive).toMatchObject({ dir: archive, files: 4, written: 4, failures: 0 });
    } finally {
      await proxy.close();
    }
  });
});

/**
 * The proxy's export: `run --archive DIR` writes each dropped result of a compacted request, off
 * unless asked for; the request sent on names each by its ref, the same bytes with or without it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REF_LINE, resolveConfig } from "../../core/index.js";
import { refOf } from "../../core/recall/index.js";
import { startProxy } from "../../proxy/index.js";
import { proxyArchive } from "../../proxy/decision/archive.js";
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

const refs = (text: string): string[] => text.split("\n").flatMap((l) => REF_LINE.exec(l)?.[3] ?? []);

describe("cliffcompaction run --archive DIR", () => {
  it("writes one file for each dropped result of a compacted request; the request sent on names each by its ref, no path", async () => {
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
    const summary = sent.messages.map((m) => (typeof m.content === "string" ? m.content : "")).find((t) => t.includes("chars, ref "))!;
    // The replay cliffs each time the history crosses the threshold and every cliff drops the one
    // before: every long result was dropped by some cliff and is kept, and the summary sent on
    // (the last cycle's) names the ones it covers.
    const written = readdirSync(archive, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name), "utf8")).sort();
    const long = [0, 2, 4, 6, 8, 10].map((i) => `${i} ` + "X".repeat(3000));
    const sentOn = JSON.stringify(sent.messages);
    const dropped = long.filter((t) => !sentOn.includes(JSON.stringify(t)));
    expect(dropped.length).toBeGreaterThan(2);
    expect(written).toEqual(dropped.sort());
    const named = refs(summary);
    expect(named.length).toBeGreaterThan(0);
    const byRef = new Map(written.map((t) => [refOf(t), t]));
    for (const ref of named) expect(byRef.get(ref)).toMatch(/^\d+ X{3000}$/);
    expect(sentOn).not.toContain(archive);
  });
});

describe("the proxy's export", () => {
  it("is off unless asked for, and on wherever the proxy listens when it is", () => {
    const cfg = resolveConfig({ archive: true, archiveDir: join(dir, "asked") });
    expect(proxyArchive(cfg, undefined)?.dir).toBe(join(dir, "asked"));
    for (const profile of ["recall", "reference"] as const) expect(proxyArchive(resolveConfig({ profile, archiveDir: join(dir, "never") }), undefined)).toBeUndefined();
    expect(existsSync(join(dir, "never"))).toBe(false);
  });

  it("two proxies, one exporting to a folder and one not, send the same bytes", async () => {
    const body = JSON.stringify({ model: "m", max_tokens: 10, messages: history(12) });
    const sent: string[] = [];
    for (const config of [resolveConfig({ archive: true, archiveDir: join(dir, "replica-a"), thresholdTokens: 2000, keepRecent: 1 }), resolveConfig({ thresholdTokens: 2000, keepRecent: 1 })]) {
      const proxy = await startProxy({ config, port: 0, upstreams: { anthropic: mock.url } });
      try {
        const before = mock.received.length;
        const r = await fetch(proxy.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body });
        expect(r.status).toBe(200);
        sent.push(mock.received[before].body.toString("utf8"));
      } finally {
        await proxy.close();
      }
    }
    expect(sent[0]).toMatch(/chars, ref [0-9a-f]{12}/);
    expect(sent[1]).toBe(sent[0]);
  });

  it("/_cliff/status shows the export's folder and what it wrote", async () => {
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

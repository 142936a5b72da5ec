/**
 * The proxy's switches for what it sends: --strict refuses what no rung fits (400 in each API's
 * shape, the upstream never asked), --shadow logs what it would send and sends the original,
 * --debug-dir writes one file per compactable request (no header in it), and the threshold as a
 * share of the window of the model each request names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { windowOf, DEFAULT_WINDOW } from "../../proxy/decision/window.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(() => mock.close());

/** A tool-using Anthropic history of `turns` turns, each result `size` characters. */
function history(turns: number, size = 2000): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the build." }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `step ${i}` }, { type: "tool_use", id: `t${i}`, name: "bash", input: { command: `make ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(size) }] });
  }
  return msgs;
}
const chatHistory = (turns: number): unknown[] => [{ role: "user", content: "Fix it." }, ...Array.from({ length: turns }, (_, i) => [{ role: "assistant", content: `step ${i} ` + "y".repeat(3000) }, { role: "user", content: "go on" }]).flat()];

async function withProxy(o: Parameters<typeof startProxy>[0], f: (p: RunningProxy, logs: string[]) => Promise<void>): Promise<void> {
  const logs: string[] = [];
  const p = await startProxy({ port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1", chatgpt: mock.url }, log: (l) => logs.push(l), ...o });
  try {
    await f(p, logs);
  } finally {
    await p.close();
  }
}
const post = (p: RunningProxy, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(p.url + path, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", ...headers }, body: JSON.stringify(body) });

describe("--strict", () => {
  it("still over the threshold after rung 3: 400 cliff_over_budget in each API's shape, the upstream never asked, logged as refuse", async () => {
    await withProxy({ config: resolveConfig({ thresholdTokens: 1000, keepRecent: 1, strict: true }) }, async (p, logs) => {
      const before = mock.received.length;
      // The newest turn alone is over the threshold: no rung can fit it.
      const big = [...history(6), { role: "assistant", content: "z".repeat(20_000) }, { role: "user", content: "and?" }];
      const a = await post(p, "/v1/messages", { model: "m", messages: big });
      expect(a.status).toBe(400);
      const body = (await a.json()) as { error: { message: string } };
      expect(body).toMatchObject({ type: "error", error: { type: "cliff_over_budget" } });
      expect(body.error.message).toMatch(/over the threshold of 1000/);
      const o = await post(p, "/chat/completions", { model: "m", messages: [{ role: "user", content: "w".repeat(20_000) }, ...chatHistory(3)] }, { authorization: "Bearer sk" });
      expect(o.status).toBe(400);
      expect(((await o.json()) as { error: unknown }).error).toMatchObject({ type: "cliff_over_budget", code: "cliff_over_budget" });
      expect(mock.received.length).toBe(before);
      expect(logs.filter((l) => / refuse .*not sent$/.test(l))).toHaveLength(2);
      expect(p.stats.overBudgetRefusals).toBe(2);
      // What fits after the rungs goes on.
      const ok = await post(p, "/v1/messages", { model: "m", messages: history(8, 800) });
      expect(ok.status).toBe(200);
      expect(mock.received.at(-1)!.body.toString()).toContain(SUMMARY_HEADER);
    });
  });

  it("without --strict the same request goes on, over budget", async () => {
    await withProxy({ config: resolveConfig({ thresholdTokens: 1000, keepRecent: 1 }) }, async (p) => {
      const r = await post(p, "/v1/messages", { model: "m", messages: [...history(6), { role: "assistant", content: "z".repeat(20_000) }, { role: "user", content: "and?" }] });
      expect(r.status).toBe(200);
    });
  });
});

describe("--shadow", () => {
  it("logs, as counts, what it would send and sends the original bytes", async () => {
    await withProxy({ config: resolveConfig({ thresholdTokens: 1000, keepRecent: 1, shadow: true }), logJson: true }, async (p, logs) => {
      const body = JSON.stringify({ model: "m", messages: history(10) });
      const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(r.status).toBe(200);
      expect(mock.received.at(-1)!.body.toString()).toBe(body);
      const line = JSON.parse(logs.at(-1)!);
      expect(line).toMatchObject({ action: "cliff", shadow: true, messagesIn: 21 });
      expect(line.messagesOut).toBeLessThan(21);
      expect(line.tokensOut).toBeLessThan(line.tokensIn);
      expect(p.stats.tokensSaved).toBe(0);
    });
  });
});

describe("--debug-dir", () => {
  it("one JSON file per compactable request: messages in and out, tools as a count, no header", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cliff-debug-"));
    const marker = "sk-ant-MARKER-51f0";
    await withProxy({ config: resolveConfig({ thresholdTokens: 1000, keepRecent: 1 }), debugDir: dir }, async (p) => {
      await post(p, "/v1/messages", { model: "m", max_tokens: 5, tools: [{ name: "a" }, { name: "b" }], messages: history(10) }, { "x-api-key": marker, authorization: `Bearer ${marker}` });
      await post(p, "/v1/messages", { model: "m", messages: history(1) }, { "x-api-key": marker });
      await fetch(p.url + "/v1/models", { headers: { "x-api-key": marker } });
      await new Promise((r) => setTimeout(r, 200));
    });
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    const first = JSON.parse(readFileSync(join(dir, files[0]), "utf8"));
    expect(first).toMatchObject({ api: "anthropic", action: "cliff", fields: { model: "m", max_tokens: 5, tools: { count: 2 } } });
    expect(first.incoming).toHaveLength(21);
    expect(first.outgoing.length).toBeLessThan(21);
    expect(JSON.stringify(first.outgoing)).toContain(SUMMARY_HEADER);
    for (const f of files) {
      expect(readFileSync(join(dir, f), "utf8")).not.toContain(marker);
      expect(statSync(join(dir, f)).mode & 0o077).toBe(0);
    }
  });
});

describe("the threshold as a share of the model's window", () => {
  it("the window table, the 1M beta header, the override and the 128k default", () => {
    expect(windowOf("claude-sonnet-4-5-20250929", {}, undefined)).toMatchObject({ window: 200_000, source: "table" });
    expect(windowOf("claude-sonnet-4-5", { "anthropic-beta": "oauth-2025-04-20,context-1m-2025-08-07" }, undefined)).toMatchObject({ window: 1_000_000, source: "anthropic-beta" });
    expect(windowOf("gpt-5.1-codex", {}, undefined)).toMatchObject({ window: 272_000 });
    expect(windowOf("openai/gpt-4.1-mini", {}, undefined)).toMatchObject({ window: 1_047_576 });
    expect(windowOf("models/gemini-2.5-pro", {}, undefined)).toMatchObject({ window: 1_048_576 });
    expect(windowOf("kimi-k2-0905-preview", {}, undefined)).toMatchObject({ window: 262_144 });
    expect(windowOf("glm-4.6", {}, undefined)).toMatchObject({ window: 200_000 });
    expect(windowOf("deepseek-chat", {}, undefined)).toMatchObject({ window: 131_072 });
    expect(windowOf("mystery-model", {}, undefined)).toMatchObject({ window: DEFAULT_WINDOW, source: "default" });
    expect(windowOf("claude-opus-4-1", {}, 50_000)).toMatchObject({ window: 50_000, source: "context-window" });
  });

  it("each request is decided against its model's share; the status says which window was used", async () => {
    await withProxy({ config: resolveConfig({ keepRecent: 1 }), thresholdShare: 0.02 }, async (p) => {
      const messages = history(10); // about 5,000 estimated tokens
      // 2% of 200k is 4,000: compacted. 2% of 1M is 20,000: not.
      await post(p, "/v1/messages", { model: "claude-sonnet-4-5", messages });
      expect(mock.received.at(-1)!.body.toString()).toContain(SUMMARY_HEADER);
      await post(p, "/v1/messages", { model: "claude-sonnet-4-5", messages }, { "anthropic-beta": "context-1m-2025-08-07" });
      expect(mock.received.at(-1)!.body.toString()).not.toContain(SUMMARY_HEADER);
      await post(p, "/v1/messages", { model: "some-new-model", messages });
      expect(mock.received.at(-1)!.body.toString()).toContain(SUMMARY_HEADER);
      const status = (await (await fetch(p.url + "/_cliff/status")).json()) as Record<string, any>;
      expect(status.thresholdShare).toBe(0.02);
      // A model the table does not know is shown as other: its name is client text.
      expect(status.windows.other).toMatchObject({ window: 128_000, source: "default", thresholdTokens: 2560, reason: "explicit" });
      expect(status.windows["some-new-model"]).toBeUndefined();
      expect(status.windows["claude-sonnet-4-5"]).toMatchObject({ window: 1_000_000, source: "anthropic-beta" });
    });
  });
});

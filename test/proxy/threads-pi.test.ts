/**
 * Real Pi 1.6 (its SDK's agent session, in process) with a gateway model that sets
 * `compat.supportsMessageThreads`, through `serve`, against the upstream that keeps threads and
 * refuses what the API refuses (test/helpers/threads-mock.ts). Pi's own compaction is off: what
 * keeps the context short is the proxy. By default Pi's first request (a thread's create) is
 * declined, Pi resends it whole without `thread` and keeps threads off; every later request carries
 * the whole conversation and each one due is compacted, none is lost, none is sent twice. With
 * --pass-threads Pi's thread reaches the upstream untouched: a create, then continues.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } from "@earendil-works/pi-coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { threadsMock, type ThreadsMock } from "../helpers/threads-mock.js";

const THRESHOLD = 3000;
const CALLS = 14;
let mock: ThreadsMock;
let declining: RunningProxy;
let passing: RunningProxy;
const logs: { declining: string[]; passing: string[] } = { declining: [], passing: [] };
beforeAll(async () => {
  mock = await threadsMock(CALLS);
  const config = resolveConfig({ thresholdTokens: THRESHOLD, minGainTokens: 300, keepRecent: 2 });
  declining = await startProxy({ config, port: 0, upstreams: { anthropic: mock.url }, logJson: true, log: (l) => logs.declining.push(l) });
  passing = await startProxy({ config, port: 0, upstreams: { anthropic: mock.url }, logJson: true, passThreads: true, log: (l) => logs.passing.push(l) });
});
afterAll(async () => {
  await declining.close();
  await passing.close();
  await mock.close();
});

/** One Pi session through `proxy` until the model says it is done; the mock's exchanges and the proxy's records it caused. */
async function piSession(proxy: RunningProxy, log: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "cliff-pi-threads-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "cwd");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const model = { id: "claude-sonnet-4-6", contextWindow: 200_000, maxTokens: 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { gateway: { baseUrl: proxy.url, api: "anthropic-messages", apiKey: "x", compat: { supportsMessageThreads: true }, models: [model] } } }));
  const modelRuntime = await ModelRuntime.create({ authPath: join(dir, "auth.json"), modelsPath: join(agentDir, "models.json"), refreshOnCreate: false });
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: false }, retry: { enabled: false } } as never);
  const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, noExtensions: true, noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true, systemPrompt: "You are a test agent." } as never);
  await resourceLoader.reload();
  // The mock calls `bash`; this one prints what seq would, offline.
  const bash = {
    name: "bash", label: "bash", description: "Run a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    execute: async (_id: string, p: { command: string }) => ({ content: [{ type: "text", text: Array.from({ length: 120 }, (_, i) => `${p.command}: line ${i + 1}`).join("\n") }], details: {} }),
  };
  const { session } = await createAgentSession({ cwd, agentDir, modelRuntime, model: modelRuntime.getModel("gateway", "claude-sonnet-4-6"), thinkingLevel: "off", resourceLoader, settingsManager, sessionManager: SessionManager.inMemory(cwd), customTools: [bash], tools: ["bash"] } as never);
  const from = { exchanges: mock.exchanges.length, log: log.length, requests: proxy.stats.requests };
  try {
    await session.prompt("Print numbers with seq several times, then say ALL DONE.");
  } finally {
    session.dispose();
  }
  const messages = session.messages as { role: string; stopReason?: string; errorMessage?: string }[];
  return { messages, exchanges: mock.exchanges.slice(from.exchanges), records: log.slice(from.log).filter((l) => l.startsWith("{")).map((l) => JSON.parse(l)), requests: proxy.stats.requests - from.requests };
}

describe("real Pi 1.6 with compat.supportsMessageThreads through serve", () => {
  it("declined: one refused create, then the whole conversation every request; each due is compacted, none lost, none sent twice", async () => {
    const r = await piSession(declining, logs.declining);
    const turns = CALLS + 1;
    expect(r.messages.filter((m) => m.role === "assistant" && m.stopReason === "error").map((m) => m.errorMessage)).toEqual([]);
    expect(r.messages.filter((m) => m.role === "assistant")).toHaveLength(turns);
    expect(r.exchanges).toHaveLength(turns);
    expect(r.exchanges.filter((x) => x.thread !== undefined)).toEqual([]);
    expect(r.exchanges.every((x) => x.status === 200)).toBe(true);
    expect(r.requests).toBe(turns + 1);
    expect(r.records[0]).toMatchObject({ action: "thread-declined", thread: "create" });
    const served = r.records.slice(1);
    served.forEach((rec, k) => expect(rec.messagesIn).toBe(2 * k + 1));
    const due = served.filter((rec) => rec.tokensIn > THRESHOLD);
    expect(due.length).toBeGreaterThan(5);
    expect(due.every((rec) => ["cliff", "reuse", "escalate"].includes(rec.action))).toBe(true);
    // The newest tool result reached the model as Pi sent it, every request.
    r.exchanges.forEach((x, k) => {
      const last = x.seen![x.seen!.length - 1];
      expect(last.role).toBe("user");
      if (k > 0) expect(JSON.stringify(last.content)).toContain(`seq 1 ${200 + k}: line 120`);
    });
    console.log(`pi through serve (threads declined): ${r.requests} requests for ${turns} turns, ${due.length} due, ${served.filter((x) => x.action === "cliff").length} cliffs, ${served.filter((x) => x.action === "reuse").length} reuses`);
  });

  it("--pass-threads: Pi's thread reaches the upstream untouched, a create then continues with only the new messages, never cliffed", async () => {
    const cliffs = passing.stats.cliffs;
    const r = await piSession(passing, logs.passing);
    const turns = CALLS + 1;
    expect(r.exchanges.map((x) => x.thread)).toEqual(["create", ...Array(turns - 1).fill("continue")]);
    expect(r.exchanges.every((x) => x.status === 200)).toBe(true);
    r.exchanges.slice(1).forEach((x) => expect(x.body.messages.length).toBeLessThanOrEqual(2));
    r.exchanges.forEach((x, k) => expect(x.seen).toHaveLength(2 * k + 1));
    expect(r.requests).toBe(turns);
    expect(passing.stats.cliffs - cliffs).toBe(0);
    expect(r.records.every((rec) => rec.action === "thread-passed")).toBe(true);
  });
});

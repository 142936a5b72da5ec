/**
 * Pi 1.6's idle cache warming and our answer to `cache_warming_decision`, measured on a simulated
 * idle session: a real Pi agent session (faux model with a 5-minute prompt cache and cache prices),
 * one run, then 31 minutes of idle on fake clocks. Where the next request will be compacted first
 * (the context and a prompt like the last one pass Pi's threshold), Pi alone refreshes the prefix
 * every four and a half minutes and the next request cliffs it anyway; with the extension no
 * refresh is sent. Far from the threshold the extension leaves Pi's decision alone.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxProvider, fauxToolCall } from "@earendil-works/pi-ai";
import { createAgentSession, DefaultResourceLoader, ModelRuntime, SessionManager, SettingsManager } from "@earendil-works/pi-coding-agent";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EXTENSION } from "./harness.js";
import { lastPromptTokens, reserveOf, warmingAction } from "../../pi-extension/warming.js";

const WINDOW = 60_000;
const TASK = `Fix the parser in repo widgets. ${"The parser must keep every token of the input and report the line of each error. ".repeat(80)}`;

afterEach(() => vi.useRealTimers());

/** One run, then `idleMinutes` of idle; `reserveFor` sets Pi's reserve from the context the run left. */
async function idleSession(withExtension: boolean, reserveFor: (tokens: number, prompt: number) => number, idleMinutes = 31) {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ["setTimeout", "clearTimeout", "Date"] });
  const dir = mkdtempSync(join(tmpdir(), "cliff-pi-warm-"));
  const agentDir = join(dir, "agent");
  const cwd = join(dir, "cwd");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  process.env.PI_CLIFF_CONFIG = join(agentDir, "cliffcompaction.json");
  const faux = fauxProvider({ provider: "faux", api: "faux", models: [{ id: "faux-1", contextWindow: WINDOW, maxTokens: 1000, promptCache: { short: 300 }, cost: { input: 10, output: 10, cacheRead: 1, cacheWrite: 100 } } as never] });
  // The faux provider keeps no cache lifetime of its own: the model gets Anthropic's five minutes here.
  Object.assign(faux.getModel(), { promptCache: { short: 300 } });
  const modelRuntime = await ModelRuntime.create({ authPath: join(dir, "auth.json"), modelsPath: null, refreshOnCreate: false });
  modelRuntime.registerNativeProvider(faux.provider);
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: true, reserveTokens: 1000, keepRecentTokens: 50 }, retry: { enabled: false }, cacheWarming: "idle" } as never);
  const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, noExtensions: true, additionalExtensionPaths: withExtension ? [EXTENSION] : [], noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true, systemPrompt: "You are a test agent." } as never);
  await resourceLoader.reload();
  const big = {
    name: "big", label: "big", description: "returns n lines of output",
    parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    execute: async (_id: string, p: { n: number }) => ({ content: [{ type: "text", text: Array.from({ length: p.n }, (_, i) => `line ${i} of output for request ${p.n}`).join("\n") }], details: {} }),
  };
  const { session } = await createAgentSession({ cwd, agentDir, modelRuntime, model: faux.getModel(), thinkingLevel: "off", resourceLoader, settingsManager, sessionManager: SessionManager.inMemory(cwd), customTools: [big], tools: ["big"] } as never);
  await session.bindExtensions({ uiContext: { notify: () => {}, setStatus: () => {} }, mode: "print", onError: () => {} } as never);
  faux.appendResponses([fauxAssistantMessage([fauxToolCall("big", { n: 600 })], { stopReason: "toolUse" }), fauxAssistantMessage([fauxToolCall("big", { n: 601 })], { stopReason: "toolUse" }), fauxAssistantMessage("done")]);
  await session.prompt(TASK);
  const tokens = session.getContextUsage()?.tokens ?? 0;
  settingsManager.applyOverrides({ compaction: { enabled: true, reserveTokens: reserveFor(tokens, lastPromptTokens(session.sessionManager.getBranch() as never)), keepRecentTokens: 50 } } as never);
  faux.appendResponses(Array.from({ length: 12 }, () => fauxAssistantMessage("ok")));
  const before = faux.state.callCount;
  await vi.advanceTimersByTimeAsync(idleMinutes * 60_000);
  const warms = faux.state.callCount - before;
  const status = session.cacheWarmingStatus;
  return { session, faux, warms, tokens, status };
}

describe("Pi 1.6's idle cache warming", () => {
  it("the decision: stop where the context and a prompt like the last pass the threshold, else Pi's own", () => {
    expect(warmingAction({ tokens: 40_000, contextWindow: 60_000, reserveTokens: 18_000, nextPrompt: 2_500 })).toBe("stop");
    expect(warmingAction({ tokens: 40_000, contextWindow: 60_000, reserveTokens: 10_000, nextPrompt: 2_500 })).toBeUndefined();
    expect(warmingAction({ tokens: null, contextWindow: 60_000, reserveTokens: 10_000, nextPrompt: 0 })).toBeUndefined();
    expect(reserveOf({ compaction: { reserveTokens: 9000, modelOverrides: { "faux/faux-1": { reserveTokens: 400 } } } }, { provider: "faux", id: "faux-1" })).toBe(400);
    expect(reserveOf({}, undefined)).toBe(16_384);
  });

  it("a simulated idle session whose next request is cliffed: Pi alone refreshes it for nothing, with the extension nothing is sent, and the next request is cliffed", async () => {
    const near = (tokens: number, prompt: number) => WINDOW - tokens - Math.floor(prompt / 2);
    const alone = await idleSession(false, near);
    alone.session.dispose();
    vi.useRealTimers();
    const ours = await idleSession(true, near);
    console.log(`idle 31 min, next request cliffed: Pi alone ${alone.warms} refreshes of a ${alone.tokens}-token prefix, with the extension ${ours.warms} (${ours.status?.reason ?? ours.status?.state})`);
    expect(alone.warms).toBeGreaterThanOrEqual(5);
    expect(ours.warms).toBe(0);
    expect(ours.status?.reason).toBe("stopped by extension");
    vi.useRealTimers();
    ours.faux.appendResponses([fauxAssistantMessage("done again")]);
    await ours.session.prompt(`Go on. ${TASK}`);
    const compaction = (ours.session.sessionManager.getBranch() as any[]).find((e) => e.type === "compaction");
    expect(compaction?.details?.method).toBe("cliffcompaction");
    ours.session.dispose();
  }, 120_000);

  it("far from the threshold the extension leaves Pi's warming as it is", async () => {
    const far = () => 1000;
    const alone = await idleSession(false, far, 15);
    alone.session.dispose();
    vi.useRealTimers();
    const ours = await idleSession(true, far, 15);
    ours.session.dispose();
    expect(alone.warms).toBeGreaterThanOrEqual(3);
    expect(ours.warms).toBe(alone.warms);
  }, 120_000);
});

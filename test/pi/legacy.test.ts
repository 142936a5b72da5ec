/**
 * The same extension file in the old Pi (0.73.1, the last `@mariozechner` release): its
 * session_before_compact event has no `reason`, and `pi.on` returns nothing.
 */
import { expect, it } from "vitest";
import { join } from "node:path";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@mariozechner/pi-ai";
import { AuthStorage, createAgentSession, DefaultResourceLoader, ModelRegistry, SessionManager, SettingsManager } from "@mariozechner/pi-coding-agent";
import { SUMMARY_HEADER } from "../../core/index.js";
import { EXTENSION, piDirs } from "./harness.js";

it("Pi 0.73: loads, compacts without a model call, and reports the fallback reason", async () => {
  const { agentDir, cwd } = piDirs("cliff-legacy-");
  process.env.PI_CLIFF_CONFIG = join(agentDir, "cliffcompaction.json");
  const faux = registerFauxProvider({ provider: "faux-legacy", api: "faux-legacy", models: [{ id: "faux-1", contextWindow: 200_000, maxTokens: 1000 }] });
  const authStorage = AuthStorage.inMemory();
  authStorage.setRuntimeApiKey("faux-legacy", "none");
  const modelRegistry = ModelRegistry.inMemory(authStorage);
  const settingsManager = SettingsManager.inMemory({ compaction: { enabled: true, reserveTokens: 16_384, keepRecentTokens: 50 }, retry: { enabled: false } } as never);
  const resourceLoader = new DefaultResourceLoader({ cwd, agentDir, settingsManager, noExtensions: true, additionalExtensionPaths: [EXTENSION], noSkills: true, noPromptTemplates: true, noThemes: true, noContextFiles: true, systemPrompt: "You are a test agent." } as never);
  await resourceLoader.reload();
  expect(resourceLoader.getExtensions().errors).toEqual([]);
  const big = {
    name: "big", label: "big", description: "n lines", parameters: { type: "object", properties: { n: { type: "number" } } },
    execute: async (_id: string, p: { n: number }) => ({ content: [{ type: "text", text: Array.from({ length: p.n }, (_, i) => `line ${i} of ${p.n}`).join("\n") }], details: {} }),
  };
  const { session } = await createAgentSession({ cwd, agentDir, authStorage, modelRegistry, model: faux.getModel(), thinkingLevel: "off", resourceLoader, settingsManager, sessionManager: SessionManager.inMemory(cwd), customTools: [big], tools: ["big"] } as never);
  const errors: unknown[] = [];
  await session.bindExtensions({ uiContext: { notify: () => {}, setStatus: () => {}, select: async () => undefined, confirm: async () => false, input: async () => undefined, setWidget: () => {}, setFooter: () => {}, setHeader: () => {}, setTitle: () => {}, custom: async () => undefined, editor: async () => undefined, setEditorText: () => {}, getEditorText: () => "" }, mode: "print", onError: (e: unknown) => errors.push(e) } as never);
  for (const [prompt, n] of [["TASK-LEGACY: tidy up", 60], ["two", 3], ["three", 4], ["four", 5]] as const) {
    faux.appendResponses([fauxAssistantMessage([fauxToolCall("big", { n })], { stopReason: "toolUse" }), fauxAssistantMessage(`${prompt} done`)]);
    await session.prompt(prompt);
  }
  const calls = faux.state.callCount;
  const result = await session.compact();
  expect(faux.state.callCount).toBe(calls);
  expect(result.summary.startsWith(`${SUMMARY_HEADER}\n\nuser: TASK-LEGACY: tidy up`)).toBe(true);
  const entry = [...(session.sessionManager.getBranch() as any[])].reverse().find((e) => e.type === "compaction");
  expect(entry.fromHook).toBe(true);
  expect(entry.details).toMatchObject({ method: "cliffcompaction", reason: "manual" });
  expect(errors).toEqual([]);
  session.dispose();
  faux.unregister();
});

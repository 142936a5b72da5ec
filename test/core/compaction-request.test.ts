/**
 * A request that asks for a compaction (core/dialects/compaction-request.ts) is recognised from its
 * body, and the engine never cliffs it: not proactively, not after an idle gap, not reactively. The
 * same history without the ask cliffs, so each case could fail.
 */
import { describe, expect, it } from "vitest";
import { compactionRequestOf, Engine } from "../../core/index.js";
import { aSession } from "../helpers/sessions.js";
import {
  anthropicCompactionRequest, claudeCodeFramed, claudeCodeSummaryRequest, CLAUDE_CODE_INSTRUCTION, codexCompactionTurn, CODEX_INSTRUCTION, compactionTriggerRequest, responsesHistory,
} from "../helpers/compaction-requests.js";

const CFG = { keepRecent: 1, thresholdTokens: 2000 };

describe("recognised from the body", () => {
  it("Claude Code's summary request: its instruction is the last text block of the last user message, after the tool results", () => {
    const body = claudeCodeSummaryRequest(8);
    const messages = body.messages as unknown[];
    expect(compactionRequestOf(body, "anthropic")).toEqual({ by: "claude-code", asks: "client", instruction: { message: messages.length - 1, block: 1 } });
  });

  it("Claude Code's instruction as a whole string message, and after a trailing mid-conversation system message", () => {
    const messages = [...aSession(4), { role: "user", content: CLAUDE_CODE_INSTRUCTION }];
    expect(compactionRequestOf({ messages }, "anthropic")?.instruction).toEqual({ message: messages.length - 1, block: null });
    const withSystem = [...messages, { role: "system", content: [{ type: "text", text: "deferred tools are now available" }] }];
    expect(compactionRequestOf({ messages: withSystem }, "anthropic")?.by).toBe("claude-code");
  });

  it("the partial compaction prompt (the RECENT portion) is one too", () => {
    const messages = [...aSession(2), { role: "user", content: claudeCodeFramed("Your task is to create a detailed summary of the RECENT portion of the conversation — the messages that follow earlier retained context.", "a <summary> block") }];
    expect(compactionRequestOf({ messages }, "anthropic")?.by).toBe("claude-code");
  });

  it("the instruction quoted earlier in the history, or by the assistant, is not a summary request", () => {
    const quoted = [{ role: "user", content: CLAUDE_CODE_INSTRUCTION }, ...aSession(3).slice(1)];
    expect(compactionRequestOf({ messages: quoted }, "anthropic")).toBeNull();
    const byAssistant = [...aSession(2), { role: "assistant", content: [{ type: "text", text: CLAUDE_CODE_INSTRUCTION }] }];
    expect(compactionRequestOf({ messages: byAssistant }, "anthropic")).toBeNull();
    expect(compactionRequestOf({ messages: aSession(6) }, "anthropic")).toBeNull();
  });

  it("Anthropic's top-level compaction field asks the provider", () => {
    expect(compactionRequestOf(anthropicCompactionRequest(3), "anthropic")).toEqual({ by: "anthropic-compaction", asks: "provider", instruction: null });
    expect(compactionRequestOf({ ...anthropicCompactionRequest(3), compaction: null }, "anthropic")).toBeNull();
  });

  it("a Responses input ending in compaction_trigger asks the provider; one earlier in the input does not", () => {
    const body = compactionTriggerRequest(4);
    const input = body.input as unknown[];
    expect(compactionRequestOf(body, "openai-responses")).toEqual({ by: "compaction-trigger", asks: "provider", instruction: { message: input.length - 1, block: null } });
    expect(compactionRequestOf({ input: [...input, { type: "compaction", encrypted_content: "x" }, ...responsesHistory(1).slice(1)] }, "openai-responses")).toBeNull();
  });

  it("Codex's checkpoint prompt as its last input item", () => {
    const body = codexCompactionTurn(4);
    expect(compactionRequestOf(body, "openai-responses")).toEqual({ by: "codex", asks: "client", instruction: { message: (body.input as unknown[]).length - 1, block: null } });
    expect(compactionRequestOf({ input: [...responsesHistory(2), { role: "user", content: CODEX_INSTRUCTION }] }, "openai-responses")?.by).toBe("codex");
  });

  it("other dialects and bodies that are not objects ask for none", () => {
    expect(compactionRequestOf({ messages: [{ role: "user", content: CLAUDE_CODE_INSTRUCTION }] }, "openai-chat")).toBeNull();
    for (const b of [null, 3, "x", [], { messages: 5 }, { input: {} }]) {
      expect(compactionRequestOf(b, "anthropic")).toBeNull();
      expect(compactionRequestOf(b, "openai-responses")).toBeNull();
    }
  });
});

describe("never cliffed", () => {
  const cases: [string, Record<string, unknown>, "anthropic" | "openai-responses", Record<string, unknown>][] = [
    ["Claude Code's summary request", claudeCodeSummaryRequest(12), "anthropic", { model: "m", messages: aSession(12) }],
    ["Anthropic's compaction field", anthropicCompactionRequest(12), "anthropic", { model: "m", messages: aSession(12) }],
    ["Codex's compaction turn", codexCompactionTurn(12), "openai-responses", { model: "m", input: responsesHistory(12) }],
    ["a compaction_trigger", compactionTriggerRequest(12), "openai-responses", { model: "m", input: responsesHistory(12) }],
  ];
  for (const [name, body, dialect, control] of cases) {
    it(`${name}: over the threshold it goes as it came (the same history without the ask cliffs)`, () => {
      const engine = new Engine(CFG);
      expect(engine.prepare(control, dialect).compacted).toBe(true);
      const p = engine.prepare(body, dialect);
      expect(p.compactionRequest).not.toBeNull();
      expect(p.estTokensIn).toBeGreaterThan(CFG.thresholdTokens);
      expect(p.modified).toBe(false);
      expect(p.substituted).toBe(p.messages);
      expect(p.outgoingBody()).toBe(body);
      expect(engine.verdict(p)).toBe("pass");
      // Not after a context-length refusal either: a compaction of a compaction.
      expect(engine.reactive(p)).toBe(false);
      expect(p.modified).toBe(false);
      // Nor after an idle gap, nor with the session's cliffs kept.
      expect(engine.prepare(body, dialect, { idleFloorTokens: 10, keepCliffs: true }).modified).toBe(false);
    });
  }

  it("a host that recognised one by what the body does not show (a header) passes it as compactionRequest", () => {
    const engine = new Engine(CFG);
    const body = { model: "m", input: responsesHistory(12) };
    const p = engine.prepare(body, "openai-responses", { compactionRequest: { by: "codex", asks: "client", instruction: null } });
    expect(p.modified).toBe(false);
    expect(p.compactionRequest?.by).toBe("codex");
    expect(engine.prepare(body, "openai-responses").compactionRequest).toBeNull();
  });
});

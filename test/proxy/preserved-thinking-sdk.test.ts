/**
 * Preserved thinking against the installed Anthropic SDK: the `thinking` object the proxy writes
 * and the beta it merges are the SDK's own types (this file does not compile otherwise), and the
 * SDK's beta client driving a thinking session through the proxy to the prefix-checking mock gets
 * every answer, with the dropped blocks reported in `input_transformations` where a cliff is sent.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { AnthropicBeta } from "@anthropic-ai/sdk/resources/beta/beta";
import type { BetaContentBlockParam, BetaMessageParam, BetaThinkingConfigParam, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { THINKING_BINDING_BETA, thinkingPlan } from "../../proxy/decision/index.js";
import { preservedThinkingMock, type PreservedThinkingMock } from "../helpers/preserved-thinking.js";

let mock: PreservedThinkingMock;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await preservedThinkingMock();
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 2500, minGainTokens: 250, keepRecent: 2 }), port: 0, upstreams: { anthropic: mock.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

describe("preserved thinking and the SDK's types", () => {
  it("the thinking object the proxy writes is the SDK's BetaThinkingConfigParam, and its beta an AnthropicBeta", () => {
    for (const thinking of [{ type: "adaptive", display: "summarized" }, { type: "enabled", budget_tokens: 2048 }]) {
      const plan = thinkingPlan({ model: "claude-opus-5-5", thinking }, true);
      if (plan.kind !== "bind") throw new Error("expected a binding");
      const typed: BetaThinkingConfigParam = plan.thinking;
      const beta: AnthropicBeta = THINKING_BINDING_BETA;
      const params: MessageCreateParamsNonStreaming = { model: "claude-opus-5-5", max_tokens: 4096, messages: [{ role: "user", content: "hi" }], thinking: plan.thinking, betas: [beta] };
      expect(params.thinking).toEqual({ ...thinking, block_binding: { prefix_mismatch_behavior: "drop_block" } });
      expect(typed.type).toBe(thinking.type);
    }
  });

  it("the SDK's beta client, through the proxy, over several cliffs: every request answered, drops reported only where a summary is sent", async () => {
    const client = new Anthropic({ apiKey: "k", baseURL: proxy.url, maxRetries: 0 });
    const messages: BetaMessageParam[] = [{ role: "user", content: "Fix the parser in repo widgets." }];
    const from = mock.exchanges.length;
    let reported = 0;
    for (let k = 0; k < 24; k++) {
      const answer = await client.beta.messages.create({ model: "claude-fable-5-1", max_tokens: 8000, thinking: { type: "adaptive" }, messages, betas: ["interleaved-thinking-2025-05-14"] });
      const sent = mock.exchanges[mock.exchanges.length - 1];
      const dropped = (answer.input_transformations ?? []).filter((t) => t.type === "thinking_dropped");
      expect(dropped.map((t) => t.path)).toEqual(sent.dropped);
      reported += dropped.length;
      messages.push({ role: "assistant", content: answer.content as BetaContentBlockParam[] });
      const call = answer.content.find((b) => b.type === "tool_use");
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call?.type === "tool_use" ? call.id : "x", content: "build output line\n".repeat(60) }] });
    }
    const got = mock.exchanges.slice(from);
    expect(got.every((x) => x.status === 200)).toBe(true);
    expect(got.filter((x) => x.raw.includes("drop_block")).length).toBeGreaterThanOrEqual(3);
    expect(reported).toBeGreaterThan(0);
    for (const x of got) if (!x.raw.includes("drop_block")) expect(x.dropped).toEqual([]);
  });
});

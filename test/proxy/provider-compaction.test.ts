/**
 * The providers' own compaction and context editing through a cliff, via `serve`. Anthropic: a
 * session that goes on after the provider compacted (its `compaction` block sent back first in
 * `messages`, signed), with preserved thinking and Claude Code's `context_management` edits
 * (`clear_thinking_20251015`, `clear_tool_uses_20250919` with `exclude_tools`), against the mock
 * that runs the prefix check of thinking blocks; every request the upstream received is checked
 * against the documented rules the edits and the block bring. Responses: a history holding a
 * `compaction` item, against a mock that records it. What the upstream received is asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER, type Config } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { assistantOf, preservedThinkingMock, type Exchange, type PreservedThinkingMock } from "../helpers/preserved-thinking.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { CODEX_TOOLS, responsesHistory } from "../helpers/compaction-requests.js";

type Obj = Record<string, any>;
const CFG: Partial<Config> = { thresholdTokens: 3000, minGainTokens: 300, keepRecent: 2 };
const SECRET = "PROVIDER-SUMMARY-5d2a: the user wants the parser fixed; tests in tests/parser.";
const TOOLS = [{ name: "Bash", description: "Runs a command.", input_schema: { type: "object", properties: { command: { type: "string" } } } }];
const EDITS = { edits: [{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 2 } }, { type: "clear_tool_uses_20250919", exclude_tools: ["Bash"], keep: { type: "tool_uses", value: 3 } }] };
/** The provider's compaction block as its answer carries it, sent back first in `messages` (beta compact-2026-09-04). */
const COMPACTION = { role: "assistant", content: [{ type: "compaction", content: SECRET, encrypted_content: "opaque-meta-1", signature: "sig-compaction-1" }] };

let thinking: PreservedThinkingMock;
let plain: MockUpstream;
beforeAll(async () => {
  thinking = await preservedThinkingMock();
  plain = await mockUpstream();
});
afterAll(async () => {
  await thinking.close();
  await plain.close();
});

const isThinking = (b: unknown): boolean => (b as Obj)?.type === "thinking" || (b as Obj)?.type === "redacted_thinking";

/** The documented rules a body breaks, given what the client sent (empty when it keeps them all). */
function anthropicViolations(received: Obj, client: Obj): string[] {
  const out: string[] = [];
  const msgs: Obj[] = received.messages;
  // The compaction block goes back verbatim (content, metadata, signature) and first.
  if (JSON.stringify(msgs[0]) !== JSON.stringify(client.messages[0])) out.push("the compaction block is not first, or was changed");
  if (msgs.slice(1).some((m) => JSON.stringify(m).includes(SECRET))) out.push("the compaction's summary is quoted elsewhere");
  // Context edits pass through as sent.
  if (JSON.stringify(received.context_management) !== JSON.stringify(client.context_management)) out.push("context_management changed");
  const declared = new Set((received.tools ?? []).map((t: Obj) => t.name));
  for (const e of received.context_management?.edits ?? []) for (const name of e.exclude_tools ?? []) if (!declared.has(name)) out.push(`exclude_tools names ${name}, not declared`);
  // clear_thinking needs thinking on.
  if ((received.context_management?.edits ?? []).some((e: Obj) => e.type === "clear_thinking_20251015") && !["enabled", "adaptive"].includes(received.thinking?.type)) out.push("clear_thinking without thinking");
  // The latest assistant message's thinking blocks cannot be modified.
  const lastOf = (list: Obj[]): Obj | undefined => [...list].reverse().find((m) => m.role === "assistant");
  const sentThinking = JSON.stringify((lastOf(client.messages)?.content ?? []).filter(isThinking));
  if (JSON.stringify((lastOf(msgs)?.content ?? []).filter(isThinking)) !== sentThinking) out.push("the latest assistant message's thinking changed");
  // The newest messages are the client's own, as it sent them.
  if (JSON.stringify(msgs.slice(-2)) !== JSON.stringify(client.messages.slice(-2))) out.push("the newest messages are not the client's");
  // Each tool_result answers a tool_use of the message before it.
  msgs.forEach((m, i) => {
    const uses = new Set((Array.isArray(msgs[i - 1]?.content) ? msgs[i - 1].content : []).filter((b: Obj) => b.type === "tool_use").map((b: Obj) => b.id));
    for (const b of Array.isArray(m.content) ? m.content : []) if (b.type === "tool_result" && !uses.has(b.tool_use_id)) out.push(`messages.${i}: tool_result ${b.tool_use_id} without its tool_use`);
  });
  return out;
}

/** A Claude Code-like session that resumed after the provider compacted: the block first, then the mock's turns and large results. */
async function resumedSession(p: RunningProxy, requests: number): Promise<{ sent: Obj[]; statuses: number[] }> {
  const history: Obj[] = [COMPACTION, { role: "user", content: [{ type: "text", text: "Go on with the parser." }] }];
  const sent: Obj[] = [];
  const statuses: number[] = [];
  for (let k = 0; k < requests; k++) {
    const body = { model: "claude-fable-5-1", max_tokens: 32000, system: "You are Claude Code.", tools: TOOLS, thinking: { type: "adaptive" }, context_management: EDITS, messages: history, stream: true };
    sent.push(JSON.parse(JSON.stringify(body)));
    const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-beta": "compact-2026-09-04,context-management-2025-06-27", "x-claude-code-session-id": "pc" }, body: JSON.stringify(body) });
    const answer = await r.text();
    statuses.push(r.status);
    if (r.status !== 200) break;
    const turn = assistantOf(answer);
    history.push(turn);
    const call = turn.content.find((b) => (b as Obj).type === "tool_use") as Obj | undefined;
    history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: call?.id ?? "none", content: `output ${k}\n` + "log line of the build output\n".repeat(40) }] });
  }
  return { sent, statuses };
}

describe("Anthropic: a provider compaction block, preserved thinking and context edits through cliffs", () => {
  it("every request is accepted and keeps the rules; the block stays first and whole, never summarised", async () => {
    const p = await startProxy({ config: resolveConfig(CFG), port: 0, upstreams: { anthropic: thinking.url, openai: thinking.url + "/v1" }, log: () => undefined });
    const from = thinking.exchanges.length;
    const { sent, statuses } = await resumedSession(p, 24);
    await p.close();
    const got: Exchange[] = thinking.exchanges.slice(from);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(got.length).toBe(sent.length);
    const cliffed = got.filter((x) => x.raw.includes(SUMMARY_HEADER));
    expect(cliffed.length).toBeGreaterThan(5);
    got.forEach((x, k) => expect(anthropicViolations(x.body, sent[k]), `request ${k}`).toEqual([]));
    for (const x of cliffed) {
      const msgs = x.body.messages as Obj[];
      const at = msgs.findIndex((m) => JSON.stringify(m).includes(SUMMARY_HEADER));
      // The head is the compaction's turn: the block and the user message after it, then our summary.
      expect(at).toBe(2);
      expect(msgs[1]).toEqual(sent[0].messages[1]);
      // Only the kept turns' blocks, whose prefix the cliff changed, are dropped: none before the summary.
      expect(x.dropped.every((path) => Number(path.split(".")[1]) > at)).toBe(true);
    }
  });

  it("the mock holds the rules: a cliff that moved the block or changed the edits would be caught", () => {
    const client = { messages: [COMPACTION, { role: "user", content: "x" }], context_management: EDITS, tools: TOOLS, thinking: { type: "adaptive" } };
    expect(anthropicViolations(client, client)).toEqual([]);
    expect(anthropicViolations({ ...client, messages: [client.messages[1], { role: "user", content: SUMMARY_HEADER + SECRET }] }, client)).toEqual([
      "the compaction block is not first, or was changed", "the compaction's summary is quoted elsewhere", "the newest messages are not the client's",
    ]);
    expect(anthropicViolations({ ...client, tools: [] }, client)).toEqual(["exclude_tools names Bash, not declared"]);
    expect(anthropicViolations({ ...client, thinking: undefined }, client)).toEqual(["clear_thinking without thinking"]);
  });
});

describe("Responses: a compaction item in the history through cliffs", () => {
  it("the item and everything before it arrive as sent; calls keep their outputs; the item is never quoted", async () => {
    const p = await startProxy({ config: resolveConfig({ thresholdTokens: 2000, keepRecent: 1 }), port: 0, upstreams: { anthropic: plain.url, openai: plain.url + "/v1" }, log: () => undefined });
    const item = { type: "compaction", id: "cmp_1", encrypted_content: "ENCRYPTED-" + SECRET };
    const after = responsesHistory(14).slice(1);
    const before = [{ type: "message", role: "user", content: [{ type: "input_text", text: "Fix the failing test in repo X." }] }, item, { type: "message", role: "user", content: [{ type: "input_text", text: "go on" }] }];
    const from = plain.received.length;
    for (let n = 2; n <= after.length; n += 2) {
      const r = await fetch(p.url + "/v1/responses", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify({ model: "gpt-5.6-sol", tools: CODEX_TOOLS, input: [...before, ...after.slice(0, n)] }) });
      expect(r.status).toBe(200);
      await r.text();
    }
    await p.close();
    const got = plain.received.slice(from).map((x) => JSON.parse(x.body.toString("utf8")) as Obj);
    const cliffed = got.filter((b) => JSON.stringify(b).includes(SUMMARY_HEADER));
    expect(cliffed.length).toBeGreaterThan(3);
    for (const b of got) {
      const input = b.input as Obj[];
      expect(input.slice(0, 3)).toEqual(before);
      expect(input.slice(3).some((x) => JSON.stringify(x).includes(SECRET))).toBe(false);
      const calls = new Set(input.filter((x) => x.type === "function_call").map((x) => x.call_id));
      const outputs = input.filter((x) => x.type === "function_call_output").map((x) => x.call_id);
      expect(outputs.filter((id) => !calls.has(id))).toEqual([]);
    }
    for (const b of cliffed) expect(JSON.stringify(b.input[3])).toContain(SUMMARY_HEADER);
  });
});

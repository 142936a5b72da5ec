/**
 * OMP's server-side compaction through `serve`. Since 18.1.18 OMP's default on first-party Claude
 * models is Anthropic's summary (beta `compact-2026-01-12`): its requests carry a `compact_20260112`
 * edit beside `clear_thinking_20251015` in `context_management`, and after the provider compacted,
 * the history opens with the assistant message whose `compaction` block holds that summary (its
 * `encrypted_content` opaque, round-tripped verbatim; the API drops what precedes it). A cliff must
 * leave all of that as OMP sent it: the block first and unchanged, the edits and the beta intact,
 * and the newest messages OMP's own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

type Obj = Record<string, any>;
const SECRET = "OMP-SERVER-SUMMARY-7c1e: the user wants the lexer's error lines fixed; tests in tests/lexer.";
const COMPACTION = { role: "assistant", content: [{ type: "compaction", content: SECRET, encrypted_content: "opaque-state-01" }] };
const EDITS = { edits: [{ type: "clear_thinking_20251015", keep: "all" }, { type: "compact_20260112", trigger: { type: "input_tokens", value: 150_000 } }] };
const BETA = "compact-2026-01-12,interleaved-thinking-2025-05-14";
const TOOLS = [{ name: "bash", description: "Runs a command.", input_schema: { type: "object", properties: { command: { type: "string" } } } }];

let mock: MockUpstream;
let proxy: RunningProxy;
beforeAll(async () => {
  mock = await mockUpstream();
  proxy = await startProxy({ config: resolveConfig({ thresholdTokens: 3000, minGainTokens: 300, keepRecent: 2 }), port: 0, upstreams: { anthropic: mock.url }, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

describe("OMP's server-side compaction (compact-2026-01-12) through serve", () => {
  it("the compaction block stays first and verbatim, the edits and the beta pass intact, across cliffs", async () => {
    const history: Obj[] = [COMPACTION, { role: "user", content: [{ type: "text", text: "Go on with the lexer." }] }];
    const problems: string[] = [];
    let cliffed = 0;
    for (let k = 0; k < 16; k++) {
      const body = { model: "claude-sonnet-4-6", max_tokens: 8000, system: [{ type: "text", text: "You are OMP." }], tools: TOOLS, thinking: { type: "adaptive" }, context_management: EDITS, messages: history };
      const from = mock.received.length;
      const r = await fetch(`${proxy.url}/v1/messages`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01", "anthropic-beta": BETA }, body: JSON.stringify(body) });
      expect(r.status).toBe(200);
      await r.text();
      const got = mock.received[from];
      const sent = JSON.parse(got.body.toString("utf8")) as Obj;
      if (got.headers["anthropic-beta"] !== BETA) problems.push(`${k}: the beta header changed`);
      if (JSON.stringify(sent.context_management) !== JSON.stringify(EDITS)) problems.push(`${k}: context_management changed`);
      if (JSON.stringify(sent.messages[0]) !== JSON.stringify(COMPACTION)) problems.push(`${k}: the compaction block is not first as sent`);
      if (sent.messages.slice(1).some((m: Obj) => JSON.stringify(m).includes(SECRET))) problems.push(`${k}: the provider's summary is quoted elsewhere`);
      if (JSON.stringify(sent.messages.slice(-2)) !== JSON.stringify(history.slice(-2))) problems.push(`${k}: the newest messages are not OMP's`);
      if (JSON.stringify(sent).includes(SUMMARY_HEADER)) cliffed++;
      const id = `toolu_${k}`;
      history.push({ role: "assistant", content: [{ type: "text", text: `Step ${k}.` }, { type: "tool_use", id, name: "bash", input: { command: `cat src/lexer${k}.ts` } }] });
      history.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: Array.from({ length: 120 }, (_, i) => `src/lexer${k}.ts:${i}: token ${i}`).join("\n") }] });
    }
    expect(problems).toEqual([]);
    expect(cliffed).toBeGreaterThanOrEqual(5);
  });
});

/**
 * Reliability, round three: the proxy's reading of an upstream refusal (item 8). Anthropic refuses
 * a body over its byte limit with 413 `request_too_large`; a smaller body answers it, so the proxy
 * takes a rung and retries, as it does for "prompt is too long".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipSync } from "node:zlib";
import { resolveConfig, SUMMARY_HEADER } from "../../../core/index.js";
import { startProxy } from "../../../proxy/index.js";
import { isContextError } from "../../../proxy/decision/reactive.js";
import { mockUpstream, type MockUpstream } from "../../helpers/mock-upstream.js";

const TOO_LARGE = JSON.stringify({ type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes" } });

function session(turns: number): unknown[] {
  const msgs: unknown[] = [{ role: "user", content: "Fix the failing build in repo widgets." }];
  for (let i = 0; i < turns; i++) {
    msgs.push({ role: "assistant", content: [{ type: "text", text: `Step ${i}: running the tests.` }, { type: "tool_use", id: `toolu_${i}`, name: "bash", input: { command: `npm test -- ${i}` } }] });
    msgs.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: i % 2 ? `ok ${i}` : `FAIL ${i}\n`.repeat(120) }] });
  }
  return msgs;
}

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

describe("round three: a 413 is a refusal a rung answers", () => {
  it("8. Anthropic's request_too_large, plain or compressed, and any 413, read as a context refusal; other errors are not", () => {
    expect(isContextError(413, Buffer.from(TOO_LARGE), undefined)).toBe(true);
    expect(isContextError(413, gzipSync(Buffer.from(TOO_LARGE)), "gzip")).toBe(true);
    expect(isContextError(413, Buffer.from("<html>413 Request Entity Too Large</html>"), undefined)).toBe(true);
    expect(isContextError(400, Buffer.from('{"error":{"message":"bad model"}}'), undefined)).toBe(false);
    expect(isContextError(429, Buffer.from(TOO_LARGE), undefined)).toBe(false);
  });

  it("8. through the proxy: the 413 is answered by one more rung and a retry that fits", async () => {
    const p = await startProxy({ config: resolveConfig({ thresholdTokens: 100_000, keepRecent: 1 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url } });
    const limit = 4000;
    mock.override = (r) => (r.body.length > limit ? { status: 413, headers: { "content-type": "application/json" }, body: TOO_LARGE } : undefined);
    try {
      const before = mock.received.length;
      const res = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify({ model: "m", max_tokens: 64, messages: session(12) }) });
      expect(res.status).toBe(200);
      const seen = mock.received.slice(before);
      expect(seen).toHaveLength(2);
      expect(seen[1].body.length).toBeLessThanOrEqual(limit);
      expect(seen[1].body.toString()).toContain(SUMMARY_HEADER);
      expect(p.stats.escalations).toBe(1);
    } finally {
      mock.override = undefined;
      await p.close();
    }
  });
});

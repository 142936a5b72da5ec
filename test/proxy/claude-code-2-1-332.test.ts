/**
 * Claude Code 2.1.332 behind the proxy, from a request it really sent (test/fixtures/claude-2.1.332,
 * captured by test/agents/capture-transcript.ts): its preconnect (`HEAD /api/hello`; 2.1.185 sent
 * `HEAD /`) is answered; its mid-conversation system message and a ToolSearch result that loads
 * deferred tools survive a cliff where they stood, against an upstream that refuses what the
 * Messages API refuses (a tool_result without its tool_use just before, a system message not after
 * a user message or not before an assistant message, a deferred tool called before a tool_reference
 * loaded it).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig, SUMMARY_HEADER } from "../../core/index.js";
import { startProxy, type RunningProxy } from "../../proxy/index.js";
import { keptFromSpan } from "../../proxy/decision/kept-in-place.js";
import { mockUpstream, type Answer, type MockUpstream, type Received } from "../helpers/mock-upstream.js";

const CAPTURED = JSON.parse(readFileSync(new URL("../fixtures/claude-2.1.332/request.json", import.meta.url), "utf8"));
const BODY = CAPTURED.body;
const HEADERS: Record<string, string> = { ...CAPTURED.headers, "x-api-key": "sk-ant-test", "x-claude-code-session-id": "cc-332" };
delete HEADERS["accept-encoding"];

/** What the Messages API refuses in a list, as a message; null when the list is valid. */
export function messagesProblem(body: any): string | null {
  const deferred = new Set((body.tools ?? []).filter((t: any) => t.defer_loading === true).map((t: any) => t.name));
  const loaded = new Set<string>();
  const msgs: any[] = body.messages;
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    const blocks: any[] = Array.isArray(m.content) ? m.content : [];
    if (m.role === "system") {
      if (msgs[i - 1]?.role !== "user") return `messages.${i}: a system message must follow a user message`;
      if (i + 1 < msgs.length && msgs[i + 1].role !== "assistant") return `messages.${i}: a system message may only precede an assistant message`;
    }
    if (m.role === "user") {
      const prev = msgs[i - 1];
      const ids = new Set((Array.isArray(prev?.content) ? prev.content : []).filter((b: any) => b.type === "tool_use").map((b: any) => b.id));
      for (const b of blocks.filter((x) => x.type === "tool_result")) {
        if (prev?.role !== "assistant" || !ids.has(b.tool_use_id)) return `messages.${i}: tool_result ${b.tool_use_id} has no tool_use in the previous message`;
        for (const r of Array.isArray(b.content) ? b.content : []) if (r.type === "tool_reference") loaded.add(r.tool_name);
      }
    }
    if (m.role === "assistant") {
      for (const b of blocks.filter((x) => x.type === "tool_use")) if (deferred.has(b.name) && !loaded.has(b.name)) return `messages.${i}: tool ${b.name} is deferred and was not loaded`;
    }
  }
  return null;
}

/** The captured session grown to `turns` shell turns, with a ToolSearch that loads WebFetch at turn 2 and a WebFetch call in the last turn. */
function grown(turns: number): any {
  const [task, system] = BODY.messages;
  const messages: any[] = [task, system];
  for (let t = 0; t < turns; t++) {
    const id = `toolu_g${t}`;
    if (t === 2) {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id: "toolu_search", name: "ToolSearch", input: { query: "select:WebFetch" } }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_search", content: [{ type: "tool_reference", tool_name: "WebFetch" }] }] });
    }
    if (t === 4) messages.push({ role: "system", content: "From here on, answer in French." });
    if (t === turns - 1) {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: "WebFetch", input: { url: "https://example.com", prompt: "title" } }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "Example Domain" }] });
    } else {
      messages.push({ role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: `seq 1 ${400 + t}`, description: "print numbers" } }] });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: Array.from({ length: 400 + t }, (_, i) => String(i + 1)).join("\n"), is_error: false }] });
    }
  }
  const tools = [...BODY.tools, { name: "WebFetch", description: "fetch", input_schema: { type: "object", properties: { url: { type: "string" }, prompt: { type: "string" } } }, defer_loading: true }];
  return { ...BODY, tools, messages, stream: false };
}

let mock: MockUpstream;
let proxy: RunningProxy;
const refusals: string[] = [];
beforeAll(async () => {
  mock = await mockUpstream();
  mock.override = (r: Received): Answer | undefined => {
    if (r.method !== "POST") return { status: 200, headers: { "content-type": "text/plain" }, body: "" };
    const problem = messagesProblem(JSON.parse(r.body.toString("utf8")));
    if (problem === null) return undefined;
    refusals.push(problem);
    return { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: problem } }) };
  };
  proxy = await startProxy({ config: resolveConfig({ profile: "reference", thresholdTokens: 4000, keepRecent: 2, minGainTokens: 0 }), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" } });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});

describe("Claude Code 2.1.332's requests through a cliff", () => {
  it("the captured request is valid as it came, and the check refuses what the API refuses", () => {
    expect(messagesProblem(BODY)).toBeNull();
    expect(messagesProblem(grown(12))).toBeNull();
    const bad = grown(12);
    bad.messages.splice(6, 2);
    expect(messagesProblem(bad)).toMatch(/WebFetch is deferred/);
    expect(messagesProblem({ messages: [{ role: "user", content: "a" }, { role: "system", content: "s" }, { role: "user", content: "b" }] })).toMatch(/only precede an assistant/);
  });

  it("answers the preconnect: HEAD /api/hello and HEAD / reach the upstream and come back without a body", async () => {
    for (const path of ["/api/hello", "/"]) {
      const from = mock.received.length;
      const r = await fetch(proxy.url + path, { method: "HEAD" });
      expect(r.status, path).toBe(200);
      expect(await r.text()).toBe("");
      expect(mock.received.slice(from).map((x) => `${x.method} ${x.path}`)).toEqual([`HEAD ${path}`]);
    }
  });

  it("keeps the system message and the tool load after the summary: every compacted request is one the API accepts", async () => {
    const from = mock.received.length;
    const sent: string[] = [];
    for (let turns = 6; turns <= 14; turns++) {
      const body = JSON.stringify(grown(turns));
      const r = await fetch(proxy.url + "/v1/messages?beta=true", { method: "POST", headers: HEADERS, body });
      expect(r.status).toBe(200);
      sent.push(body);
    }
    const got = mock.received.slice(from).map((x) => JSON.parse(x.body.toString("utf8")));
    const compacted = got.filter((b) => JSON.stringify(b.messages).includes(SUMMARY_HEADER.slice(0, 30)));
    expect(compacted.length).toBeGreaterThan(3);
    expect(refusals).toEqual([]);
    expect(got).toHaveLength(sent.length);
    for (const b of compacted) {
      const roles = b.messages.map((m: any) => m.role);
      const summaryAt = b.messages.findIndex((m: any) => typeof m.content === "string" && m.content.startsWith(SUMMARY_HEADER.slice(0, 30)));
      expect(summaryAt).toBe(1);
      // Head (the task), summary, the ToolSearch call and its result, the one system message, then the tail.
      expect(roles.slice(0, 5)).toEqual(["user", "user", "assistant", "user", "system"]);
      expect(b.messages[2].content).toEqual([{ type: "tool_use", id: "toolu_search", name: "ToolSearch", input: { query: "select:WebFetch" } }]);
      expect(b.messages[3].content[0].content).toEqual([{ type: "tool_reference", tool_name: "WebFetch" }]);
      // Claude Code's own system message right there; the later one joined to it once dropped, else still in the tail where it stood.
      const texts = (m: any): string[] => (typeof m.content === "string" ? [m.content] : m.content.map((x: any) => x.text));
      expect(texts(b.messages[4])[0]).toBe(BODY.messages[1].content);
      const systems = b.messages.filter((m: any) => m.role === "system");
      expect(systems.flatMap(texts)).toEqual([BODY.messages[1].content, "From here on, answer in French."]);
      expect(b.messages[5].role).toBe("assistant");
      expect(messagesProblem(b)).toBeNull();
    }
  });

  it("a single system message keeps its own object; nothing to keep leaves the span's place empty", () => {
    const one = { role: "system", content: "only" };
    expect(keptFromSpan([{ role: "user", content: "x" }, one])).toEqual([one]);
    expect(keptFromSpan([{ role: "system", content: [] }, { role: "system", content: "" }, one])).toEqual([one]);
    expect(keptFromSpan([{ role: "assistant", content: [{ type: "tool_use", id: "a", name: "Bash", input: {} }] }, { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "out" }] }])).toEqual([]);
    // A tool load whose call is not in the span (it stays in the head) is not put back twice.
    expect(keptFromSpan([{ role: "user", content: [{ type: "tool_result", tool_use_id: "elsewhere", content: [{ type: "tool_reference", tool_name: "X" }] }] }])).toEqual([]);
  });
});

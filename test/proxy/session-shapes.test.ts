/**
 * Sessions as the reference's newest version counts them, on requests captured from the real
 * Claude Code (test/fixtures/claude-code-shapes.json, made by test/agents/session-shapes.e2e.ts):
 * its opening request (the user's message after a reminder, no model turn yet) is a turn, so the
 * session appears at once; its permission classifier's requests (no model turn, a session that has
 * had one) are side calls: their cost lands on the session, they are not its turns. A request of
 * two or more user messages that are not an opening, and no model turn, is a side call even in a
 * session not seen yet; the table of sessions is bounded, and a session it dropped opens again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDialect, resolveConfig } from "../../core/index.js";
import { startProxy, nodeSha256, type RunningProxy } from "../../proxy/index.js";
import { isOpening, requestShape } from "../../proxy/observe/session-key.js";
import { Sessions } from "../../proxy/observe/sessions.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";

const shapes = JSON.parse(readFileSync(join(process.cwd(), "test", "fixtures", "claude-code-shapes.json"), "utf8"));
const a = getDialect("anthropic");
const shapeOf = (body: any): string => requestShape(body, body.messages, a);

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

async function through(p: RunningProxy, bodies: any[]): Promise<void> {
  const start = p.observer.events.published;
  for (const b of bodies) {
    const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k" }, body: JSON.stringify(b) });
    expect(r.status).toBe(200);
    await r.arrayBuffer();
  }
  for (let i = 0; i < 200 && p.observer.events.published < start + bodies.length; i++) await new Promise((r) => setTimeout(r, 10));
}

async function status(p: RunningProxy): Promise<any> {
  return (await fetch(p.url + "/_cliff/status")).json();
}

describe("the captured shapes", () => {
  it("the opening: one user message that opens with a reminder, no model turn", () => {
    expect(shapes.opening.messages.filter((m: any) => m.role === "user")).toHaveLength(1);
    expect(isOpening(shapes.opening.messages[0])).toBe(true);
    expect(shapeOf(shapes.opening)).toBe("unturned");
    expect(shapeOf(shapes.turn)).toBe("turn");
  });

  it("the classifier: no model turn, its text not an opening", () => {
    expect(shapes.classifier.length).toBeGreaterThanOrEqual(1);
    for (const c of shapes.classifier) {
      expect(c.messages.some((m: any) => m.role === "assistant")).toBe(false);
      expect(isOpening(c.messages[0])).toBe(false);
      // Claude Code 2.1.332 sends it as one user message: a side call because its session has had a turn.
      expect(["unturned", "side"]).toContain(shapeOf(c));
    }
  });
});

describe("sessions through the proxy, on the captured bodies", () => {
  it("the session appears at its opening; the classifier's requests are its side calls, their cost on it", async () => {
    const p = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined });
    const published = vi.spyOn(p.observer.events, "publish");
    await through(p, [shapes.opening]);
    let s = await status(p);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ requests: 1, sideCalls: 0 });
    await through(p, [...shapes.classifier, shapes.turn]);
    s = await status(p);
    expect(s.sessions).toHaveLength(1);
    expect(s.sessions[0]).toMatchObject({ requests: 2, sideCalls: shapes.classifier.length });
    expect(s.sideCalls).toBe(shapes.classifier.length);
    // Every exchange's usage (the mock's 10 input tokens each) lands on the session, side calls' too.
    expect(s.sessions[0].usage.input).toBe(10 * (2 + shapes.classifier.length));
    const kinds = published.mock.calls.map(([e]) => e.kind);
    expect(kinds).toEqual(["turn", ...shapes.classifier.map(() => "side"), "turn"]);
    const metrics = await (await fetch(p.url + "/_cliff/metrics")).text();
    expect(metrics).toMatch(new RegExp(`^cliffcompaction_side_calls_total ${shapes.classifier.length}$`, "m"));
    await p.close();
  });

  it("a classifier request of a session the proxy has not seen with a turn opens it (one user message); two user messages never do", async () => {
    const p = await startProxy({ config: resolveConfig({}), port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: () => undefined });
    await through(p, [shapes.classifier[0]]);
    expect((await status(p)).sessions).toHaveLength(1);
    // The shape the reference documents for the classifier: a fixed instruction, then the transcript.
    const two = { ...shapes.classifier[0], metadata: { user_id: JSON.stringify({ session_id: "other-session" }) }, messages: [{ role: "user", content: "[classifier instruction]" }, { role: "user", content: "[transcript so far]" }] };
    expect(shapeOf(two)).toBe("side");
    await through(p, [two]);
    const s = await status(p);
    expect(s.sessions).toHaveLength(1);
    expect(s.sideCalls).toBe(1);
    await p.close();
  });
});

describe("the rule on the table", () => {
  it("unturned: a turn in a session with none (new or dropped from the bounded table), a side call after", () => {
    const t = new Sessions(nodeSha256, 2);
    expect(t.find("k1", "unturned", 1).kind).toBe("turn");
    t.find("k1", "unturned", 1).session!.add({ kind: "turn", model: "m", api: "anthropic", action: "pass", messagesIn: 1, messagesOut: 1, tokensIn: 1, tokensOut: 1, usage: null, price: null, threshold: 1, time: 1 });
    expect(t.find("k1", "unturned", 2).kind).toBe("side");
    expect(t.find("k2", "turn", 3).kind).toBe("turn");
    expect(t.find("k3", "turn", 4).kind).toBe("turn");
    // k1 was idle longest: dropped at k3; its next unturned request opens it again.
    expect(t.size).toBe(2);
    expect(t.find("k1", "unturned", 5).kind).toBe("turn");
    expect(t.find(null, "unturned", 6)).toEqual({ session: null, kind: "turn" });
    expect(t.find("k9", "side", 7)).toEqual({ session: null, kind: "side" });
    expect(t.find("k9", "probe", 7)).toEqual({ session: null, kind: "probe" });
  });

  it("openings: Claude Code's reminder, Codex's environment context and instructions; not the classifier's tags", () => {
    expect(isOpening({ role: "user", content: [{ type: "text", text: "<system-reminder>\nx</system-reminder>" }, { type: "text", text: "do it" }] })).toBe(true);
    expect(isOpening({ role: "user", content: "<system-reminder>x</system-reminder> do it" })).toBe(true);
    expect(isOpening({ type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>" }] })).toBe(true);
    expect(isOpening({ role: "user", content: [{ type: "text", text: "<transcript>" }] })).toBe(false);
    expect(isOpening({ role: "assistant", content: "<system-reminder>" })).toBe(false);
    const codex = getDialect("openai-responses");
    const input = [{ type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n</environment_context>" }] }, { type: "message", role: "user", content: [{ type: "input_text", text: "Fix the bug" }] }];
    expect(requestShape({}, input, codex)).toBe("unturned");
    expect(requestShape({}, [...input, { type: "message", role: "user", content: [{ type: "input_text", text: "and more" }] }], codex)).toBe("side");
  });
});

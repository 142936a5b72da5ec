/**
 * The floor warning compares each request's floor with that request's own minimum gain. With the
 * threshold a share of the window, the gain is a share of each request's threshold: a tenth of a
 * 200k model's threshold is small, a tenth of gpt-4.1's large. A fixed gain in between would warn
 * the healthy Claude session and miss the thrashing gpt-4.1 one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine, resolveConfig } from "../../core/index.js";
import { startProxy } from "../../proxy/index.js";
import { mockUpstream, type MockUpstream } from "../helpers/mock-upstream.js";
import { aSession } from "../helpers/sessions.js";

let mock: MockUpstream;
beforeAll(async () => {
  mock = await mockUpstream();
});
afterAll(async () => {
  await mock.close();
});

const SHARE = 0.01;
const FIXED_GAIN = 600;
const system = (tokens: number): string => "House rules, read them. ".repeat(Math.ceil((tokens * 4) / 24));

/** The requests of a session (small results) under a system prompt of about `head` tokens. */
function requests(model: string, head: number): Record<string, unknown>[] {
  const s = aSession(30, 300);
  const out: Record<string, unknown>[] = [];
  for (let n = 3; n <= s.length; n += 2) out.push({ model, max_tokens: 64, system: system(head), messages: s.slice(0, n) });
  return out;
}

/** The floor the first cliff leaves, decided as the proxy decides (the request's threshold and its own gain). */
function firstFloor(bodies: Record<string, unknown>[], threshold: number): number {
  const e = new Engine({ profile: "reference", keepRecent: 1 });
  for (const b of bodies) {
    const ctx = e.prepare(b, "anthropic", { thresholdTokens: threshold, minGainTokens: Math.floor(threshold / 10) });
    if (ctx.compacted) return ctx.floor()!.tokens;
  }
  throw new Error("no cliff");
}

describe("the floor warning and each request's own gain", () => {
  it("a healthy Claude session gets none, a thrashing gpt-4.1 session gets one", async () => {
    const cases = [
      { model: "claude-sonnet-4-5", window: 200_000, head: 1_100, warns: false },
      { model: "gpt-4.1", window: 1_047_576, head: 8_000, warns: true },
    ];
    for (const c of cases) {
      const threshold = Math.floor(c.window * SHARE);
      const own = Math.floor(threshold / 10);
      const bodies = requests(c.model, c.head);
      const floor = firstFloor(bodies, threshold);
      // The case is one where the fixed gain and the request's own gain disagree.
      expect(floor >= threshold - own, `${c.model}: floor ${floor}, threshold ${threshold}`).toBe(c.warns);
      expect(floor >= threshold - FIXED_GAIN, `${c.model}: floor ${floor}`).toBe(!c.warns);
      const logs: string[] = [];
      const p = await startProxy({ config: resolveConfig({ profile: "reference", keepRecent: 1, minGainTokens: FIXED_GAIN }), thresholdShare: SHARE, minGainShare: 0.1, port: 0, upstreams: { anthropic: mock.url, openai: mock.url + "/v1" }, log: (l) => logs.push(l) });
      for (const b of bodies) {
        const r = await fetch(p.url + "/v1/messages", { method: "POST", headers: { "content-type": "application/json", "x-api-key": "k", "x-claude-code-session-id": c.model }, body: JSON.stringify(b) });
        await r.arrayBuffer();
      }
      await new Promise((r) => setTimeout(r, 50));
      const metrics = await (await fetch(p.url + "/_cliff/metrics")).text();
      await p.close();
      expect(metrics, c.model).toMatch(new RegExp(`^cliffcompaction_floor_warnings_total ${c.warns ? 1 : 0}$`, "m"));
      const warnings = logs.filter((l) => l.includes("WARNING session") && l.includes("what stays after a cliff"));
      expect(warnings, c.model).toHaveLength(c.warns ? 1 : 0);
      if (c.warns) expect(warnings[0]).toContain(`minimum gain (${own.toLocaleString("en-US")})`);
    }
  });
});

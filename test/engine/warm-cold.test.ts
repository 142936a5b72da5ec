/**
 * The body sent for a request is a function of the request and the config alone: an engine that
 * saw every earlier request of the session, none of them, every other one or a random subset
 * sends the same bytes, in both profiles, with the hosts' default minimum gain (a tenth of the
 * threshold) and with none, with and without the provider's own compaction block in the history.
 * Claude Code moves its cache breakpoint to the newest message on every request, which the
 * sessions here do too.
 */
import { describe, expect, it } from "vitest";
import { Engine, type Config } from "../../core/index.js";
import { claudeBody, claudeSession, rng } from "../helpers/claude-sessions.js";
import { runs } from "../helpers/scale.js";

// Every combination of profile, gain and compaction block comes round every eight sessions.
const SESSIONS = runs(1000);
const bytes = (e: Engine, body: Record<string, unknown>): string => JSON.stringify(e.prepare(body, "anthropic").outgoingBody());

interface Case {
  seed: number;
  cfg: Partial<Config>;
  compaction: boolean;
}

/** Case `i`: every combination of profile, gain and compaction block in turn, the rest from the seed. */
function caseOf(i: number): Case {
  const r = rng(1_000_003 * (i + 1));
  const threshold = 1500 + Math.floor(r() * 5000);
  const profile = i % 2 === 0 ? "reference" : "recall";
  const minGainTokens = (i >> 1) % 2 === 0 ? Math.floor(threshold / 10) : 0;
  return { seed: i + 1, compaction: (i >> 2) % 2 === 1, cfg: { profile, thresholdTokens: threshold, minGainTokens, keepRecent: 1 + Math.floor(r() * 3) } as Partial<Config> };
}

describe("warm = cold: the body for request k whatever the engine saw before", () => {
  it(`${SESSIONS} random Claude Code-shaped sessions: all earlier requests, none, every other one, a random subset`, () => {
    let compared = 0;
    let compacted = 0;
    for (let i = 0; i < SESSIONS; i++) {
      const c = caseOf(i);
      const s = claudeSession(c.seed, { turns: 8 + (c.seed % 9), scale: 0.35, providerCompaction: c.compaction });
      const n = s.requests.length;
      const all = new Engine(c.cfg);
      const sent = s.requests.map((_, k) => bytes(all, claudeBody(s, k)));
      const r = rng(c.seed);
      const probes = [n - 1, 1 + Math.floor(r() * (n - 1))];
      for (const k of probes) {
        expect(bytes(new Engine(c.cfg), claudeBody(s, k)), `none, seed ${c.seed}, k ${k}`).toBe(sent[k]);
        compared++;
      }
      for (const [name, keep] of [["every other", (k: number) => k % 2 === i % 2], ["random subset", () => r() < 0.4]] as const) {
        const e = new Engine(c.cfg);
        for (let k = 0; k < n; k++) {
          if (!keep(k) && !probes.includes(k)) continue;
          expect(bytes(e, claudeBody(s, k)), `${name}, seed ${c.seed}, k ${k}`).toBe(sent[k]);
          compared++;
        }
      }
      if (sent.some((b, k) => b !== JSON.stringify(claudeBody(s, k)))) compacted++;
    }
    // The property means something only if most sessions cliff.
    expect(compacted).toBeGreaterThan(SESSIONS * 0.8);
    expect(compared).toBeGreaterThan(SESSIONS * 6);
  }, 300_000);
});

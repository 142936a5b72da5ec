/** Engine benchmarks on the reference port's scenario: 80 turns, threshold 2000, keepRecent 1. */
import { Engine, messageDigest } from "../core/index";
import { aBody, aSession } from "../test/helpers/sessions";
import { performance } from "node:perf_hooks";
import { fmt, time } from "./util";

export function benchEngine(): void {
  const msgs = aSession(80);
  const body = aBody(msgs);
  const fresh = time(() => new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(body, "anthropic"), 200, 20);
  const grow = time(() => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    for (let n = 9; n <= msgs.length; n += 2) e.prepare(aBody(msgs.slice(0, n)), "anthropic");
  }, 60, 5);
  const reparsed = JSON.parse(JSON.stringify(msgs)) as unknown[];
  const digestAll = time(() => {
    const copy = reparsed.map((m) => ({ ...(m as object) })); // new objects: no memo hits
    for (const m of copy) messageDigest(m, "anthropic");
  }, 200, 20);
  const e = new Engine();
  const digestWarm = time(() => {
    for (const m of msgs) e.digest(m, "anthropic");
  }, 200, 20);
  // What a proxy sees: every request parsed anew into new objects with the same contents.
  const resentTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const copy = JSON.parse(JSON.stringify(msgs)) as unknown[];
    const t0 = performance.now();
    for (const m of copy) e.digest(m, "anthropic");
    resentTimes.push(performance.now() - t0);
  }
  console.log("engine: reference scenario (80 turns, 161 messages, threshold 2000, keepRecent 1)");
  console.log(`  fresh prepare ${fmt(fresh)} (port ≈1.7 ms, target ≤ 0.85)  grow, 76 prepares ${fmt(grow)} (port 14–15 ms, target ≤ 7.3)`);
  console.log(`  digest all 161 messages: never seen ${fmt(digestAll)} (port ≈0.47 ms, target ≤ 0.235); resent as new objects ${fmt(Math.min(...resentTimes))}; same objects again ${fmt(digestWarm)}`);
}

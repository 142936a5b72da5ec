/** Engine benchmarks on the reference port's scenario: 80 turns, threshold 2000, keepRecent 1. */
import { canonicalText, Engine, messageDigest } from "../core/index.js";
import { nodeSha256 } from "../proxy/index.js";
import { aBody, aSession } from "../test/helpers/sessions.js";
import { fmt, time, timeEach } from "./util.js";

const reparse = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function benchEngine(): void {
  const msgs = aSession(80);
  const body = aBody(msgs);
  const fresh = time(() => new Engine({ thresholdTokens: 2000, keepRecent: 1 }).prepare(body, "anthropic"), 200, 20);
  const requests = (history: unknown[]): unknown[][] => {
    const out: unknown[][] = [];
    for (let n = 9; n <= history.length; n += 2) out.push(history.slice(0, n));
    return out;
  };
  const grow = time(() => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    for (const r of requests(msgs)) e.prepare(aBody(r), "anthropic");
  }, 60, 5);
  // A proxy parses every request anew: equal contents, new objects each time.
  const growParsed = timeEach(() => requests(msgs).map((r) => reparse(aBody(r))), (bodies) => {
    const e = new Engine({ thresholdTokens: 2000, keepRecent: 1 });
    for (const b of bodies) e.prepare(b, "anthropic");
  }, 12);

  const e = new Engine();
  for (const m of msgs) e.digest(m, "anthropic");
  const again = time(() => {
    for (const m of msgs) e.digest(m, "anthropic");
  }, 200, 20);
  const againParsed = timeEach(() => reparse(msgs), (copy) => {
    for (const m of copy) e.digest(m, "anthropic");
  }, 200);
  const firstSight = timeEach(() => reparse(msgs), (copy) => {
    for (const m of copy) messageDigest(m, "anthropic");
  }, 200);

  console.log("engine: reference scenario (80 turns, 161 messages, threshold 2000, keepRecent 1)");
  console.log(`  fresh prepare ${fmt(fresh)} (port ≈1.7 ms, target ≤ 0.85)`);
  console.log(`  grow, 76 prepares ${fmt(grow)} (port 14–15 ms, target ≤ 7.3); with every request parsed anew, as a proxy gets it, ${fmt(growParsed)}`);
  console.log(`  digest all 161 messages again, as the port's loop does: parsed anew ${fmt(againParsed)}, same objects ${fmt(again)} (port ≈0.47 ms, target ≤ 0.235)`);
  // First sight, side by side in this process: a plain loop (per message its canonical text and a
  // node:crypto digest, then the chain) against the engine's first sight of the same copies (its
  // memo's walk included), both chained the same way. The engine wins the walk back on every repeat.
  const chain = (digests: string[]): string => digests.reduce((prev, d) => nodeSha256(prev + d), "");
  const plainLoop = timeEach(() => reparse(msgs), (copy) => chain(copy.map((m) => nodeSha256(canonicalText(m, "anthropic", nodeSha256)))), 200);
  const engineFirst = timeEach(() => reparse(msgs), (copy) => {
    const en = new Engine({}, { sha256: nodeSha256 });
    return chain(copy.map((m) => en.digest(m, "anthropic")));
  }, 200);
  const ratio = engineFirst / plainLoop;
  console.log(`  digest 161 messages at first sight (SHA-256 of 137 KB in plain JS): ${fmt(firstSight)}`);
  console.log(`  first sight with node:crypto, side by side: engine ${fmt(engineFirst)}, plain loop (canonical text + digest, then the chain) ${fmt(plainLoop)}: ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? "✔" : "✘"}`);
}

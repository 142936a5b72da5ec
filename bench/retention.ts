/**
 * The retention bench: each session cut at five turn starts; at each cut every policy compacts the
 * history before it, and the measure (core/retention/retention.ts) asks how many of the tokens the next 8
 * model turns need that only that history held the compacted request still holds, and at what
 * share of the history's estimated tokens. Sessions: every file of the corpus (bench/retention-corpus.ts),
 * per session, per family and pooled, on the tuning and the checking side (split by source group),
 * and the gap between the sides per family; for the recall profile, the dropped needed tokens a
 * named ref holds and the recalls that bring them back (core/retention/recall-reach.ts); generated agent sessions in every dialect as an extra
 * table. Then what each recall rule pays: the recall profile with that rule off, per family and side.
 * Environment: CLIFF_RETENTION_EXTRA='{"cmd1000":{"cmdMaxChars":1000}}' adds configurations;
 * CLIFF_RETENTION_HALF=tuning|checking reads one side; CLIFF_RETENTION_PAYS=0 and
 * CLIFF_RETENTION_GENERATED=0 and CLIFF_RETENTION_REFETCH=0 leave those tables out.
 */
import { DIALECT_NAMES, resolveConfig } from "../core/index.js";
import { recallReach } from "../core/retention/recall-reach.js";
import { cutPoints, measureCut, neededTokens, TokenReader } from "../core/retention/retention.js";
import { agentSession } from "./agent-dialects.js";
import { corpusDir, corpusSources, type Half, type Source } from "./retention-corpus.js";
import { policies, rulesOff, type NamedPolicy } from "./retention-policies.js";
import { emptyTally, familyTable, gapTable, paysTable, reachTable, targetLines, type Measured, type Tally } from "./retention-tables.js";
import { refetchTable } from "./retention-refetches.js";

export { corpusDir, corpusSources, type Source };

/** Totals of one policy over some cuts. */
const GENERATED_SEEDS = [11, 23, 37];

export function generatedSources(seeds = GENERATED_SEEDS): Source[] {
  return DIALECT_NAMES.flatMap((d) => seeds.map((seed) => ({ name: `generated ${d} #${seed}`, group: "generated" as const, dialect: d, messages: agentSession(d, seed) })));
}

// The recall profile's host config: what it would answer a recall from.
const RECALL_CFG = resolveConfig({ profile: "recall" });

/** One session, every policy: a tally per policy over its cuts; the recall reach for the "recall" policy alone. */
export function measureSource(src: Source, named: NamedPolicy[]): Tally[] {
  const reader = new TokenReader(src.dialect);
  const tallies = named.map(emptyTally);
  for (const cut of cutPoints(src.messages, src.dialect)) {
    const history = src.messages.slice(0, cut);
    const needed = neededTokens(src.messages, cut, reader);
    named.forEach((p, k) => {
      const compacted = p.policy(history, src.dialect);
      const m = measureCut(src.messages, cut, compacted, reader, needed);
      const t = tallies[k];
      t.needed += m.needed;
      t.held += m.held;
      t.kept += m.keptTokens;
      t.history += m.historyTokens;
      t.cuts++;
      if (p.name !== "recall") return;
      const r = recallReach(history, compacted, m.lost, reader, RECALL_CFG);
      t.reachable += r.reachable;
      t.recalls += r.recalls;
      t.recallTokens += r.recallTokens;
    });
  }
  return tallies;
}

export const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(1) + "%");

function line(label: string, tallies: Tally[]): string {
  const cells = tallies.map((t) => `${pct(t.held, t.needed).padStart(6)} ${pct(t.kept, t.history).padStart(6)}`);
  return `  ${label.padEnd(48)} ${String(tallies[0].needed).padStart(6)}  ${cells.join("   ")}`;
}

function measureAll(sources: Source[], named: NamedPolicy[]): Measured[] {
  console.log(`  ${"session".padEnd(48)} ${"needed".padStart(6)}  ${named.map((p) => p.name.padEnd(13)).join("   ")}`);
  return sources.map((src) => {
    const t = measureSource(src, named);
    console.log(line(src.name, t));
    return { src, tallies: t };
  });
}

function envHalf(): Half | undefined {
  const h = process.env.CLIFF_RETENTION_HALF;
  return h === "tuning" || h === "checking" ? h : undefined;
}

export function benchRetention(): void {
  const pays = process.env.CLIFF_RETENTION_PAYS !== "0";
  const named = [...policies(), ...(pays ? rulesOff() : [])];
  const shown = named.length - (pays ? rulesOff().length : 0);
  const skipped: string[] = [];
  const corpus = corpusSources(corpusDir(), envHalf(), skipped);
  console.log("retention: needed tokens held / context kept (estimated tokens of the compacted request ÷ the history's), 5 cuts per session, next 8 model turns");
  if (skipped.length > 0) console.log(`  (no reader for the format of ${skipped.join(", ")}: left out)`);
  if (corpus.length === 0) console.log(`  (no corpus at ${corpusDir()}: the corpus tables are skipped)`);
  else {
    for (const side of ["tuning", "checking"] as const) {
      const groups = [...new Set(corpus.filter((c) => c.half === side).map((c) => c.source))];
      if (groups.length > 0) console.log(`  ${side} side, source groups: ${groups.sort().join(", ")}`);
    }
    const measured = measureAll(corpus, named);
    for (const half of [undefined, "tuning", "checking"] as const) {
      const rows = measured.filter((m) => half === undefined || m.src.half === half);
      if (rows.length === 0) continue;
      console.log(`\n  corpus${half === undefined ? "" : `, ${half} side`} (${rows.length} sessions): held / kept per family and pooled`);
      for (const l of familyTable(rows, named.slice(0, shown))) console.log(l);
      for (const l of targetLines(rows, named)) console.log(l);
      console.log(`\n  recall reach${half === undefined ? "" : `, ${half} side`}: the recall profile's needed tokens held, held or inside a text a ref of the request names, and the recalls (a greedy cover) and their estimated tokens that bring back every such dropped token`);
      for (const l of reachTable(rows, named)) console.log(l);
    }
    console.log("\n  the gap between the sides: held on the tuning side minus held on the checking side (points) per family");
    for (const l of gapTable(measured, named.slice(0, shown))) console.log(l);
    if (process.env.CLIFF_RETENTION_REFETCH !== "0") {
      console.log("\n  re-fetches after each cliff (simulated at a fifth of each session's tokens, at least 20,000): calls of the turns a cliff stood for that repeat a call whose result it dropped");
      for (const l of refetchTable(corpus)) console.log(l);
    }
    if (pays) {
      for (const half of [undefined, "tuning", "checking"] as const) {
        const rows = measured.filter((m) => half === undefined || m.src.half === half);
        if (rows.length === 0) continue;
        console.log(`\n  what each recall rule pays${half === undefined ? "" : `, ${half} side`}: the profile with one rule changed, the profile's held / kept minus its (points) per family`);
        for (const l of paysTable(rows, named)) console.log(l);
      }
    }
  }
  if (process.env.CLIFF_RETENTION_GENERATED === "0") return;
  console.log("\n  generated sessions (an extra table; targets are judged on the corpus)");
  const gen = measureAll(generatedSources(), named.slice(0, shown));
  for (const l of familyTable(gen.map((m) => ({ ...m, src: { ...m.src, family: m.src.dialect } })), named.slice(0, shown))) console.log(l);
}

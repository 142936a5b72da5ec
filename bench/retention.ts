/**
 * The retention bench: each session cut at five turn starts; at each cut every policy compacts the
 * history before it, and the measure (core/retention/retention.ts) asks how many of the tokens the next 8
 * model turns need that only that history held the compacted request still holds, and at what
 * share of the history's estimated tokens. Sessions: the corpus in ../shared/corpus (or
 * $CLIFF_CORPUS), when present, and generated agent sessions in every dialect. More
 * configurations to compare: CLIFF_RETENTION_EXTRA='{"cmd1000":{"cmdMaxChars":1000}}'.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DIALECT_NAMES, type DialectName } from "../core/index.js";
import { cutPoints, measureCut, neededTokens, TokenReader } from "../core/retention/retention.js";
import { readSession } from "../cli/readers/index.js";
import { agentSession } from "./agent-dialects.js";
import { policies, type NamedPolicy } from "./retention-policies.js";

export interface Source {
  name: string;
  group: "corpus" | "generated";
  dialect: DialectName;
  messages: unknown[];
}

/** Totals of one policy over some cuts. */
export interface Tally {
  needed: number;
  held: number;
  kept: number;
  history: number;
}

const GENERATED_SEEDS = [11, 23, 37];

export function corpusDir(): string {
  return process.env.CLIFF_CORPUS ?? fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
}

export function corpusSources(dir = corpusDir()): Source[] {
  if (!existsSync(dir)) return [];
  const out: Source[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.(jsonl|json)$/.test(name)) continue;
    const s = readSession(readFileSync(join(dir, name), "utf8"), name);
    out.push({ name: `corpus ${name}`, group: "corpus", dialect: s.dialect, messages: s.messages });
  }
  return out;
}

export function generatedSources(seeds = GENERATED_SEEDS): Source[] {
  return DIALECT_NAMES.flatMap((d) => seeds.map((seed) => ({ name: `generated ${d} #${seed}`, group: "generated" as const, dialect: d, messages: agentSession(d, seed) })));
}

/** One session, every policy: a tally per policy over its cuts. */
export function measureSource(src: Source, named: NamedPolicy[]): Tally[] {
  const reader = new TokenReader(src.dialect);
  const tallies = named.map(() => ({ needed: 0, held: 0, kept: 0, history: 0 }));
  for (const cut of cutPoints(src.messages, src.dialect)) {
    const history = src.messages.slice(0, cut);
    const needed = neededTokens(src.messages, cut, reader);
    named.forEach((p, k) => {
      const m = measureCut(src.messages, cut, p.policy(history, src.dialect), reader, needed);
      const t = tallies[k];
      t.needed += m.needed;
      t.held += m.held;
      t.kept += m.keptTokens;
      t.history += m.historyTokens;
    });
  }
  return tallies;
}

function add(into: Tally[], from: Tally[]): void {
  from.forEach((t, k) => {
    into[k].needed += t.needed;
    into[k].held += t.held;
    into[k].kept += t.kept;
    into[k].history += t.history;
  });
}

const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(1) + "%");

function line(label: string, tallies: Tally[]): string {
  const cells = tallies.map((t) => `${pct(t.held, t.needed).padStart(6)} ${pct(t.kept, t.history).padStart(6)}`);
  return `  ${label.padEnd(48)} ${String(tallies[0].needed).padStart(6)}  ${cells.join("   ")}`;
}

export function benchRetention(): void {
  const named = policies();
  const corpus = corpusSources();
  const sources = [...corpus, ...generatedSources()];
  console.log("retention: needed tokens held / context kept (estimated tokens of the compacted request ÷ the history's), 5 cuts per session, next 8 model turns");
  if (corpus.length === 0) console.log(`  (no corpus at ${corpusDir()}: generated sessions only)`);
  console.log(`  ${"source".padEnd(48)} ${"needed".padStart(6)}  ${named.map((p) => p.name.padEnd(13)).join("   ")}`);
  const groups: Record<string, Tally[]> = {};
  const zero = (): Tally[] => named.map(() => ({ needed: 0, held: 0, kept: 0, history: 0 }));
  for (const src of sources) {
    const t = measureSource(src, named);
    console.log(line(src.name, t));
    add((groups[src.group] ??= zero()), t);
    add((groups.overall ??= zero()), t);
  }
  for (const g of ["corpus", "generated", "overall"]) if (groups[g]) console.log(line(`${g} (all)`, groups[g]));
  const shown = ["corpus", "generated", "overall"].filter((g) => groups[g]);
  console.log(`\n  ${"policy".padEnd(12)} ${shown.map((g) => `${g}: held   kept`.padStart(24)).join("")}`);
  named.forEach((p, k) => console.log(`  ${p.name.padEnd(12)} ${shown.map((g) => `${pct(groups[g][k].held, groups[g][k].needed).padStart(17)} ${pct(groups[g][k].kept, groups[g][k].history).padStart(6)}`).join("")}`));
}

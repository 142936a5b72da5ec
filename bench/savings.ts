/**
 * What the defaults save on the corpus sessions that have timestamps (Claude Code, Codex, Pi):
 * `simulate` with the proxy's default threshold for each session's model, the same with the idle
 * cliff at the provider's cache lifetime (5 minutes), no compaction, and an LLM summary at the
 * default's cliffs; the cache expires over gaps longer than it lives. Per family, in dollars at the
 * model's list prices where it has one, in billed input tokens otherwise (marked).
 * Run: `node build.mjs && npx tsx bench/savings.ts` (the corpus at ../shared/corpus, or CLIFF_CORPUS).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const CORPUS = process.env.CLIFF_CORPUS ?? join(import.meta.dirname, "..", "..", "shared", "corpus");

interface Bill { dollars: number | null; billed: number }
interface Row { file: string; family: string; model: string | null; threshold: number; defaults: Bill; idle: Bill; none: Bill; llm: Bill; idleCliffs: number; cliffs: number }

function simulate(file: string, flags: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ["dist/cli.mjs", "simulate", file, "--json", ...flags], { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    p.stdout.on("data", (c) => (out += c));
    p.on("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${file}: exit ${code}`))));
  });
}

const bill = (b: any): Bill => ({ dollars: b.dollars, billed: Number(b.billed) });

async function row(name: string): Promise<Row> {
  const file = join(CORPUS, name);
  const [a, b] = await Promise.all([simulate(file, []), simulate(file, ["--idle-cliff", "5m"])]);
  return {
    file: name, family: name.split("_")[0].replace(/-.*/, ""), model: a.model, threshold: a.threshold,
    defaults: bill(a.billing.cliff), idle: bill(b.billing.cliff), none: bill(a.billing.noCompaction), llm: bill(a.billing.llmSummary),
    idleCliffs: b.idleCliffs, cliffs: a.cliffs.length,
  };
}

const money = (v: number): string => `$${v.toFixed(2)}`;
const tokens = (v: number): string => `${Math.round(v).toLocaleString("en-US")} tok*`;
const pct = (v: number, base: number): string => (base > 0 ? `${(100 * (1 - v / base)).toFixed(1)}%` : "—");

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log("no corpus at ../shared/corpus: nothing to measure");
    return;
  }
  const names = readdirSync(CORPUS).filter((n) => /^(claudecode|codex|pi)[_-].*\.jsonl$/.test(n)).sort();
  const rows: Row[] = [];
  for (let i = 0; i < names.length; i += 2) rows.push(...(await Promise.all(names.slice(i, i + 2).map(row))));
  console.log("| session | model | threshold | cliffs (+idle) | defaults | idle cliff 5m | no compaction | LLM summary |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const f = (b: Bill): string => (b.dollars !== null ? money(b.dollars) : tokens(b.billed));
    console.log(`| ${r.file} | ${r.model ?? "?"} | ${r.threshold.toLocaleString("en-US")} | ${r.cliffs} (+${r.idleCliffs}) | ${f(r.defaults)} | ${f(r.idle)} | ${f(r.none)} | ${f(r.llm)} |`);
  }
  console.log("");
  console.log("| family | sessions | defaults | idle cliff 5m | no compaction | LLM summary | defaults vs none | idle vs none |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const family of [...new Set(rows.map((r) => r.family))]) {
    for (const priced of [true, false]) {
      const rs = rows.filter((r) => r.family === family && (r.defaults.dollars !== null) === priced);
      if (rs.length === 0) continue;
      const sum = (k: "defaults" | "idle" | "none" | "llm"): number => rs.reduce((s, r) => s + (priced ? r[k].dollars! : r[k].billed), 0);
      const f = priced ? money : tokens;
      console.log(`| ${family}${priced ? "" : " (unpriced)"} | ${rs.length} | ${f(sum("defaults"))} | ${f(sum("idle"))} | ${f(sum("none"))} | ${f(sum("llm"))} | −${pct(sum("defaults"), sum("none"))} | −${pct(sum("idle"), sum("none"))} |`);
    }
  }
}

await main();

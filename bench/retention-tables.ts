/**
 * The retention bench's tables: held / kept per family and pooled, the issue's targets checked
 * against masking and head + tail in the same run, and what each recall rule pays per family.
 */
import type { Source } from "./retention-corpus.js";
import type { NamedPolicy } from "./retention-policies.js";

/** One policy's sums over a session's cuts: the tokens the next turns needed and what of them it held, the tokens it kept of the history. */
export interface Tally {
  needed: number;
  held: number;
  kept: number;
  history: number;
  /** The recall policy only: lost needed tokens inside a text a ref of the request names, and the recalls (and their tokens) that bring them back. */
  reachable: number;
  recalls: number;
  recallTokens: number;
  cuts: number;
}

export const emptyTally = (): Tally => ({ needed: 0, held: 0, kept: 0, history: 0, reachable: 0, recalls: 0, recallTokens: 0, cuts: 0 });

export interface Measured {
  src: Source;
  tallies: Tally[];
}

const share = (a: number, b: number): number => (b === 0 ? NaN : (100 * a) / b);
const p1 = (x: number): string => (isNaN(x) ? "-" : x.toFixed(1));
const signed = (x: number): string => (isNaN(x) ? "-" : (x >= 0 ? "+" : "") + x.toFixed(1));

/** Tallies summed per family (sorted), then "pooled" over all rows. */
export function byFamily(rows: readonly Measured[]): [string, Tally[]][] {
  const sums = new Map<string, Tally[]>();
  const add = (key: string, t: Tally[]): void => {
    const into = sums.get(key) ?? t.map(emptyTally);
    t.forEach((x, k) => {
      for (const f of Object.keys(x) as (keyof Tally)[]) into[k][f] += x[f];
    });
    sums.set(key, into);
  };
  for (const r of rows) add(r.src.family ?? r.src.dialect, r.tallies);
  const families = [...sums.keys()].sort();
  for (const r of rows) add("pooled", r.tallies);
  return [...families.map((f) => [f, sums.get(f)!] as [string, Tally[]]), ["pooled", sums.get("pooled")!]];
}

export const held = (t: Tally): number => share(t.held, t.needed);
export const kept = (t: Tally): number => share(t.kept, t.history);

/** One line per family and pooled: needed, then held and kept for each policy. */
export function familyTable(rows: readonly Measured[], named: readonly NamedPolicy[]): string[] {
  const out = [`  ${"family".padEnd(14)} ${"needed".padStart(7)}  ${named.map((p) => `${p.name}: held  kept`.padStart(24)).join("")}`];
  for (const [f, t] of byFamily(rows)) {
    out.push(`  ${f.padEnd(14)} ${String(t[0].needed).padStart(7)}  ${named.map((_, k) => `${p1(held(t[k])).padStart(17)} ${p1(kept(t[k])).padStart(6)}`).join("")}`);
  }
  return out;
}

/** Per family and pooled, the recall policy's held, held or named by a ref, and the recalls and their tokens that bring the named back. */
export function reachTable(rows: readonly Measured[], named: readonly NamedPolicy[]): string[] {
  const r = named.findIndex((p) => p.name === "recall");
  const out = [`  ${"family".padEnd(14)} ${"needed".padStart(7)} ${"held".padStart(7)} ${"or named".padStart(9)} ${"recalls".padStart(8)} ${"tokens".padStart(9)} ${"per cut".padStart(8)}`];
  for (const [f, all] of byFamily(rows)) {
    const t = all[r];
    out.push(`  ${f.padEnd(14)} ${String(t.needed).padStart(7)} ${p1(held(t)).padStart(7)} ${p1(share(t.held + t.reachable, t.needed)).padStart(9)} ${String(t.recalls).padStart(8)} ${String(t.recallTokens).padStart(9)} ${(t.cuts === 0 ? "-" : (t.recalls / t.cuts).toFixed(2)).padStart(8)}`);
  }
  return out;
}

/**
 * The issue's targets: recall holds at least masking's share within 1.0 point in every family and
 * pooled, and kept(recall) − kept(tail) ≤ ½ × (kept(masking) − kept(tail)) pooled.
 */
export function targetLines(rows: readonly Measured[], named: readonly NamedPolicy[]): string[] {
  const at = (n: string): number => named.findIndex((p) => p.name === n);
  const [r, m, t] = [at("recall"), at("masking"), at("tail")];
  const fam = byFamily(rows);
  const short = fam.filter(([, x]) => held(x[r]) < held(x[m]) - 1.0).map(([f, x]) => `${f} ${p1(held(x[r]))} < ${p1(held(x[m]))}`);
  const pooled = fam[fam.length - 1][1];
  const limit = kept(pooled[t]) + (kept(pooled[m]) - kept(pooled[t])) / 2;
  return [
    `  target held (recall ≥ masking − 1.0 pt, pooled and each family): ${short.length === 0 ? "met" : "short in " + short.join("; ")}`,
    `  target kept (recall ≤ tail + ½ (masking − tail), pooled): recall ${p1(kept(pooled[r]))}% against ${p1(limit)}%: ${kept(pooled[r]) <= limit ? "met" : "over"}`,
  ];
}

/**
 * Per family (and pooled), each policy's held on the tuning side minus its held on the checking side,
 * in points: how far what was tuned carries to sessions of other sources. A family on one side only
 * shows "-".
 */
export function gapTable(rows: readonly Measured[], named: readonly NamedPolicy[]): string[] {
  const tuning = new Map(byFamily(rows.filter((r) => r.src.half === "tuning")));
  const checking = new Map(byFamily(rows.filter((r) => r.src.half === "checking")));
  const families = [...new Set([...tuning.keys(), ...checking.keys()])].filter((f) => f !== "pooled").sort().concat("pooled");
  const out = [`  ${"family".padEnd(14)} ${named.map((p) => p.name.padStart(12)).join("")}`];
  for (const f of families) {
    const a = tuning.get(f);
    const b = checking.get(f);
    out.push(`  ${f.padEnd(14)} ${named.map((_, k) => (a === undefined || b === undefined ? "-" : signed(held(a[k]) - held(b[k]))).padStart(12)).join("")}`);
  }
  return out;
}

/** Per changed-rule policy ("recall …"): the recall profile's held and kept minus the policy's, in points, per family and pooled. */
export function paysTable(rows: readonly Measured[], named: readonly NamedPolicy[]): string[] {
  const r = named.findIndex((p) => p.name === "recall");
  const fam = byFamily(rows);
  const out = [`  ${"rule changed".padEnd(26)} ${fam.map(([f]) => f.padStart(14)).join("")}`];
  named.forEach((p, k) => {
    if (!p.name.startsWith("recall ")) return;
    out.push(`  ${p.name.padEnd(26)} ${fam.map(([, t]) => `${signed(held(t[r]) - held(t[k]))}/${signed(kept(t[r]) - kept(t[k]))}`.padStart(14)).join("")}`);
  });
  return out;
}

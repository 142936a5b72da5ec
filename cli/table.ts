/** Plain-text tables whose columns stay aligned whatever the size of the numbers in them. */

export const n = (v: number): string => v.toLocaleString("en-US");

/** Rows of cells, the first column left-aligned and the others right-aligned, each as wide as its widest cell. */
export function table(rows: readonly (readonly string[])[], indent = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => indent + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("   ").trimEnd());
}

/** Money-like amounts (billed tokens with a discount) in JSON: two decimals, never binary noise. */
export const fixed2 = (v: number): number => Math.round(v * 100) / 100;

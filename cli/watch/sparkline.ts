/** A row of block characters, one per value, scaled to a ceiling; marked values (cliffs) drawn as `×`. */
const BLOCKS = "▁▂▃▄▅▆▇█";
export const CLIFF_MARK = "×";

export function sparkline(values: readonly number[], ceiling: number, marked: ReadonlySet<number>, width: number): string {
  const start = Math.max(0, values.length - width);
  let out = "";
  for (let i = start; i < values.length; i++) {
    if (marked.has(i)) {
      out += CLIFF_MARK;
      continue;
    }
    const level = ceiling > 0 ? Math.ceil((values[i] / ceiling) * BLOCKS.length) : 0;
    out += BLOCKS[Math.min(BLOCKS.length, Math.max(1, level)) - 1];
  }
  return out;
}

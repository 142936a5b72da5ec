/**
 * The minimum gain between cliffs as a replay of a whole session applies it (simulate, report):
 * after a cliff, the next waits until the context has grown by `gain` tokens beyond what that cliff
 * left. The engine applies the same rule inside its replay (core/engine/replay.ts).
 */

/** What stays right after a cliff, in estimated tokens: head (fixed part and messages before the summary), summary, tail. */
export interface FloorParts {
  tokens: number;
  head: number;
  summary: number;
  tail: number;
}

export class MinGain {
  /** Requests over the threshold that the rule held back. */
  held = 0;
  /** The first floor within the gain of the threshold (the rule, not the threshold, then sets the pace). */
  tight: FloorParts | null = null;
  private floor = -1;

  constructor(readonly gain: number, readonly threshold: number) {}

  /** A context over the threshold may cliff: no cliff yet, no gain asked, or grown by the gain. */
  allows(context: number): boolean {
    if (this.gain <= 0 || this.floor < 0 || context >= this.floor + this.gain) return true;
    this.held++;
    return false;
  }

  /** Grown by the gain past the last cliff's floor (or no cliff yet), without counting a hold. */
  grown(context: number): boolean {
    return this.gain <= 0 || this.floor < 0 || context >= this.floor + this.gain;
  }

  cliffed(floor: FloorParts): void {
    this.floor = floor.tokens;
    if (this.tight === null && this.gain > 0 && floor.tokens + this.gain > this.threshold) this.tight = floor;
  }
}

const n = (v: number): string => v.toLocaleString("en-US");

/** The rule in one line, for a report of a replay. */
export function gainLine(gain: number, threshold: number, held: number): string {
  if (gain <= 0) return "every crossing of the threshold cliffs (minimum gain 0)";
  const tenth = gain === Math.floor(threshold / 10) ? ", a tenth of the threshold" : "";
  return `a cliff waits for ${n(gain)} tokens of growth past what the last one left (--min-gain-tokens${tenth}); ${n(held)} request${held === 1 ? "" : "s"} over the threshold held back`;
}

/** The warning when what stays after a cliff is within the gain of the threshold. */
export function tightLine(f: FloorParts, gain: number, threshold: number): string {
  return `what stays after a cliff, ${n(f.tokens)} tokens (head ${n(f.head)} + summary ${n(f.summary)} + tail ${n(f.tail)}), is within the minimum gain ${n(gain)} of the threshold ${n(threshold)}: cliffs come once per ${n(gain)} tokens of growth`;
}

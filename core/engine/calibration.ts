/**
 * The calibration of the chars/4 estimate: a ratio of the provider's counted input tokens to the
 * estimate, measured by a host from the answers a session got. Bounded, and rounded to hundredths
 * so that the small drift of every answer does not change what a stored cliff is keyed by.
 */

/** The ratio's bounds: a provider counting half or twice the estimate is the widest seen. */
export const CALIBRATION_MIN = 0.5;
export const CALIBRATION_MAX = 2;

/** A usable ratio from any value: 1 for anything that is not a positive finite number, else clamped and rounded to 0.01. */
export function boundCalibration(ratio: unknown): number {
  if (typeof ratio !== "number" || !Number.isFinite(ratio) || ratio <= 0) return 1;
  const r = Math.min(CALIBRATION_MAX, Math.max(CALIBRATION_MIN, ratio));
  return Math.round(r * 100) / 100;
}

/**
 * The ratio one answer shows: the provider's input tokens (all of them: uncached, cache reads and
 * writes) over the estimate of what was sent. Null when either is not a positive number.
 */
export function observedCalibration(providerInputTokens: number, estimatedTokens: number): number | null {
  if (!(providerInputTokens > 0) || !(estimatedTokens > 0)) return null;
  return boundCalibration(providerInputTokens / estimatedTokens);
}

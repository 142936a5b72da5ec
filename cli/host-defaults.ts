/**
 * Defaults the session hosts (serve, run, simulate, report) set over the core's: the minimum gain
 * between cliffs is a tenth of the threshold, so a session whose head alone nears the threshold
 * cliffs once per tenth of it, not on every request. It sits below every layer (flags, CLIFF_*, the
 * file) and below the profile, as any default does; `compact` makes one cliff and keeps the core's 0.
 */
import { PROFILES, resolveConfig, setBy, type Config, type ConfigLayer } from "../core/index.js";

/** The share of the threshold the hosts take as the minimum gain. */
export const GAIN_SHARE = 10;

export const tenthOf = (threshold: number): number => Math.floor(threshold / GAIN_SHARE);

/**
 * A function that gives a config its host default for the gain when no layer and no profile set it.
 * It takes the config last, so a host that chooses the threshold itself (report) applies it after.
 */
export function hostGain(layers: readonly ConfigLayer[]): (cfg: Config) => Config {
  return (cfg) => (gainSet(layers, cfg) ? cfg : resolveConfig({ minGainTokens: tenthOf(cfg.thresholdTokens) }, cfg));
}

/** Some layer or the profile sets the minimum gain: no host default applies. */
export function gainSet(layers: readonly ConfigLayer[], cfg: Config): boolean {
  return setBy(layers, "minGainTokens") !== undefined || PROFILES[cfg.profile].minGainTokens !== undefined;
}

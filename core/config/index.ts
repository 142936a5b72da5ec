/**
 * Configuration: one record, camelCase, with the reference proxy's defaults. `resolveConfig`
 * only validates and merges; reading files or the environment is each host's job.
 */
export type { Config, Profile } from "./keys.js";
export { DEFAULT_CONFIG, PROFILES, REFERENCE_CONFIG } from "./defaults.js";
export { CONFIG_ENUMS, CONFIG_KEYS, CONFIG_KINDS, ConfigError, parseSetting, type ConfigKind, type SettingValue } from "./kinds.js";
export { camel, resolveConfig, toConfig } from "./resolve.js";
export { envName, envValues, resolveLayers, setBy, type ConfigLayer } from "./layers.js";

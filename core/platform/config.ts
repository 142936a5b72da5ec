/**
 * The config a platform build bakes in (`node build.mjs --config file.json`, `--profile`), resolved
 * once when the bundle loads; the default config where nothing was baked (the library, tests). The
 * build has already refused a bad one, so a platform never meets a config error at run time.
 */
import { resolveConfig, type Config } from "../config/index.js";

declare const __CLIFF_BUILD_CONFIG__: Record<string, unknown> | undefined;

export const BUILD_CONFIG: Config = resolveConfig(typeof __CLIFF_BUILD_CONFIG__ === "undefined" ? undefined : __CLIFF_BUILD_CONFIG__);

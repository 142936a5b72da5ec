/** The package's version, set by the build ("dev" when run from the sources). */
declare const __CLIFF_VERSION__: string;
export const VERSION = typeof __CLIFF_VERSION__ === "string" ? __CLIFF_VERSION__ : "dev";

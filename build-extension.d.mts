import type { BuildOptions } from "esbuild";

/** esbuild options that write the Pi/OMP extension (pi-extension/index.ts and the core) to `outfile`. */
export function piExtensionOptions(outfile: string, version: string): BuildOptions;

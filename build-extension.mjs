// The Pi/OMP extension as the package ships it: pi-extension/index.ts and the core in one ESM file,
// Pi's imports type-only (so none remain), node: builtins external. build.mjs writes it for the
// package; the Pi tests build it afresh from the sources with the same options.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));

/** esbuild options that write the extension to `outfile`. */
export function piExtensionOptions(outfile, version) {
  return {
    entryPoints: [join(root, "pi-extension", "index.ts")],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    legalComments: "none",
    logLevel: "error",
    banner: { js: `// cliffcompaction ${version} (MIT): built from pi-extension/*.ts and the core by build.mjs; edit the sources, not this file.` },
  };
}

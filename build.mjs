#!/usr/bin/env node
// Builds dist/: the AgentParley plugin script (one IIFE, no imports, ES2020), its upload zip, ESM
// bundles of the core, the plugin library and the proxy, the CLI, and the declarations; and the
// Pi/OMP extension the package ships, pi-extension/index.js (ignored by git: a clone's Pi or OMP
// loads pi-extension/index.ts itself; a build with `--out` writes it there as pi-extension.mjs).
// `--config file.json` bakes other defaults into the plugin after validating them with the core's
// resolveConfig. The plugin has the default profile (recall); `--profile reference` (or a "profile"
// in that file) builds it with another profile, under file names of its own, its manifest and
// README saying which. `--no-types` skips
// the declarations.
import { build } from "esbuild";
import { piExtensionOptions } from "./build-extension.mjs";
import { zipSync, strToU8 } from "fflate";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv.slice(2));
const dist = resolve(args.out ?? join(root, "dist"));
const manifest = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"));

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const args = { config: undefined, out: undefined, profile: undefined, types: true };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--no-types") {
      args.types = false;
      continue;
    }
    const [flag, inline] = argv[i].split(/=(.*)/s);
    if (flag !== "--config" && flag !== "--out" && flag !== "--profile") fail(`unknown argument ${argv[i]} (usage: node build.mjs [--config file.json] [--profile name] [--out dir] [--no-types])`);
    const value = inline ?? argv[++i];
    if (!value) fail(`${flag} needs a value`);
    args[flag.slice(2)] = value;
  }
  return args;
}

/** One self-contained bundle of `entry` at dist/`out` (or at `options.outfile`). */
function bundle(entry, out, options) {
  return build({ entryPoints: [join(root, entry)], outfile: join(dist, out), bundle: true, logLevel: "error", ...options });
}

async function loadCore() {
  mkdirSync(dist, { recursive: true });
  await bundle("core/public.ts", "core.mjs", { format: "esm", target: "es2020", platform: "neutral" });
  return import(pathToFileURL(join(dist, "core.mjs")).href + `?t=${Date.now()}`);
}

async function bakedConfig(core, file) {
  if (file === undefined) return undefined;
  let raw;
  try {
    raw = JSON.parse(readFileSync(resolve(file), "utf8"));
  } catch (e) {
    fail(`cannot read config ${file}: ${e.message}`);
  }
  try {
    core.resolveConfig(raw);
  } catch (e) {
    fail(`config ${file}: ${e.message}`);
  }
  // Asked for by name, not supplied by a profile: the plugin cannot honour it, so the build says so.
  if (raw !== null && typeof raw === "object" && raw.archive === true) {
    fail(`config ${file}: "archive": true cannot be built into the AgentParley plugin: its sandbox has no filesystem to keep dropped texts in, so the plugin keeps its usual lines (leave the key out)`);
  }
  if (raw !== null && typeof raw === "object" && raw.refs === true) {
    fail(`config ${file}: "refs": true cannot be built into the AgentParley plugin: the platform has no recall tool to answer a ref with, so the plugin's summaries name none (leave the key out)`);
  }
  return raw;
}

/** The file's config with the `--profile` flag over it (validated), and the profile it builds. */
function withProfile(core, fileConfig, flag) {
  if (flag === undefined) return { baked: fileConfig, profile: fileConfig?.profile ?? core.DEFAULT_CONFIG.profile };
  try {
    core.resolveConfig({ profile: flag });
  } catch (e) {
    fail(`--profile: ${e.message}`);
  }
  return { baked: { ...(fileConfig ?? {}), profile: flag }, profile: flag };
}

const core = await loadCore();
const { baked, profile } = withProfile(core, await bakedConfig(core, args.config), args.profile);
// Another profile's build is a plugin of its own: its files, id and name say which profile it has.
const suffix = profile === core.DEFAULT_CONFIG.profile ? "" : `-${profile}`;
if (suffix !== "") Object.assign(manifest, {
  id: `${manifest.id}${suffix}`,
  name: `${manifest.name} (${profile} profile)`,
  description: `${manifest.description} Built with the ${profile} profile.`,
});
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
if (pkg.version !== manifest.version) fail(`manifest.json version ${manifest.version} differs from package.json ${pkg.version}`);

const script = join(dist, manifest.entry.replace(/\.js$/, `${suffix}.js`));
// Inside a sandbox's context every read of a global (Array.isArray, Math.min, …) goes through the
// host's global object, which is slow in node:vm; the bundle binds the built-ins it uses once, as
// parameters of an outer function, so each later read is a local one.
const BUILTINS = "Array,Object,Math,JSON,String,Number,Map,Set,WeakMap,WeakSet,Symbol,RegExp,Error,TypeError,Date,Uint8Array,parseInt,isFinite";
await bundle("plugin/index.ts", script.slice(dist.length + 1), {
  format: "iife",
  target: "es2020",
  platform: "neutral",
  minify: true,
  legalComments: "none",
  // The working set and back-references are compiled out of a build whose config never turns them on (the reference's).
  define: { __CLIFF_BUILD_CONFIG__: baked === undefined ? "undefined" : JSON.stringify(baked), __CLIFF_ES2020_ONLY__: "true", __CLIFF_SANDBOX__: "true", __CLIFF_WORKING_SET__: String(core.resolveConfig(baked).workingSetFileMaxChars > 0), __CLIFF_BACK_REFS__: String(core.resolveConfig(baked).backRefMaxChars > 0), __CLIFF_ASKED_TWICE__: String(core.resolveConfig(baked).askedTwiceMaxChars > 0), __CLIFF_LISTINGS__: String(core.resolveConfig(baked).listingMaxChars > 0) },
  banner: { js: `/* cliffcompaction ${pkg.version} (MIT) — AgentParley context-compaction provider */\n(function(${BUILTINS}){` },
  footer: { js: `})(${BUILTINS});` },
});

await bundle("cli/bin.ts", "cli.mjs", {
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["quickjs-emscripten"],
  define: { __CLIFF_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: "#!/usr/bin/env node" },
});
chmodSync(join(dist, "cli.mjs"), 0o755);

// The package's own build writes the file package.json's `files` ships; a build elsewhere (`--out`) leaves it alone.
await build(piExtensionOptions(args.out === undefined ? join(root, "pi-extension", "index.js") : join(dist, "pi-extension.mjs"), pkg.version));
await bundle("plugin/lib.ts", "plugin.mjs", { format: "esm", platform: "neutral", target: "es2020" });
await bundle("proxy/index.ts", "proxy.mjs", { format: "esm", platform: "node", target: "node20", define: { __CLIFF_VERSION__: JSON.stringify(pkg.version) } });
// CommonJS entries behind the `require` condition, for consumers compiled as CommonJS (TypeScript
// under node16 resolution refuses to require an ES module's declarations), as dual packages do.
await bundle("core/public.ts", "core.cjs", { format: "cjs", platform: "node", target: "node20" });
await bundle("plugin/lib.ts", "plugin.cjs", { format: "cjs", platform: "node", target: "node20" });
await bundle("proxy/index.ts", "proxy.cjs", { format: "cjs", platform: "node", target: "node20", define: { __CLIFF_VERSION__: JSON.stringify(pkg.version) } });
if (args.types) {
  // Emitted afresh: declarations of files that moved or went away must not linger in the package.
  rmSync(join(dist, "types"), { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(root, "tsconfig.types.json"), "--outDir", join(dist, "types")], { stdio: "inherit" });
  if (tsc.status !== 0) fail("declarations did not build");
  writeCommonJsDeclarations(join(dist, "types"));
}

/**
 * Beside every `x.d.ts`, an `x.d.cts`: the same declarations typed as CommonJS, their relative
 * imports naming `.cjs` files, so a CommonJS consumer's compiler reads them as the `require` entry.
 */
function writeCommonJsDeclarations(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) writeCommonJsDeclarations(p);
    else if (name.endsWith(".d.ts")) {
      const text = readFileSync(p, "utf8").replace(/(from\s+|import\()(["'])(\.{1,2}\/[^"']+?)\.js\2/g, "$1$2$3.cjs$2");
      writeFileSync(p.slice(0, -".d.ts".length) + ".d.cts", text);
    }
  }
}

/** The plugin's README; another profile's build says under its title which profile it has and what that keeps. */
function pluginReadme(name) {
  const text = readFileSync(join(root, "plugin", "README.md"), "utf8");
  if (name === core.DEFAULT_CONFIG.profile) return text;
  const note = readFileSync(join(root, "plugin", `README.${name}.md`), "utf8");
  const at = text.indexOf("\n\n") + 2;
  return text.slice(0, at) + note.trim() + "\n\n" + text.slice(at);
}

const zip = zipSync({
  "manifest.json": strToU8(JSON.stringify(manifest, null, 2) + "\n"),
  [manifest.entry]: readFileSync(script),
  "README.md": strToU8(pluginReadme(profile)),
  LICENSE: readFileSync(join(root, "LICENSE")),
}, { level: 9, mtime: new Date("2026-01-01T00:00:00Z") });
const zipPath = join(dist, `cliffcompaction-agentparley${suffix}-${pkg.version}.zip`);
writeFileSync(zipPath, zip);
console.log(`build: ${script.slice(dist.length + 1)} ${readFileSync(script).length} bytes, ${zipPath.startsWith(root) ? zipPath.slice(root.length + 1) : zipPath} ${zip.length} bytes${args.config ? ` (config baked from ${args.config})` : ""}${suffix ? ` (${profile} profile)` : ""}`);
